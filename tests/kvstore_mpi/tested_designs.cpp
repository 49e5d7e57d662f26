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

std::vector<designs::DesignConfig> safe_designs() {
  return {funnel_config(), concom_config(), depcha_config(2), depcha_config(4)};
}

std::vector<designs::DesignConfig> copy_designs() {
  return {with_copy(funnel_config()), with_copy(concom_config()), with_copy(depcha_config(2))};
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
    case designs::DesignKind::funnel:
      break;
  }
  return config.buffers == designs::BufferMode::copy ? name + "_copy" : name;
}

}  // namespace ordo::kvstore::mpi_test
