// read_dump_file: file problems and dump problems both name the file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "runtime/dag/dump_reader.hpp"
#include "runtime/dag/dump_writer.hpp"
#include "runtime/dag/limits.hpp"
#include "runtime/io/input_file.hpp"
#include "tests/dag/sample_jobs.hpp"
#include "tests/dag/test_support.hpp"

namespace ordo::dag {
namespace {

using testing::contains;

// A fresh directory per test, removed afterwards.
class DagReaderFile : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("ordo_dag_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path write(const std::string& name, const std::string& text) const {
    const std::filesystem::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  static DumpError error_reading_file(const std::filesystem::path& path) {
    try {
      read_dump_file(path);
    } catch (const DumpError& error) {
      return error;
    }
    return DumpError("<no error>", "the file was read without error", "an error");
  }

  std::filesystem::path dir_;
};

TEST_F(DagReaderFile, ReadsAWrittenJob) {
  const Job job = testing::every_construct_job();
  EXPECT_EQ(read_dump_file(write("job.json", write_dump(job))), job);
}

TEST_F(DagReaderFile, MissingFile) {
  const std::filesystem::path path = dir_ / "absent.json";
  const DumpError error = error_reading_file(path);
  EXPECT_EQ(error.where(), path.string());
  EXPECT_TRUE(contains(error.problem(), "cannot open")) << error.what();
}

TEST_F(DagReaderFile, Directory) {
  const DumpError error = error_reading_file(dir_);
  EXPECT_EQ(error.where(), dir_.string());
  EXPECT_EQ(error.problem(), "is a directory");
}

TEST_F(DagReaderFile, ErrorsInsideTheFileNameTheFileFirst) {
  const std::filesystem::path path = write("bad.json", "{\n  \"format\": \"ordo-dag\",\n  ]");
  const DumpError error = error_reading_file(path);
  EXPECT_EQ(error.where(), path.string() + ": line 3, column 3");
  const std::filesystem::path wrong = write("wrong.json", R"({"format": "other"})");
  EXPECT_EQ(error_reading_file(wrong).where(), wrong.string() + ": /format");
}

// A sparse file: over the limit in size without taking the disk space.
TEST_F(DagReaderFile, FileLargerThanTheLimit) {
  const std::filesystem::path path = write("huge.json", "");
  std::filesystem::resize_file(path, limits::dump_bytes_max + 1);
  const DumpError error = error_reading_file(path);
  EXPECT_EQ(error.where(), path.string());
  EXPECT_EQ(error.problem(), "dump is " + std::to_string(limits::dump_bytes_max + 1) + " bytes");
}

// JSON text never holds a NUL byte: a device of zeros (or a binary file) is refused in its first
// chunk, naming the byte, instead of read to the size limit.
// A device is read only under a bound that ends any wait (io::StreamsUnderABound, which verify's
// guard holds); without one it is refused by what it is.
TEST_F(DagReaderFile, ANulByteEndsTheRead) {
  EXPECT_EQ(error_reading_file("/dev/zero").problem(),
            "is a character device, whose reading may wait for ever");
  const io::StreamsUnderABound bounded;
  const DumpError zeros = error_reading_file("/dev/zero");
  EXPECT_EQ(zeros.where(), "/dev/zero");
  EXPECT_EQ(zeros.problem(), "a NUL byte at byte 0") << zeros.what();
  const std::filesystem::path path =
      write("nul.json", std::string("{\"format\": \"ordo-dag\"\0}", 23));
  EXPECT_EQ(error_reading_file(path).problem(), "a NUL byte at byte 21");
}

}  // namespace
}  // namespace ordo::dag
