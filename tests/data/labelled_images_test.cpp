// Image sets from IDX pairs, and Fashion-MNIST itself as Debian installs it (scripts/setup.sh
// installs dataset-fashion-mnist): its published shape and class balance.
#include "runtime/data/labelled_images.hpp"

#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "runtime/data/data_error.hpp"
#include "runtime/data/idx.hpp"

namespace ordo::data {
namespace {

class Files : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("ordo_labelled_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const IdxArray& a) {
    const std::string path = (dir_ / name).string();
    std::ofstream out(path, std::ios::binary);
    const std::string bytes = write_idx(a);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return path;
  }
  std::filesystem::path dir_;
};

IdxArray images(std::uint32_t n) { return {{n, 2, 3}, std::vector<std::uint8_t>(n * 6u, 7)}; }
IdxArray labels(std::vector<std::uint8_t> v) {
  return {{static_cast<std::uint32_t>(v.size())}, std::move(v)};
}

TEST_F(Files, APairReadsAsOneSet) {
  const LabelledImages s =
      read_labelled_images(write("i", images(3)), write("l", labels({0, 2, 1})), 3);
  EXPECT_EQ(s.count, 3u);
  EXPECT_EQ(s.rows, 2u);
  EXPECT_EQ(s.cols, 3u);
  EXPECT_EQ(s.pixels.size(), 18u);
  EXPECT_EQ(s.labels, (std::vector<std::uint8_t>{0, 2, 1}));
}

TEST_F(Files, ALabelOutOfRangeNamesItsRecord) {
  try {
    read_labelled_images(write("i", images(3)), write("l", labels({0, 9, 1})), 3);
    ADD_FAILURE() << "no error";
  } catch (const DataError& e) {
    EXPECT_NE(e.where().find("record 1"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("label 9"), std::string::npos) << e.what();
  }
}

TEST_F(Files, ShapesThatDoNotFitAreErrors) {
  EXPECT_THROW(read_labelled_images(write("i", images(3)), write("l", labels({0, 1})), 3),
               DataError);
  EXPECT_THROW(read_labelled_images(write("i", labels({0})), write("l", labels({0})), 3),
               DataError);
  EXPECT_THROW(read_labelled_images(write("i", images(0)), write("l", labels({})), 3), DataError);
}

// Both forms give the same first examples, each image with its own label; a count of 0 or past
// the end keeps the whole set.
TEST(FirstExamples, KeepThePrefixFromAKeptSetAndFromOneGivenUp) {
  LabelledImages set;
  set.count = 4;
  set.rows = 1;
  set.cols = 2;
  set.classes = 4;
  set.pixels = {10, 11, 20, 21, 30, 31, 40, 41};
  set.labels = {0, 1, 2, 3};
  const LabelledImages kept = first_examples(set, 3);
  LabelledImages copy = set;
  const LabelledImages given_up = first_examples(std::move(copy), 3);
  for (const LabelledImages* s : {&kept, &given_up}) {
    EXPECT_EQ(s->count, 3u);
    EXPECT_EQ(s->rows, 1u);
    EXPECT_EQ(s->cols, 2u);
    EXPECT_EQ(s->classes, 4u);
    EXPECT_EQ(s->pixels, (std::vector<std::uint8_t>{10, 11, 20, 21, 30, 31}));
    EXPECT_EQ(s->labels, (std::vector<std::uint8_t>{0, 1, 2}));
  }
  EXPECT_EQ(set.count, 4u);  // the kept set is left whole
  EXPECT_EQ(first_examples(set, 0).pixels, set.pixels);
  EXPECT_EQ(first_examples(set, 9).labels, set.labels);
}

TEST(FashionMnist, HasItsPublishedShapeAndBalance) {
  for (const bool train : {true, false}) {
    const LabelledImages s = read_fashion_mnist(fashion_mnist_dir_default, train);
    const std::uint32_t n = train ? 60000 : 10000;
    EXPECT_EQ(s.count, n);
    EXPECT_EQ(s.rows, 28u);
    EXPECT_EQ(s.cols, 28u);
    std::array<std::uint32_t, 10> per_class{};
    for (std::uint8_t l : s.labels) ++per_class.at(l);
    for (std::uint32_t c : per_class) EXPECT_EQ(c, n / 10);  // balanced, as published
  }
}

}  // namespace
}  // namespace ordo::data
