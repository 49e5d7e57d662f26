// The checkpoint format: what is written reads back equal; every torn, altered or hostile file is
// refused with a CheckpointError naming the file and the byte, never read as a checkpoint.
#include "runtime/checkpoint/checkpoint_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "runtime/checkpoint/checkpoint_error.hpp"

namespace ordo::checkpoint {
namespace {

Checkpoint sample() {
  Checkpoint c;
  c.network = "lenet";
  c.design = "depcha";
  c.world_size = 4;
  c.rank = 3;
  c.seed = 0xfeedbeefcafe;
  c.batch = 32;
  c.step = 77;
  c.epoch = 2;
  c.step_in_epoch = 5;
  c.epoch_sums = {0.1 + 0.2, 97, 160};  // a sum whose bits a decimal round trip could change
  c.arrays.push_back({"conv1.weight", "weight", {2, 1, 3, 3}, {}});
  for (int i = 0; i < 18; ++i) c.arrays.back().values.push_back(0.25f * static_cast<float>(i) - 1);
  c.arrays.push_back({"conv1.weight", "momentum", {2, 1, 3, 3}, std::vector<float>(18, -0.0f)});
  c.arrays.push_back({"buffer.0", "buffer", {0}, {}});
  c.arrays.push_back({"scalar", "buffer", {}, {3.5f}});
  return c;
}

// The bytes with a fresh CRC-32, as a forger would leave them.
std::string with_crc(std::string bytes) {
  bytes.resize(bytes.size() - 4);
  const auto crc = static_cast<std::uint32_t>(
      crc32(0L, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
  bytes.append(reinterpret_cast<const char*>(&crc), 4);
  return bytes;
}

// The bytes with the header replaced (its length fixed up) and a fresh CRC.
std::string with_header(const std::string& bytes, const std::string& header) {
  std::uint64_t old = 0;
  std::memcpy(&old, bytes.data() + 12, 8);
  std::string out = bytes.substr(0, 12);
  const std::uint64_t n = header.size();
  out.append(reinterpret_cast<const char*>(&n), 8);
  out += header;
  out += bytes.substr(20 + old);
  return with_crc(out);
}

nlohmann::json header_of(const std::string& bytes) {
  std::uint64_t n = 0;
  std::memcpy(&n, bytes.data() + 12, 8);
  return nlohmann::json::parse(bytes.substr(20, n));
}

TEST(CheckpointFile, RoundTripsBitForBit) {
  const Checkpoint c = sample();
  const std::string bytes = encode(c);
  EXPECT_EQ(bytes.substr(0, 8), "ORDOCKPT");
  const Checkpoint back = decode(bytes, "mem");
  EXPECT_EQ(back, c);
  // -0.0f == 0.0f as floats: compare the bits of the momentum.
  EXPECT_EQ(std::memcmp(back.arrays[1].values.data(), c.arrays[1].values.data(), 18 * 4), 0);
  EXPECT_EQ(encode(back), bytes);
}

// The epoch's loss sum comes back as the same bits, a diverged run's NaN and infinity included
// (JSON's numbers have neither).
TEST(CheckpointFile, EpochSumsKeepTheirBits) {
  for (const double loss : {std::numeric_limits<double>::quiet_NaN(),
                            std::numeric_limits<double>::infinity(), -0.0, 5e-324}) {
    Checkpoint c = sample();
    c.epoch_sums.loss = loss;
    const Checkpoint back = decode(encode(c), "mem");
    EXPECT_EQ(std::bit_cast<std::uint64_t>(back.epoch_sums.loss),
              std::bit_cast<std::uint64_t>(loss))
        << loss;
  }
}

TEST(CheckpointFile, EveryTruncationIsRefused) {
  const std::string bytes = encode(sample());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_THROW(decode(bytes.substr(0, n), "torn.ckpt"), CheckpointError) << n;
  }
  EXPECT_THROW(decode(bytes + '\0', "long.ckpt"), CheckpointError);
}

TEST(CheckpointFile, EveryFlippedBitIsRefused) {
  const std::string bytes = encode(sample());
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    for (int bit = 0; bit < 8; bit += 3) {
      std::string bad = bytes;
      bad[i] = static_cast<char>(bad[i] ^ (1 << bit));
      EXPECT_THROW(decode(bad, "flip.ckpt"), CheckpointError) << "byte " << i << " bit " << bit;
    }
  }
}

TEST(CheckpointFile, ErrorsNameTheFileTheByteAndWhatWasExpected) {
  std::string bytes = encode(sample());
  bytes[20] ^= 1;
  try {
    decode(bytes, "run/step-7/rank-0.ckpt");
    FAIL() << "a torn file was read";
  } catch (const CheckpointError& e) {
    EXPECT_EQ(e.where(), "run/step-7/rank-0.ckpt: byte " + std::to_string(bytes.size() - 4));
    EXPECT_NE(e.problem().find("CRC-32"), std::string::npos) << e.what();
  }
  // Version 1 had no epoch sums: a run resumed from it could not report its epoch whole.
  std::string version = encode(sample());
  version[8] = 1;
  try {
    decode(version, "v.ckpt");
    FAIL();
  } catch (const CheckpointError& e) {
    EXPECT_EQ(e.problem(), "format version 1");
    EXPECT_EQ(e.expected(), "version 2");
  }
}

// A forger who fixes the checksum is still held to the header's meaning.
TEST(CheckpointFile, HostileHeadersWithAValidChecksumAreRefused) {
  const std::string bytes = encode(sample());
  const nlohmann::json h = header_of(bytes);
  auto refused = [&](nlohmann::json bad, const std::string& why) {
    EXPECT_THROW(decode(with_header(bytes, bad.dump()), "forged.ckpt"), CheckpointError) << why;
  };
  {
    nlohmann::json bad = h;
    bad["arrays"][0]["shape"] = {1 << 30, 1 << 30, 1 << 30};
    refused(bad, "a shape far larger than the file");
  }
  {
    nlohmann::json bad = h;
    bad["arrays"][0]["shape"] = {-2, -9};
    refused(bad, "negative dimensions that multiply to the right count");
  }
  {
    nlohmann::json bad = h;
    bad["arrays"][0]["shape"] = {2, 1, 3, 2};
    refused(bad, "a shape that leaves bytes over");
  }
  {
    nlohmann::json bad = h;
    bad["arrays"][1]["group"] = "gradient";
    refused(bad, "an unknown group");
  }
  {
    nlohmann::json bad = h;
    bad["rank"] = 4;
    refused(bad, "a rank outside the world");
  }
  {
    nlohmann::json bad = h;
    bad.erase("seed");
    refused(bad, "a missing field");
  }
  {
    nlohmann::json bad = h;
    bad["step"] = "77";
    refused(bad, "a mistyped field");
  }
  {
    nlohmann::json bad = h;
    bad.erase("epoch_sums");
    refused(bad, "no epoch sums");
  }
  {
    nlohmann::json bad = h;
    bad["epoch_sums"]["correct"] = 161;
    refused(bad, "more right answers than images");
  }
  refused(nlohmann::json::array(), "a header that is not an object");
  EXPECT_THROW(decode(with_header(bytes, "{\"network\":"), "forged.ckpt"), CheckpointError);
  // The same header written back is accepted: the forging itself is sound.
  EXPECT_EQ(decode(with_header(bytes, h.dump()), "same.ckpt"), sample());
}

TEST(CheckpointFile, EncodeRefusesArraysThatDoNotFillTheirShape) {
  Checkpoint c = sample();
  c.arrays[0].values.pop_back();
  EXPECT_THROW(encode(c), std::invalid_argument);
  c = sample();
  c.arrays[0].group = "grad";
  EXPECT_THROW(encode(c), std::invalid_argument);
}

// The fuzz harness's seeds (fuzz/corpus/checkpoint_parser/) are of this format version, so that
// the fuzzer starts past the version check: the valid ones decode, the forged ones fail the
// header's checks, the torn one its frame.
TEST(CheckpointFile, TheFuzzSeedsAreOfThisFormat) {
  const std::filesystem::path dir = ORDO_CHECKPOINT_CORPUS;
  const auto bytes_of = [&](const char* name) {
    std::ifstream in(dir / name, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
  };
  EXPECT_EQ(decode(bytes_of("valid.ckpt"), "valid.ckpt").epoch_sums.images, 80u);
  EXPECT_TRUE(decode(bytes_of("empty_arrays.ckpt"), "empty_arrays.ckpt").arrays.empty());
  const std::pair<const char*, const char*> refused[] = {
      {"forged_rank.ckpt", "rank 7 of 2"},
      {"forged_shape.ckpt", "shape does not fit"},
      {"torn.ckpt", "header of"}};
  for (const auto& [name, problem] : refused) {
    try {
      decode(bytes_of(name), name);
      ADD_FAILURE() << name << " was read";
    } catch (const CheckpointError& e) {
      EXPECT_NE(e.problem().find(problem), std::string::npos) << e.what();
    }
  }
}

TEST(CheckpointFile, WritesAndReadsFiles) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("ordo_ckpt_file_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "a.ckpt").string();
  write(path, sample());
  EXPECT_EQ(read(path), sample());
  EXPECT_THROW(read((dir / "missing.ckpt").string()), CheckpointError);
  std::filesystem::resize_file(path, 40);
  EXPECT_THROW(read(path), CheckpointError);
  std::filesystem::remove_all(dir);
}

// A directory given as a checkpoint is said to be one (it read as "a size of
// 9223372036854775807 bytes"); a FIFO is refused without opening it, which would wait for ever.
TEST(CheckpointFile, ADirectoryOrAFifoIsNamedNotRead) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("ordo_ckpt_odd_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "rank-0.ckpt");
  try {
    read((dir / "rank-0.ckpt").string());
    FAIL() << "a directory was read";
  } catch (const CheckpointError& e) {
    EXPECT_EQ(e.problem(), "is a directory") << e.what();
  }
  ASSERT_EQ(::mkfifo((dir / "rank-1.ckpt").c_str(), 0644), 0);
  try {
    read((dir / "rank-1.ckpt").string());
    FAIL() << "a FIFO was read";
  } catch (const CheckpointError& e) {
    EXPECT_NE(e.problem().find("is a named pipe (FIFO), whose reading may wait for ever"),
              std::string::npos)
        << e.what();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ordo::checkpoint
