#include "networks.hpp"

namespace ordo::kvstore::mpi_test {

namespace {

networks::Layer dense(const std::string& name, std::uint64_t weight_count, std::uint64_t bias_count,
            std::vector<std::uint32_t> inputs) {
  return networks::Layer{name,
               {{name + ".weight", weight_count, dag::DType::f32},
                {name + ".bias", bias_count, dag::DType::f32}},
               0.0,
               0.0,
               std::move(inputs)};
}

}  // namespace

networks::Network keys_network(const std::string& name, const std::vector<std::uint64_t>& counts) {
  networks::Network net{name, {}};
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const std::string layer = "layer" + std::to_string(i);
    net.layers.push_back(
        networks::Layer{layer, {{layer + ".param", counts[i], dag::DType::f32}}, 0.0, 0.0, {}});
    if (i > 0) net.layers.back().inputs = {static_cast<std::uint32_t>(i - 1)};
  }
  networks::check_network(net);
  return net;
}

networks::Network branching_network() {
  networks::Network net{"branching", {}};
  net.layers.push_back(dense("stem", 4096, 64, {}));
  std::vector<std::uint32_t> ends;
  for (std::uint32_t b = 0; b < 3; ++b) {
    const std::string name = "branch" + std::to_string(b);
    // Sizes differ per branch so that a key summed in the wrong order would also mismatch in
    // element count, not only in value.
    net.layers.push_back(dense(name + ".a", 1000 + 517 * b, 31 + b, {0}));
    const auto a = static_cast<std::uint32_t>(net.layers.size() - 1);
    net.layers.push_back(dense(name + ".b", 3000 - 700 * b, 17 + 2 * b, {a}));
    ends.push_back(static_cast<std::uint32_t>(net.layers.size() - 1));
  }
  net.layers.push_back(dense("join", 2048, 7, ends));
  net.layers.push_back(
      dense("head", 10 * 1024, 10, {static_cast<std::uint32_t>(net.layers.size() - 1)}));
  networks::check_network(net);
  return net;
}

}  // namespace ordo::kvstore::mpi_test
