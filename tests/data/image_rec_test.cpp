// The ImageNet path end to end on a synthetic set: generate JPEGs in class folders, pack them as
// im2rec does, read them back through the index and decode them; and every kind of bad image
// record, index or JPEG is a DataError naming the file and the record.
#include "runtime/data/image_rec.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <turbojpeg.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "runtime/data/data_error.hpp"
#include "runtime/data/file_bytes.hpp"
#include "runtime/data/image_record.hpp"
#include "runtime/data/pack_rec.hpp"
#include "runtime/data/record_index.hpp"
#include "runtime/data/synthetic_images.hpp"

namespace ordo::data {
namespace {

namespace fs = std::filesystem;

class ImageRecFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ordo_image_rec_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A 3-class set of 4 images of 40x30 each, packed under dir_/set.
  std::string pack(std::optional<std::uint64_t> shuffle = std::nullopt) {
    write_synthetic_images((dir_ / "images").string(), options_);
    const std::string prefix = (dir_ / "set").string();
    const PackSummary summary = pack_rec((dir_ / "images").string(), prefix, {shuffle});
    EXPECT_EQ(summary.images, 12u);
    EXPECT_EQ(summary.classes, 3u);
    EXPECT_EQ(summary.rec_bytes, fs::file_size(prefix + ".rec"));
    return prefix;
  }
  static std::string slurp(const std::string& path) { return read_file_bytes(path); }
  static void put(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }

