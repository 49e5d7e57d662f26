// RecordIO framing: the bytes are dmlc-core's (magic, length word, data, zero padding), a payload
// holding the magic at an aligned word is split into parts and joined back, and every kind of
// damaged file is a DataError naming the file, the record and the byte.
#include "runtime/data/recordio.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/data/data_error.hpp"

namespace ordo::data {
namespace {

const std::string magic("\x0a\x23\xd7\xce", 4);  // 0xced7230a, little-endian

std::string le32(std::uint32_t v) {
  std::string s;
  for (int shift = 0; shift < 32; shift += 8) s.push_back(static_cast<char>(v >> shift & 0xff));
  return s;
}

std::vector<std::string> scan(const std::string& file) {
  const MemoryRange range(file);
  RecordScanner scanner(range, "t.rec");
  std::vector<std::string> out;
  Record r;
  while (scanner.next(r)) out.push_back(r.payload);
  return out;
}

// The error reading `file` from the start; fails the test when there is none.
DataError scan_error(const std::string& file) {
  try {
    scan(file);
  } catch (const DataError& e) {
    return e;
  }
  ADD_FAILURE() << "no error";
  return DataError("", "", "");
}

void expect_error(const std::string& file, const std::string& where,
                  const std::string& problem_part) {
  const DataError e = scan_error(file);
  EXPECT_EQ(e.where(), where) << e.what();
  EXPECT_NE(e.problem().find(problem_part), std::string::npos) << e.what();
}

TEST(RecordIO, ARecordIsMagicLengthDataAndPadding) {
  EXPECT_EQ(encode_record("abcde"), magic + le32(5) + "abcde" + std::string(3, '\0'));
  EXPECT_EQ(encode_record("abcd"), magic + le32(4) + "abcd");
  EXPECT_EQ(encode_record(""), magic + le32(0));
}

TEST(RecordIO, APayloadHoldingTheMagicIsSplitIntoParts) {
  // Magic words at 0, 8 and 12 (aligned): parts "" (first), "abcd" (middle), "" (middle), "xy"
  // (last). The one at 17 is not aligned and stays in the data.
  const std::string payload = magic + "abcd" + magic + magic + "x" + magic + "y";
  const std::string expected = magic + le32(1u << 29 | 0) +           // first, empty
                               magic + le32(2u << 29 | 4) + "abcd" +  // middle
                               magic + le32(2u << 29 | 0) +           // middle, empty
                               magic + le32(3u << 29 | 6) + "x" + magic + "y" +
                               std::string(2, '\0');  // last, padded
  EXPECT_EQ(encode_record(payload), expected);
  EXPECT_EQ(scan(expected), std::vector<std::string>{payload});
  // Ending on the magic leaves an empty last part.
  const std::string tail = "abcd" + magic;
  EXPECT_EQ(encode_record(tail), magic + le32(1u << 29 | 4) + "abcd" + magic + le32(3u << 29));
  EXPECT_EQ(scan(encode_record(tail)), std::vector<std::string>{tail});
}

TEST(RecordIO, TheWriterReturnsOffsetsAndTheScannerReadsBackEveryRecord) {
  std::string file;
  RecordWriter writer([&file](std::string_view b) { file.append(b); });
  const std::vector<std::string> payloads = {"a", "", "0123456789", magic + magic, "xyz" + magic};
  std::vector<std::uint64_t> offsets;
  for (const std::string& p : payloads) offsets.push_back(writer.append(p));
  EXPECT_EQ(offsets, (std::vector<std::uint64_t>{0, 12, 20, 40, 64}));
  EXPECT_EQ(writer.bytes_written(), file.size());
  EXPECT_EQ(writer.records_written(), 5u);
  EXPECT_EQ(scan(file), payloads);
  const MemoryRange range(file);
  for (std::size_t i = 0; i < payloads.size(); ++i) {
    const Record r = read_record_at(range, offsets[i], "t.rec", i);
    EXPECT_EQ(r.payload, payloads[i]);
    EXPECT_EQ(r.end, i + 1 < offsets.size() ? offsets[i + 1] : file.size());
  }
}

TEST(RecordIO, DamagedFilesAreLocatedErrors) {
  const std::string good = encode_record("abcdef") + encode_record("ghij");  // 16 + 12 bytes
  expect_error(good.substr(0, 16 + 5), "t.rec: record 1, byte 16", "inside a record header");
  expect_error(good.substr(0, 16 + 10), "t.rec: record 1, byte 20", "past the end of the file");
  std::string wrong_magic = good;
  wrong_magic[16] = 'X';
  expect_error(wrong_magic, "t.rec: record 1, byte 16", "the magic is 0xced72358");
  std::string huge = good;
  huge.replace(20, 4, le32(recordio_length_max));
  expect_error(huge, "t.rec: record 1, byte 20", "runs past the end of the file (4 bytes remain)");
  std::string bad_flag = good;
  bad_flag.replace(4, 4, le32(5u << 29 | 6));
  expect_error(bad_flag, "t.rec: record 0, byte 4", "continuation flag 5");
  expect_error(magic + le32(2u << 29 | 4) + "abcd", "t.rec: record 0, byte 4", "middle part");
  expect_error(magic + le32(3u << 29 | 4) + "abcd", "t.rec: record 0, byte 4", "last part");
  expect_error(magic + le32(1u << 29 | 4) + "abcd" + magic + le32(0) + "",
               "t.rec: record 0, byte 16", "before its last part");
  expect_error(magic + le32(1u << 29 | 4) + "abcd", "t.rec: record 0, byte 12",
               "the file ends (12 bytes) here");
  expect_error(magic + le32(1u << 29 | 3) + "abc" + std::string(1, '\0') + magic + le32(3u << 29),
               "t.rec: record 0, byte 4", "a part before the last is 3 bytes long");
  const MemoryRange range(good);
  EXPECT_THROW(read_record_at(range, 2, "t.rec", 0), DataError);
  EXPECT_THROW(read_record_at(range, 28, "t.rec", 0), DataError);
  EXPECT_THROW(read_record_at(range, std::uint64_t{1} << 62, "t.rec", 0), DataError);
}

TEST(RecordIO, AnOversizedPayloadIsRefused) {
  // The length is checked before a byte is read, so a view longer than its buffer stands in for
  // half a gigabyte.
  const char byte = 'a';
  EXPECT_THROW(encode_record(std::string_view(&byte, recordio_length_max + 1u)), DataError);
}

}  // namespace
}  // namespace ordo::data
