// IDX and gzip reading: what the writer writes reads back, gzip-compressed or not, and every kind
// of bad file is a DataError that says where, never a crash or an allocation the size of a claim.
#include "runtime/data/idx.hpp"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "runtime/data/data_error.hpp"
#include "runtime/data/file_bytes.hpp"

namespace ordo::data {
namespace {

std::string gzip(const std::string& raw) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&z, raw.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
  z.avail_in = static_cast<uInt>(raw.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

IdxArray sample() {
  IdxArray a;
  a.dims = {3, 2, 2};
  for (std::uint8_t v = 0; v < 12; ++v) a.values.push_back(static_cast<std::uint8_t>(v * 20));
  return a;
}

void expect_error(const std::string& bytes, const std::string& where_part,
                  const std::string& problem_part) {
  try {
    parse_idx(bytes, "f.idx");
    ADD_FAILURE() << "no error";
  } catch (const DataError& e) {
    EXPECT_NE(e.where().find(where_part), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(problem_part), std::string::npos) << e.what();
  }
}

TEST(Idx, WhatIsWrittenReadsBack) {
  const IdxArray a = sample();
  const IdxArray b = parse_idx(write_idx(a), "x");
  EXPECT_EQ(b.dims, a.dims);
  EXPECT_EQ(b.values, a.values);
  const std::string bytes = write_idx(a);
  EXPECT_EQ(bytes.size(), 4u + 12u + 12u);
  EXPECT_EQ(static_cast<unsigned char>(bytes[7]), 3u);  // big-endian dimension
}

TEST(Idx, GzipFilesAreInflatedAsDebianShipsThem) {
  const std::string raw = write_idx(sample());
  const std::filesystem::path path = std::filesystem::temp_directory_path() / "ordo_idx_test.gz";
  {
    std::ofstream out(path, std::ios::binary);
    const std::string z = gzip(raw);
    out.write(z.data(), static_cast<std::streamsize>(z.size()));
  }
  const IdxArray b = read_idx_file(path.string());
  EXPECT_EQ(b.values, sample().values);
  std::filesystem::remove(path);
  // Two members, as `cat a.gz b.gz` makes, inflate to both.
  EXPECT_EQ(gunzip(gzip("ab") + gzip("cd"), "two"), "abcd");
}

TEST(Idx, BadFilesAreLocatedErrors) {
  const std::string good = write_idx(sample());
  expect_error("", "byte 0", "inside the IDX header");
  expect_error(std::string("\x1f\x8b\x08\x00", 4), "byte 0", "not IDX");
  std::string float_type = good;
  float_type[2] = '\x0d';
  expect_error(float_type, "byte 2", "element type 0x0d");
  std::string no_dims = good;
  no_dims[3] = '\0';
  expect_error(no_dims, "byte 3", "0 dimensions");
  expect_error(good.substr(0, 9), "byte 9", "inside the dimensions");
  expect_error(good.substr(0, good.size() - 1), "byte 12", "the file holds 11");
  expect_error(good + "x", "byte 28", "1 bytes after the last value");
}

TEST(Idx, HugeDimensionsAreRefusedBeforeAnyAllocation) {
  // 2^32-1 cubed would overflow 64 bits and ask for exabytes: refused at the first factor.
  std::string huge = {'\0', '\0', '\x08', '\x03'};
  for (int d = 0; d < 3; ++d) huge += std::string("\xff\xff\xff\xff", 4);
  expect_error(huge, "byte 4", "make 4294967295 values");
}

TEST(Gzip, CorruptTruncatedAndOversizedStreamsAreErrors) {
  const std::string z = gzip(std::string(5000, 'a'));
  EXPECT_THROW(gunzip(z.substr(0, z.size() / 2), "half"), DataError);
  std::string corrupt = z;
  corrupt[12] = static_cast<char>(corrupt[12] ^ 0x55);
  EXPECT_THROW(gunzip(corrupt, "corrupt"), DataError);
  std::string bad_crc = z;
  bad_crc[bad_crc.size() - 6] = static_cast<char>(bad_crc[bad_crc.size() - 6] ^ 1);
  EXPECT_THROW(gunzip(bad_crc, "crc"), DataError);
  EXPECT_THROW(gunzip(z + "junk", "junk"), DataError);
  // A bomb: what inflates past the cap stops at the cap.
  try {
    gunzip(z, "bomb", 1000);
    ADD_FAILURE() << "no error";
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("more than 1000 bytes"), std::string::npos) << e.what();
  }
  EXPECT_EQ(gunzip(z, "exact", 5000).size(), 5000u);
}

// A small gzip whose header claims 10 labels but that inflates to 32 MiB is refused once it
// inflates past what the header gives, not after inflating all of it (a 4 MB file inflated to
// the 4 GiB cap on every rank before).
TEST(Idx, AGzipIsInflatedNoFurtherThanItsHeaderSays) {
  std::string raw = {'\0', '\0', '\x08', '\x01', '\0', '\0', '\0', '\x0a'};
  raw += std::string(32 << 20, '\x03');
  const std::filesystem::path path = std::filesystem::temp_directory_path() /
                                     ("ordo_idx_bomb_" + std::to_string(::getpid()) + ".gz");
  {
    std::ofstream out(path, std::ios::binary);
    const std::string z = gzip(raw);
    ASSERT_LT(z.size(), 1u << 20);
    out.write(z.data(), static_cast<std::streamsize>(z.size()));
  }
  try {
    read_idx_file(path.string());
    ADD_FAILURE() << "no error";
  } catch (const DataError& e) {
    EXPECT_EQ(e.problem(), "inflates to more than 18 bytes") << e.what();
    EXPECT_NE(e.expected().find("IDX header gives (10 values)"), std::string::npos) << e.what();
  }
  std::filesystem::remove(path);
}

TEST(Gzip, ABoundIsExactAndAPrefixInflatesNoMore) {
  const std::string z = gzip(std::string(5000, 'a'));
  EXPECT_EQ(gunzip_prefix(z, "prefix", 10), std::string(10, 'a'));
  EXPECT_EQ(gunzip_prefix(z, "prefix", 9000).size(), 5000u);
  // An empty member after the bound's last byte passes it.
  EXPECT_EQ(gunzip(gzip("ab") + gzip(""), "two", 2), "ab");
  EXPECT_THROW(gunzip(gzip("ab") + gzip("c"), "two", 2), DataError);
}

TEST(FileBytes, AMissingFileIsAnErrorNamingIt) {
  try {
    read_file_bytes("no/such/file.idx");
    ADD_FAILURE() << "no error";
  } catch (const DataError& e) {
    EXPECT_EQ(e.where(), "no/such/file.idx");
  }
}

}  // namespace
}  // namespace ordo::data
