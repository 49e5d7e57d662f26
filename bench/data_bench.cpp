// The ImageNet data path on one thread, per image: reading a record through the .idx and
// decoding its JPEG (ImageNet's typical 500x375), and with libtorch the training and validation
// transforms. Tells how many cores a data pool needs to keep a trainer fed. Results and the
// command that produced them: docs/benchmarks.md.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <string>

#include "runtime/data/image_rec.hpp"
#include "runtime/data/jpeg.hpp"
#include "runtime/data/pack_rec.hpp"
#include "runtime/data/synthetic_images.hpp"
#ifdef ORDO_HAVE_TORCH
#include "runtime/train/model/image_transforms.hpp"
#endif

namespace ordo::data {
namespace {

const SyntheticImagesOptions photo{4, 8, 500, 375, 1, 90};

void BM_DecodeJpeg500x375(benchmark::State& state) {
  const std::string jpeg = encode_jpeg(synthetic_image(photo, 1, 0), photo.quality);
  for (auto _ : state) benchmark::DoNotOptimize(decode_jpeg(jpeg, "bench"));
  state.SetItemsProcessed(state.iterations());
  state.counters["jpeg_bytes"] = static_cast<double>(jpeg.size());
}
BENCHMARK(BM_DecodeJpeg500x375)->Unit(benchmark::kMicrosecond);

// A 32-image .rec packed from a synthetic folder, read at random through its index and decoded.
void BM_ReadAndDecodeFromRec(benchmark::State& state) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("ordo_data_bench_" + std::to_string(::getpid()));
  write_synthetic_images((dir / "images").string(), photo);
  pack_rec((dir / "images").string(), (dir / "set").string(), {5});
  {
    const ImageRec set((dir / "set").string(), photo.classes);
    std::size_t i = 0;
    for (auto _ : state) {
      benchmark::DoNotOptimize(set.read(i));
      i = (i + 13) % set.size();
    }
  }
  std::filesystem::remove_all(dir);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ReadAndDecodeFromRec)->Unit(benchmark::kMicrosecond);

#ifdef ORDO_HAVE_TORCH
void BM_TrainTransform500x375(benchmark::State& state) {
  const RgbImage image = synthetic_image(photo, 1, 0);
  random::SplitMix64 rng(1);
  for (auto _ : state) benchmark::DoNotOptimize(train::train_transform(image, rng));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_TrainTransform500x375)->Unit(benchmark::kMicrosecond);

void BM_ValTransform500x375(benchmark::State& state) {
  const RgbImage image = synthetic_image(photo, 1, 0);
  for (auto _ : state) benchmark::DoNotOptimize(train::val_transform(image));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ValTransform500x375)->Unit(benchmark::kMicrosecond);
#endif

}  // namespace
}  // namespace ordo::data

BENCHMARK_MAIN();