  fs::path dir_;
  SyntheticImagesOptions options_{3, 4, 40, 30, 7, 90};
};

template <typename F>
DataError error_of(F f) {
  try {
    f();
  } catch (const DataError& e) {
    return e;
  }
  ADD_FAILURE() << "no error";
  return DataError("", "", "");
}

TEST(Jpeg, EncodedImagesDecodeToTheirSizeAndNearlyTheirPixels) {
  const SyntheticImagesOptions options{2, 1, 33, 17, 1, 95};
  const RgbImage image = synthetic_image(options, 1, 0);
  const std::string jpeg = encode_jpeg(image, 95);
  EXPECT_EQ(jpeg.substr(0, 2), "\xff\xd8");
  const RgbImage back = decode_jpeg(jpeg, "x");
  ASSERT_EQ(back.width, 33u);
  ASSERT_EQ(back.height, 17u);
  double error = 0;
  for (std::size_t i = 0; i < image.pixels.size(); ++i) {
    error += std::abs(int{image.pixels[i]} - int{back.pixels[i]});
  }
  EXPECT_LT(error / static_cast<double>(image.pixels.size()), 12.0);  // lossy, not wrong
  EXPECT_EQ(jpeg_size(jpeg, "x").width, 33u);
}

TEST(Jpeg, CorruptTruncatedAndHugeJpegsAreErrors) {
  const std::string jpeg = encode_jpeg(synthetic_image({1, 1, 32, 32, 1, 90}, 0, 0));
  EXPECT_THROW(decode_jpeg("not a jpeg", "x"), DataError);
  EXPECT_THROW(decode_jpeg(jpeg.substr(0, jpeg.size() / 2), "x"), DataError);
  EXPECT_THROW(decode_jpeg(jpeg, "x", 32 * 31), DataError);  // over the pixel cap
  const DataError e = error_of([&] { decode_jpeg("", "a.rec: record 3"); });
  EXPECT_EQ(e.where(), "a.rec: record 3");
}

// A CMYK JPEG (as TurboJPEG writes one: YCCK with Adobe's marker) of one colour per half.
std::string cmyk_jpeg(std::uint8_t c, std::uint8_t m, std::uint8_t y, std::uint8_t k) {
  const int width = 16, height = 16;
  std::vector<unsigned char> pixels;
  for (int p = 0; p < width * height; ++p) {
    for (std::uint8_t v : {c, m, y, k}) pixels.push_back(v);
  }
  tjhandle h = tjInitCompress();
  unsigned char* out = nullptr;
  unsigned long size = 0;
  EXPECT_EQ(
      tjCompress2(h, pixels.data(), width, 0, height, TJPF_CMYK, &out, &size, TJSAMP_444, 100, 0),
      0);
  std::string jpeg(reinterpret_cast<const char*>(out), size);
  tjFree(out);
  tjDestroy(h);
  return jpeg;
}

TEST(Jpeg, CmykImagesDecodeToRgbAsOpenCvConvertsThem) {
  // Inverted CMYK, as Adobe stores it: k = 255 is no black, a channel of 255 no ink of its colour.
  const RgbImage red = decode_jpeg(cmyk_jpeg(255, 0, 0, 255), "cmyk");
  ASSERT_EQ(red.width, 16u);
  EXPECT_NEAR(red.pixels[0], 255, 3);  // k - ((255 - c) * k >> 8), OpenCV's formula
  EXPECT_NEAR(red.pixels[1], 0, 3);
  EXPECT_NEAR(red.pixels[2], 0, 3);
  const RgbImage grey = decode_jpeg(cmyk_jpeg(255, 255, 255, 128), "cmyk");
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(grey.pixels[static_cast<std::size_t>(c)], 128, 3);
}

TEST(Jpeg, GreyscaleImagesDecodeToThreeEqualChannels) {
  const RgbImage colour = synthetic_image({1, 1, 24, 16, 2, 90}, 0, 0);
  tjhandle h = tjInitCompress();
  unsigned char* out = nullptr;
  unsigned long size = 0;
  ASSERT_EQ(
      tjCompress2(h, colour.pixels.data(), 24, 0, 16, TJPF_RGB, &out, &size, TJSAMP_GRAY, 90, 0),
      0);
  const std::string grey(reinterpret_cast<const char*>(out), size);
  tjFree(out);
  tjDestroy(h);
  const RgbImage back = decode_jpeg(grey, "grey");
  ASSERT_EQ(back.pixels.size(), 24u * 16u * 3u);
  for (std::size_t p = 0; p < back.pixels.size(); p += 3) {
    EXPECT_EQ(back.pixels[p], back.pixels[p + 1]);
    EXPECT_EQ(back.pixels[p], back.pixels[p + 2]);
  }
}

TEST(ImageRecord, HeaderAndLabelsRoundTripAsImRecPacksThem) {
  const std::string one = pack_image_record(4.0f, 2574, "JPEG");
  ASSERT_EQ(one.size(), 24u + 4u);
  EXPECT_EQ(one.substr(4, 4), std::string("\x00\x00\x80\x40", 4));  // 4.0f
  const ImageRecord r = unpack_image_record(one, "w");
  EXPECT_EQ(r.flag, 0u);
  EXPECT_EQ(r.id, 2574u);
  EXPECT_EQ(r.image, "JPEG");
  EXPECT_EQ(class_label(r, 5, "w"), 4u);
  const ImageRecord multi = unpack_image_record(pack_image_record({1, 2, 3}, 9, "J"), "w");
  EXPECT_EQ(multi.flag, 3u);
  EXPECT_EQ(multi.label, 0.0f);
  EXPECT_EQ(multi.labels, (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(class_label(multi, 2, "w"), 1u);
}

TEST(ImageRecord, ShortRecordsAndBadLabelsAreErrors) {
  EXPECT_THROW(unpack_image_record(std::string(23, '\0'), "w"), DataError);
  std::string many = pack_image_record(1.0f, 0, "JPEG");
  many[3] = '\x7f';  // flag 0x7f000000 labels
  EXPECT_THROW(unpack_image_record(many, "w"), DataError);
  EXPECT_THROW(unpack_image_record(pack_image_record(1.0f, 0, ""), "w"), DataError);
  for (float bad : {5.0f, -1.0f, 1.5f, std::nanf("")}) {
    const ImageRecord r = unpack_image_record(pack_image_record(bad, 0, "J"), "w");
    EXPECT_THROW(class_label(r, 5, "w"), DataError) << bad;
  }
}

TEST(RecordIndex, LinesAreKeyTabOffset) {
  const std::vector<IndexEntry> e = parse_record_index("3\t0\n1\t128\r\n2\t256", "i");
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[1].key, 1u);
  EXPECT_EQ(e[2].offset, 256u);
  EXPECT_EQ(write_record_index({{3, 0}, {1, 128}}), "3\t0\n1\t128\n");
  EXPECT_TRUE(parse_record_index("", "i").empty());
  EXPECT_EQ(error_of([] { parse_record_index("0\t0\n1 8\n", "set.idx"); }).where(),
            "set.idx: line 2");
  EXPECT_EQ(error_of([] { parse_record_index("0\t0\n0\t8\n", "set.idx"); }).where(),
            "set.idx: line 2");
  EXPECT_THROW(parse_record_index("0\t-8\n", "i"), DataError);
  EXPECT_THROW(parse_record_index("0\t99999999999999999999999\n", "i"), DataError);
}

TEST_F(ImageRecFiles, GeneratedImagesPackAndReadBackWithTheirLabelsAndSizes) {
  const std::string prefix = pack();
  const ImageRec set(prefix, 3);
  ASSERT_EQ(set.size(), 12u);
  for (std::size_t i = 0; i < set.size(); ++i) {
    const LabelledImage example = set.read(i);
    EXPECT_EQ(example.label, i / 4);  // classes in name order, four images each
    EXPECT_EQ(example.id, i);
    EXPECT_EQ(set.records().entry(i).key, i);
    EXPECT_EQ(example.image.width, 40u);
    EXPECT_EQ(example.image.height, 30u);
    EXPECT_EQ(set.label(i), i / 4);
  }
  // The same bytes as a sequential scan sees them.
  const FileRange rec(prefix + ".rec");
  RecordScanner scanner(rec, prefix + ".rec");
  Record r;
  std::size_t n = 0;
  while (scanner.next(r)) EXPECT_EQ(r.offset, set.records().entry(n++).offset);
  EXPECT_EQ(n, 12u);
  // Images of different classes differ more than images of one class (they are learnable).
  const auto mean = [&](std::size_t i) {
    const RgbImage img = set.read(i).image;
    double s = 0;
    for (std::uint8_t p : img.pixels) s += p;
    return s / static_cast<double>(img.pixels.size());
  };
  EXPECT_NE(std::lround(mean(0)), std::lround(mean(4)));
}

TEST_F(ImageRecFiles, ShuffledPackingKeepsKeysAndIsDeterministic) {
  const std::string prefix = pack(42);
  const ImageRec set(prefix, 3);
  std::set<std::uint64_t> keys;
  bool moved = false;
  for (std::size_t i = 0; i < set.size(); ++i) {
    const LabelledImage example = set.read(i);
    EXPECT_EQ(example.id, set.records().entry(i).key);
    EXPECT_EQ(example.label, example.id / 4);
    keys.insert(example.id);
    moved = moved || example.id != i;
  }
  EXPECT_EQ(keys.size(), 12u);
  EXPECT_TRUE(moved);
  const std::string idx = slurp(prefix + ".idx");
  pack_rec((dir_ / "images").string(), prefix, {42});
  EXPECT_EQ(slurp(prefix + ".idx"), idx);
  // No temporaries are left beside the outputs.
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 3u);  // images/, set.rec, set.idx
}

TEST_F(ImageRecFiles, BadRecordsIndexesAndLabelsNameTheFileAndRecord) {
  const std::string prefix = pack();
  const std::string rec = prefix + ".rec";
  const std::string idx = prefix + ".idx";
  const std::string good_rec = slurp(rec);
  const std::vector<IndexEntry> entries = read_record_index(idx);

  // Labels beyond the class count given.
  const DataError label = error_of([&] { ImageRec(prefix, 2).read(8); });
  EXPECT_EQ(label.where(),
            rec + ": record 8 (key 8, byte " + std::to_string(entries[8].offset) + ")");
  EXPECT_NE(label.problem().find("label 2"), std::string::npos) << label.what();

  // A wrong magic at record 5.
  std::string bytes = good_rec;
  bytes[entries[5].offset] = 'X';
  put(rec, bytes);
  EXPECT_EQ(error_of([&] { ImageRec(prefix, 3).read(5); }).where(),
            rec + ": record 5, byte " + std::to_string(entries[5].offset));

  // A corrupt JPEG in record 2: the image bytes after the 24-byte header are scrambled.
  bytes = good_rec;
  for (std::size_t k = entries[2].offset + 8 + 24 + 2; k < entries[3].offset; ++k) bytes[k] ^= 0x5a;
  put(rec, bytes);
  const DataError jpeg = error_of([&] { ImageRec(prefix, 3).read(2); });
  EXPECT_EQ(jpeg.where(),
            rec + ": record 2 (key 2, byte " + std::to_string(entries[2].offset) + ")");
  EXPECT_NE(jpeg.problem().find("JPEG"), std::string::npos) << jpeg.what();

  // A truncated .rec: the last record's length now runs past the end.
  put(rec, good_rec.substr(0, good_rec.size() - 100));
  const DataError cut = error_of([&] { ImageRec(prefix, 3).read(11); });
  EXPECT_NE(cut.where().find(rec + ": record 11"), std::string::npos) << cut.what();
  EXPECT_NE(cut.problem().find("past the end"), std::string::npos) << cut.what();

  // An index offset beyond the .rec, found when the set is opened.
  put(rec, good_rec);
  std::vector<IndexEntry> far = entries;
  far[7].offset = good_rec.size() + 400;
  put(idx, write_record_index(far));
  const DataError offset = error_of([&] { ImageRec(prefix, 3); });
  EXPECT_EQ(offset.where(), idx + ": line 8");
  EXPECT_NE(offset.problem().find("past the end"), std::string::npos) << offset.what();
  far[7].offset = entries[7].offset + 2;
  put(idx, write_record_index(far));
  EXPECT_THROW(ImageRec(prefix, 3), DataError);
  // An offset inside a record, at bytes that are no magic.
  far[7].offset = entries[7].offset + 8;
  put(idx, write_record_index(far));
  EXPECT_THROW(ImageRec(prefix, 3).read(7), DataError);

  EXPECT_THROW(ImageRec((dir_ / "missing").string(), 3), DataError);
}

TEST_F(ImageRecFiles, PackingRefusesANonJpegAndLeavesNoOutput) {
  write_synthetic_images((dir_ / "images").string(), options_);
  const std::string bad = (dir_ / "images" / "n00000001" / "broken.jpg").string();
  put(bad, "this is no JPEG");
  const DataError e =
      error_of([&] { pack_rec((dir_ / "images").string(), (dir_ / "set").string()); });
  EXPECT_EQ(e.where(), bad);
  EXPECT_FALSE(fs::exists(dir_ / "set.rec"));
  EXPECT_FALSE(fs::exists(dir_ / "set.idx"));
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& f : fs::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 1u);  // images/ alone: no temporaries
  EXPECT_THROW(pack_rec((dir_ / "nothing").string(), (dir_ / "set").string()), DataError);
}

