// Network descriptions: what write_network writes reads back equal (ResNet-50 and a layered
// net with branches), and malformed descriptions fail at the right place with what was expected.
#include "runtime/networks/network_reader.hpp"

#include <gtest/gtest.h>

#include "runtime/dag/dump_error.hpp"

namespace ordo::networks {
namespace {

TEST(NetworkReader, BuiltInNetworksRoundTrip) {
  for (const Network& net :
       {resnet50(30000.0), mlp(3, 16, 5.0), lenet(10, 100.0),
        cifar_resnet(20, 10, {3, 32, 32}, 100.0), inception_bn(1000, {3, 224, 224}, 100.0)}) {
    EXPECT_EQ(read_network(write_network(net)), net) << net.name;
  }
}

void expect_error(const std::string& text, const std::string& where, const std::string& words) {
  try {
    read_network(text);
    ADD_FAILURE() << "accepted: " << text;
  } catch (const dag::DumpError& e) {
    EXPECT_EQ(e.where(), where) << e.what();
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(NetworkReader, MalformedDescriptionsSayWhereAndWhat) {
  const std::string head = R"({"format": "ordo-network", "version": 1, "name": "n", "layers": )";
  expect_error(R"({"format": "ordo-dag", "version": 1, "name": "n", "layers": []})", "/format",
               "ordo-network");
  expect_error(head + R"([{"name": "a", "inputs": [0]}]})", "/layers/0/inputs/0", "earlier layer");
  expect_error(head + R"([{"name": "a", "params": [{"name": "w"}]}]})", "/layers/0/params/0",
               "count");
  expect_error(head + R"([{"name": "a", "forward_us": -1}]})", "/layers/0/forward_us", "");
  expect_error(head + R"([{"name": "a"}, {"name": "a"}]})", "/layers", "");
  expect_error(head + R"([{"name": "a", "colour": 1}]})", "/layers/0/colour", "unknown field");
}

}  // namespace
}  // namespace ordo::networks
