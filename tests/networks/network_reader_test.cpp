// Network descriptions: what write_network writes reads back equal (ResNet-50 and a layered
// net with branches), and malformed descriptions fail at the right place with what was expected.
#include "runtime/networks/network_reader.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "runtime/errors/input_error.hpp"
#include "runtime/io/input_file.hpp"

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
  } catch (const errors::InputError& e) {
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

// A network with nothing to get wrong would be "safe at every rank count": refused instead.
TEST(NetworkReader, ANetworkWithoutLayersOrParametersIsRefused) {
  const std::string head = R"({"format": "ordo-network", "version": 1, "name": "n", "layers": )";
  expect_error(head + "[]}", "/layers", "no layers; expected at least one layer");
  expect_error(head + R"([{"name": "a"}, {"name": "b", "inputs": [0]}]})", "/layers",
               "no parameters in any layer");
}

// 17 layers of 4096 parameters pass each layer's limit but not the network's: refused at the
// layer that crosses it, before anything is built from it.
TEST(NetworkReader, TheNetworksParametersAreBoundedAsTheyAreRead) {
  std::string text = R"({"format": "ordo-network", "version": 1, "name": "n", "layers": [)";
  for (int l = 0; l < 17; ++l) {
    text +=
        std::string(l == 0 ? "" : ",") + R"({"name": "l)" + std::to_string(l) + R"(", "params": [)";
    for (int p = 0; p < 4096; ++p) {
      text += std::string(p == 0 ? "" : ",") + R"({"name": "l)" + std::to_string(l) + "p" +
              std::to_string(p) + R"(", "count": 1})";
    }
    text += "]}";
  }
  text += "]}";
  expect_error(text, "/layers/16/params",
               "69632 parameters in the network up to this layer; expected at most 65536");
}

// A description is bounded in bytes before it is parsed, far below a dump's 512 MiB: the parsed
// tree of 512 MiB of parameters would be gigabytes. A sparse file is over it without the disk.
TEST(NetworkReader, ADescriptionIsBoundedInBytesFirst) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() /
                                     ("ordo_network_huge_" + std::to_string(::getpid()) + ".json");
  std::ofstream(path) << "";
  std::filesystem::resize_file(path, (std::uint64_t{32} << 20) + 1);
  try {
    read_network_file(path);
    ADD_FAILURE() << "read a description of 32 MiB + 1";
  } catch (const errors::InputError& e) {
    EXPECT_EQ(e.what(), path.string() + ": network description is 33554433 bytes; expected at " +
                            "most 33554432 bytes");
  }
  std::filesystem::remove(path);
  expect_error(std::string((std::size_t{32} << 20) + 1, ' '), "/", "at most 33554432 bytes");
}

TEST(NetworkReader, FilesAreReadUnderTheDumpReadersBounds) {
  const io::StreamsUnderABound bounded;  // as under verify's guard: the device is read
  for (const char* path : {"/dev/zero", "/"}) {
    try {
      read_network_file(path);
      ADD_FAILURE() << "read " << path;
    } catch (const errors::InputError& e) {
      EXPECT_EQ(e.where(), path);
      EXPECT_NE(std::string(e.what()).find(path[1] == '\0' ? "is a directory" : "NUL byte"),
                std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace ordo::networks