TEST(SyntheticImages, TheSeedFixesEveryPixel) {
  const SyntheticImagesOptions a{4, 2, 16, 8, 3, 90};
  SyntheticImagesOptions b = a;
  b.seed = 4;
  EXPECT_EQ(synthetic_image(a, 2, 1).pixels, synthetic_image(a, 2, 1).pixels);
  EXPECT_NE(synthetic_image(a, 2, 1).pixels, synthetic_image(a, 2, 0).pixels);
  EXPECT_NE(synthetic_image(a, 2, 1).pixels, synthetic_image(b, 2, 1).pixels);
  EXPECT_EQ(synthetic_class_name(17), "n00000017");
}

// A .rec that is a named pipe no one writes would hold the reader in open() for ever; it is
// refused by what it is, before the open, and so is a directory in its place.
TEST_F(ImageRecFiles, APipeOrADirectoryAsARecordFileIsRefusedUnopened) {
  const std::string pipe = (dir_ / "pipe.rec").string();
  ASSERT_EQ(::mkfifo(pipe.c_str(), 0644), 0);
  try {
    const FileRange rec(pipe);
    FAIL() << "a FIFO was opened";
  } catch (const DataError& e) {
    EXPECT_NE(std::string(e.what()).find("is a named pipe (FIFO), whose reading may wait for ever"),
              std::string::npos)
        << e.what();
  }
  fs::create_directories(dir_ / "dir.rec");
  EXPECT_THROW(FileRange((dir_ / "dir.rec").string()), DataError);
}

}  // namespace
}  // namespace ordo::data
