#include "tested_designs.hpp"

namespace ordo::kvstore::mpi_test {

designs::DesignConfig funnel_config() {
  designs::DesignConfig c;
  c.kind = designs::DesignKind::funnel;
  return c;
}

designs::DesignConfig concom_config() {
  designs::DesignConfig c;
  c.kind = designs::DesignKind::concom;
  c.comm_threads = 1;
  c.ncomm = 2;
  c.outstanding = 2;
  return c;
}

designs::DesignConfig depcha_config(std::uint32_t comm_threads) {
  designs::DesignConfig c;
  c.kind = designs::DesignKind::depcha;
  c.comm_threads = comm_threads;
  return c;
}

designs::DesignConfig fused_config(std::uint64_t bucket_bytes) {
  designs::DesignConfig c;
  c.kind = designs::DesignKind::fused;
  c.comm_threads = 2;
  c.bucket_bytes = bucket_bytes;
  return c;
}

designs::DesignConfig nonblocking_config() {
  designs::DesignConfig c;
  c.kind = designs::DesignKind::nonblocking;
  return c;
}

designs::DesignConfig priority_config(std::uint64_t slice_bytes) {
  designs::DesignConfig c;
  c.kind = designs::DesignKind::priority;
  c.slice_bytes = slice_bytes;
  c.credit_bytes = 2 * slice_bytes;
  return c;
}

std::vector<designs::DesignConfig> safe_designs() {
  return {funnel_config(),        concom_config(),        depcha_config(2),
          depcha_config(4),       fused_config(16 << 10), fused_config(25 << 20),
          nonblocking_config(),   priority_config(4 << 10)};
}

std::vector<designs::DesignConfig> copy_designs() {
  return {with_copy(funnel_config()), with_copy(concom_config()), with_copy(depcha_config(2)),
          with_copy(fused_config(16 << 10)), with_copy(nonblocking_config())};
}

designs::DesignConfig with_copy(designs::DesignConfig config) {
  config.buffers = designs::BufferMode::copy;
  return config;
}

std::string test_name(const designs::DesignConfig& config) {
  std::string name(to_string(config.kind));
  switch (config.kind) {
    case designs::DesignKind::concom:
      name += "_ncomm" + std::to_string(config.ncomm) + "_outstanding" +
              std::to_string(config.outstanding);
      break;
    case designs::DesignKind::depcha:
    case designs::DesignKind::naive:
      name += "_threads" + std::to_string(config.comm_threads);
      break;
    case designs::DesignKind::fused:
      name += "_bucket" + std::to_string(config.bucket_bytes >> 10) + "KiB";
      break;
    case designs::DesignKind::sharded:
      name += "_shards" + std::to_string(config.shards);
      break;
    case designs::DesignKind::hierarchical:
      name += "_" + std::to_string(config.nodes) + "x" + std::to_string(config.node_ranks);
      break;
    case designs::DesignKind::priority:
      name += "_slice" + std::to_string(config.slice_bytes >> 10) + "KiB";
      break;
    case designs::DesignKind::funnel:
    case designs::DesignKind::nonblocking:
      break;
  }
  return config.buffers == designs::BufferMode::copy ? name + "_copy" : name;
}

}  // namespace ordo::kvstore::mpi_test
