// Import plus verification of real models at scale: for each model file and each KVStore design,
// the time to import the file, to build the design's training step from it, to make the
// checker's model at the rank count, and to verify it (checker::verify, as `ordo verify --model`
// runs it). The goal is under 2 s in all for the largest models (VGG-19 by bytes, ResNet-152 by
// keys) at 1024 ranks. A timing program, not a Google Benchmark: each step is one measurement,
// and the table says what was decided and how.
// Run: build/release/bench/ordo_import_verify_bench MODEL_DIR [RANKS]
// MODEL_DIR holds onnx/light_vgg19.onnx, onnx/light_inception_v2.onnx and
// mxnet/resnet-152-symbol.json (docs/import.md lists where these come from).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "checker/system/system.hpp"
#include "checker/verify/verify.hpp"
#include "runtime/designs/step_builder.hpp"
#include "runtime/import/model_file.hpp"
#include "runtime/networks/network.hpp"

namespace ordo::checker {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point begin) {
  return std::chrono::duration<double>(Clock::now() - begin).count();
}

struct ModelCase {
  std::string file;  // under MODEL_DIR
  std::vector<std::uint64_t> data_shape;
};

int run(const std::filesystem::path& dir, std::uint32_t ranks) {
  const std::vector<ModelCase> cases{{"onnx/light_vgg19.onnx", {}},
                                     {"mxnet/resnet-152-symbol.json", {3, 224, 224}},
                                     {"onnx/light_inception_v2.onnx", {}}};
  VerifyOptions options;
  options.limits.seconds_max = 60.0;
  std::printf("%-30s %-7s %6s %5s %-22s %-9s %8s %8s %8s %8s %8s\n", "model", "design", "ranks",
              "keys", "verdict", "method", "import", "step", "model", "verify", "total");
  for (const ModelCase& c : cases) {
    for (const designs::DesignKind kind :
         {designs::DesignKind::naive, designs::DesignKind::funnel, designs::DesignKind::concom,
          designs::DesignKind::depcha}) {
      const Clock::time_point begin = Clock::now();
      const networks::Network network = import::import_model_file(dir / c.file, {c.data_shape});
      const double import_s = since(begin);
      designs::DesignConfig config;
      config.kind = kind;
      const Clock::time_point step_begin = Clock::now();
      const dag::Job job = designs::build_step_job(network, config, {});
      const double step_s = since(step_begin);
      const Clock::time_point model_begin = Clock::now();
      const System model(job, ranks);
      const double model_s = since(model_begin);
      const Clock::time_point verify_begin = Clock::now();
      const Verification v = verify(model, options);
      const double verify_s = since(verify_begin);
      std::string verdict(to_string(v.result.verdict));
      if (v.result.verdict == Verdict::safe && v.every_rank_count) verdict += " (every N)";
      if (v.result.property) verdict += " (" + std::string(to_string(*v.result.property)) + ")";
      std::printf("%-30s %-7s %6u %5llu %-22s %-9s %8.3f %8.3f %8.3f %8.3f %8.3f\n",
                  c.file.c_str(), std::string(designs::to_string(kind)).c_str(), ranks,
                  static_cast<unsigned long long>(networks::param_count(network)),
                  verdict.c_str(), std::string(to_string(v.decided_by)).c_str(), import_s, step_s,
                  model_s, verify_s, since(begin));
      std::fflush(stdout);
    }
  }
  return 0;
}

}  // namespace
}  // namespace ordo::checker

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: %s MODEL_DIR [RANKS]\n", argv[0]);
    return 2;
  }
  try {
    const unsigned long ranks = argc == 3 ? std::stoul(argv[2]) : 1024;
    return ordo::checker::run(argv[1], static_cast<std::uint32_t>(ranks));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ordo_import_verify_bench: error: %s\n", e.what());
    return 2;
  }
}
