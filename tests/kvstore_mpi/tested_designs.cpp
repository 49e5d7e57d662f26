#include "tested_designs.hpp"

namespace ordo::kvstore::mpi_test {

DesignConfig funnel_config() {
  DesignConfig c;
  c.kind = DesignKind::funnel;
  return c;
}

DesignConfig concom_config() {
  DesignConfig c;
  c.kind = DesignKind::concom;
  c.comm_threads = 1;
  c.ncomm = 2;
  c.outstanding = 2;
  return c;
}

DesignConfig depcha_config(std::uint32_t comm_threads) {
  DesignConfig c;
  c.kind = DesignKind::depcha;
  c.comm_threads = comm_threads;
  return c;
}

std::vector<DesignConfig> safe_designs() {
  return {funnel_config(), concom_config(), depcha_config(2), depcha_config(4)};
}

std::vector<DesignConfig> copy_designs() {
  return {with_copy(funnel_config()), with_copy(concom_config()), with_copy(depcha_config(2))};
}

DesignConfig with_copy(DesignConfig config) {
  config.buffers = BufferMode::copy;
  return config;
}

std::string test_name(const DesignConfig& config) {
  std::string name(to_string(config.kind));
  switch (config.kind) {
    case DesignKind::concom:
      name += "_ncomm" + std::to_string(config.ncomm) + "_outstanding" +
              std::to_string(config.outstanding);
      break;
    case DesignKind::depcha:
    case DesignKind::naive:
      name += "_threads" + std::to_string(config.comm_threads);
      break;
    case DesignKind::funnel:
      break;
  }
  return config.buffers == BufferMode::copy ? name + "_copy" : name;
}

}  // namespace ordo::kvstore::mpi_test
