// Byte counts as users write them: units, case, and counts past 64 bits.
#include "runtime/bounds/bytes.hpp"

#include <gtest/gtest.h>

#include <string>

namespace ordo::bounds {
namespace {

TEST(ReadBytes, ReadsCountsWithTheirUnits) {
  EXPECT_EQ(read_bytes("0").bytes, 0u);
  EXPECT_EQ(read_bytes("4096").bytes, 4096u);
  EXPECT_EQ(read_bytes("512M").bytes, 512ull << 20);
  EXPECT_EQ(read_bytes("4G").bytes, 4ull << 30);
  EXPECT_EQ(read_bytes("25MiB").bytes, 25ull << 20);
  EXPECT_EQ(read_bytes("64kb").bytes, 64ull << 10);
  EXPECT_EQ(read_bytes("64 KiB").bytes, 64ull << 10);
  EXPECT_EQ(read_bytes("3b").bytes, 3u);
  EXPECT_EQ(read_bytes("2T").bytes, 2ull << 40);
  EXPECT_EQ(read_bytes("18446744073709551615").bytes, UINT64_MAX);
  EXPECT_EQ(read_bytes("16383P").bytes, 16383ull << 50);
}

TEST(ReadBytes, RefusesCountsPast64BitsInsteadOfWrapping) {
  for (const char* text :
       {"18446744073709551616", "99999999999999999999", "16384P", "17179869184G"}) {
    const BytesRead read = read_bytes(text);
    ASSERT_TRUE(read.problem) << text;
    EXPECT_EQ(*read.problem, "'" + std::string(text) + "' is not a size: more than 2^64 - 1 bytes");
  }
}

TEST(ReadBytes, RefusesWhatIsNoCount) {
  for (const char* text : {"", "-5", "M", "1.5G", "5X", "5 M B", "0x10", "+3", "1e9", "5MBs"}) {
    const BytesRead read = read_bytes(text);
    ASSERT_TRUE(read.problem) << "'" << text << "'";
    EXPECT_NE(read.problem->find("expected a whole number of bytes"), std::string::npos) << text;
  }
}

}  // namespace
}  // namespace ordo::bounds
