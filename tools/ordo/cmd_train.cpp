// `ordo train`: data-parallel training of a built-in network on Fashion-MNIST across the Open
// MPI ranks it runs on (mpirun -np N ordo train ...; one process is a world of one). Before the
// first step every rank builds the step program for the world size, pools and design and the
// checker decides it: `unsafe` stops the job with the checker's report, `unknown` stops it unless
// --allow-unknown, --no-verify skips the check with a warning.
#include <chrono>
#include <iostream>
#include <memory>
#include <numeric>
#include <string>

#include "checker/verify.hpp"
#include "runtime/comm/mpi/runtime.hpp"
#include "runtime/comm/mpi/world.hpp"
#include "runtime/data/data_error.hpp"
#include "runtime/data/labelled_images.hpp"
#include "runtime/designs/step_builder.hpp"
#include "runtime/networks/catalog.hpp"
#include "runtime/train/train_run.hpp"
#include "tools/ordo/commands.hpp"

namespace ordo::tools {

namespace {

struct TrainCli {
  std::string network = "lenet";
  std::string design = "depcha";
  std::string data_dir = data::fashion_mnist_dir_default;
  std::uint32_t train_images = 0;  // 0: all
  train::TrainOptions options;
  designs::DesignConfig config;
  bool no_verify = false;
  bool allow_unknown = false;
  double verify_seconds = 60.0;
  double target_accuracy = 0.0;  // the final test accuracy must reach it, or the exit code is 1
};

// Every rank decides the same program, so every rank reaches the same verdict without talking.
int verify_first(const TrainCli& o, const designs::DesignConfig& config,
                 const networks::Network& net, std::uint32_t ranks, bool print) {
  if (o.no_verify) {
    if (print) std::cout << "verify: skipped (--no-verify): the step program is not checked\n";
    return exit_ok;
  }
  designs::StepOptions step;
  step.include_init = true;
  const checker::Model model(designs::build_step_job(net, config, step), ranks);
  checker::VerifyOptions options;
  options.limits.seconds_max = o.verify_seconds;
  const checker::Verification v = checker::verify(model, options);
  if (print) {
    std::cout << "verify: " << checker::to_string(v.result.verdict) << " at " << ranks << " ranks ("
              << designs::describe(config) << ", " << net.name << ") in " << v.seconds << " s\n";
  }
  if (v.result.verdict == checker::Verdict::unsafe) {
    if (print) std::cout << checker::human_report(model, v);
    return exit_unsafe;
  }
  if (v.result.verdict == checker::Verdict::unknown && !o.allow_unknown) {
    if (print) {
      std::cout << checker::human_report(model, v)
                << "verify: not training an unproven program (--allow-unknown to train anyway)\n";
    }
    return exit_unknown;
  }
  return exit_ok;
}

int run_train(const TrainCli& o) {
  comm::MpiRuntime runtime(nullptr, nullptr);
  designs::DesignConfig config = o.config;
  config.kind = designs::parse_design(o.design);
  comm::MpiWorld world(runtime, designs::step_comms(config));
  const bool root = world.rank() == 0;
  // Fashion-MNIST's images; the catalog refuses a network that cannot take them.
  const std::optional<networks::Network> net = networks::builtin_network(o.network, 4, {1, 28, 28});
  if (!net) {
    if (root) std::cerr << "ordo train: error: unknown network '" << o.network << "'\n";
    return exit_bad_input;
  }
  if (const int code = verify_first(o, config, *net, world.size(), root); code != exit_ok)
    return code;

  data::LabelledImages train_set;
  data::LabelledImages test_set;
  try {
    train_set = data::first_examples(data::read_fashion_mnist(o.data_dir, true), o.train_images);
    test_set = data::read_fashion_mnist(o.data_dir, false);
  } catch (const data::DataError& e) {
    if (root) std::cerr << "ordo train: error: " << e.what() << '\n';
    return exit_bad_input;
  }
  const train::TrainResult r =
      train::train_rank(*net, config, world, train_set, &test_set, o.options);
  if (root) {
    for (std::size_t e = 0; e < r.test_accuracy.size(); ++e) {
      std::cout << "epoch " << e + 1 << ": test accuracy " << r.test_accuracy[e] << '\n';
    }
    const std::size_t tail = std::min<std::size_t>(r.losses.size(), 20);
    const double loss = tail == 0
                            ? 0.0
                            : std::accumulate(r.losses.end() - static_cast<std::ptrdiff_t>(tail),
                                              r.losses.end(), 0.0) /
                                  static_cast<double>(tail);
    std::cout << "trained " << r.losses.size() << " steps of " << o.options.batch << " x "
              << world.size() << " images in " << r.seconds
              << " s: " << static_cast<double>(r.images * world.size()) / r.seconds
              << " images/s, training loss " << loss << " (last " << tail << " steps)\n";
  }
  // Every rank evaluates the same weights on the same test set, so all agree on the outcome.
  if (o.target_accuracy > 0.0) {
    const double reached = r.test_accuracy.empty() ? 0.0 : r.test_accuracy.back();
    if (reached < o.target_accuracy) {
      if (root) {
        std::cout << "target accuracy " << o.target_accuracy << " not reached (" << reached
                  << ")\n";
      }
      return 1;
    }
    if (root) std::cout << "target accuracy " << o.target_accuracy << " reached\n";
  }
  return exit_ok;
}

}  // namespace

Command add_train(CLI::App& app) {
  auto o = std::make_shared<TrainCli>();
  CLI::App* sub = app.add_subcommand(
      "train", "train a network on Fashion-MNIST across the MPI ranks, verified first");
  sub->add_option("--network", o->network,
                  "lenet, resnet20, resnet32, resnet44, resnet56, resnet110, inception-bn")
      ->capture_default_str();
  sub->add_option("--design", o->design, "naive, funnel, concom or depcha")->capture_default_str();
  sub->add_option("--data-dir", o->data_dir, "where Fashion-MNIST's IDX files are")
      ->capture_default_str();
  sub->add_option("--train-images", o->train_images, "train on the first N images (0: all)");
  sub->add_option("--epochs", o->options.epochs, "epochs")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  sub->add_option("--batch", o->options.batch, "images per rank and step")
      ->check(CLI::Range(1, 65536))
      ->capture_default_str();
  sub->add_option("--steps-max", o->options.steps_max, "stop after this many steps (0: none)");
  sub->add_option("--lr", o->options.lr.base, "learning rate")->capture_default_str();
  sub->add_option("--warmup", o->options.lr.warmup, "steps of linear learning-rate warm-up");
  sub->add_option("--momentum", o->options.sgd.momentum, "SGD momentum")->capture_default_str();
  sub->add_option("--weight-decay", o->options.sgd.weight_decay, "weight decay")
      ->capture_default_str();
  sub->add_option("--seed", o->options.seed, "initial weights and shuffles")->capture_default_str();
  sub->add_option("--comm-threads", o->config.comm_threads, "threads of the comm pool");
  sub->add_option("--target-accuracy", o->target_accuracy,
                  "exit 1 unless the final test accuracy reaches this (0: no target)");
  sub->add_flag("--no-verify", o->no_verify, "train without checking the step program first");
  sub->add_flag("--allow-unknown", o->allow_unknown, "train when the checker cannot decide");
  sub->add_option("--verify-timeout", o->verify_seconds, "seconds for the check")
      ->capture_default_str();
  o->options.lr.base = 0.05;
  return [o] { return run_train(*o); };
}

}  // namespace ordo::tools
