// `ordo train`: data-parallel training of a built-in network, or of a model file from another
// framework (--model), on Fashion-MNIST across the Open MPI ranks it runs on (mpirun -np N ordo
// train ...; one process is a world of one). Before the first step every rank builds the step
// program for the world size, pools and design and the checker decides it: `unsafe` stops the job
// with the checker's report, `unknown` stops it unless --allow-unknown, --no-verify skips the
// check with a warning.
#include <chrono>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "checker/verify/verify.hpp"
#include "runtime/checkpoint/checkpoint_error.hpp"
#include "runtime/checkpoint/checkpoint_file.hpp"
#include "runtime/comm/mpi/node_layout.hpp"
#include "runtime/comm/mpi/runtime.hpp"
#include "runtime/comm/mpi/world.hpp"
#include "runtime/comm/rules/backend.hpp"
#include "runtime/comm/sim/issuer.hpp"
#include "runtime/dag/dump_writer.hpp"
#include "runtime/data/data_error.hpp"
#include "runtime/data/labelled_images.hpp"
#include "runtime/designs/step_builder.hpp"
#include "runtime/diag/debug_mode.hpp"
#include "runtime/diag/flight_recorder.hpp"
#include "runtime/diag/timeline_run.hpp"
#include "runtime/diag/timeline_writer.hpp"
#include "runtime/diag/watchdog.hpp"
#include "runtime/diag/watched_worlds.hpp"
#include "runtime/flight/checked_world.hpp"
#include "runtime/networks/catalog.hpp"
#include "runtime/train/compute_threads.hpp"
#include "runtime/train/device/device_gradients.hpp"
#include "runtime/train/initial_state.hpp"
#include "runtime/train/train_run.hpp"
#include "runtime/train/training_device.hpp"
#include "tools/ordo/commands.hpp"
#include "tools/ordo/design_options.hpp"
#include "runtime/diag/mpi/fingerprint_channels.hpp"
#include "tools/ordo/front_end.hpp"
#include "tools/ordo/output.hpp"
#include "tools/ordo/train_data.hpp"
#include "tools/ordo/train_model.hpp"
#include "tools/ordo/train_progress.hpp"

namespace ordo::tools {

namespace {

// The key of the calls the main thread makes before and after training (agreements, the
// verdict): below every gradient key, so diagnostics tell them apart.
constexpr std::int64_t agree_key = -1;

// Whether any rank failed: every rank learns it, so none goes on alone and leaves the others
// waiting in a collective.
bool any_rank_failed(comm::World& world, bool failed) {
  std::int32_t flag = failed ? 1 : 0;
  world.comm(0).allreduce(&flag, 1, dag::DType::i32, dag::Reduction::max, agree_key);
  return flag != 0;
}

struct TrainCli {
  std::string network = "lenet";
  std::string model;       // a model file (docs/import.md) in place of --network
  std::string data_shape;  // --model: one example's shape, for MXNet symbols
  bool network_given = false;
  std::string design = "depcha";
  std::string device = "cpu";  // --device: cpu or cuda
  std::string comm_path = "auto";  // --comm-path (runtime/train/device/device_gradients.hpp)
  TrainDataOptions data;
  std::string metrics_path;
  std::string progress = "auto";
  std::uint32_t threads = 0;  // 0: the cores divided among the ranks on this machine
  std::string dump_step_path;
  std::string export_init_path;
  train::TrainOptions options;
  designs::DesignConfig config;
  bool no_verify = false;
  bool allow_unknown = false;
  double verify_seconds = 60.0;
  double target_accuracy = 0.0;  // the final test accuracy must reach it, or the exit code is 1
  // Hang diagnostics (docs/diagnostics.md). 0: ORDO_HANG_TIMEOUT, else the default.
  double hang_timeout = 0.0;
  std::string dump_dir = "ordo-dumps";
  std::size_t flight_ring = diag::ring_capacity_default;
  bool flight_recorder = true;
  bool check_collectives = false;  // else ORDO_DEBUG=detail
  // The run's timeline (docs/diagnostics.md, "Timeline"); empty: none.
  std::string timeline_path;
  std::size_t timeline_events = diag::timeline_events_default;
};

// Rank 0's part of verify_first: the dump, the checker, the report.
int decide(const TrainCli& o, const designs::DesignConfig& config, const networks::Network& net,
           dag::Job job, const std::string& dump, std::uint32_t ranks, comm::Backend backend,
           MetricsFile* metrics) {
  if (!o.dump_step_path.empty() && !write_output(o.dump_step_path, dump, "train")) {
    return exit_bad_input;
  }
  if (o.no_verify) {
    std::cout << "verify: skipped (--no-verify): the step program is not checked\n";
    if (metrics) metrics->write({{"event", "verify"}, {"verdict", "skipped"}});
    return exit_ok;
  }
  const checker::Model model(std::move(job), ranks, backend);
  checker::VerifyOptions options;
  options.limits.seconds_max = o.verify_seconds;
  const checker::Verification v = checker::verify(model, options);
  if (metrics) {
    metrics->write({{"event", "verify"},
                    {"verdict", checker::to_string(v.result.verdict)},
                    {"ranks", ranks},
                    {"backend", std::string(comm::to_string(backend))},
                    {"design", designs::describe(config)},
                    {"network", net.name},
                    {"seconds", v.seconds}});
  }
  std::cout << "verify: " << checker::to_string(v.result.verdict) << " at " << ranks << " ranks ("
            << designs::describe(config) << ", " << net.name
            << (backend == comm::Backend::mpi ? "" : ", under NCCL's semantics") << ") in "
            << v.seconds << " s\n";
  if (v.result.verdict == checker::Verdict::unsafe) {
    std::cout << checker::human_report(model, v);
    return exit_unsafe;
  }
  if (v.result.verdict == checker::Verdict::unknown && !o.allow_unknown) {
    std::cout << checker::human_report(model, v)
              << "verify: not training an unproven program (--allow-unknown to train anyway)\n";
    return exit_unknown;
  }
  return exit_ok;
}

// Every rank builds its step program; the ranks check that all built rank 0's, rank 0 has the
// checker decide it, and every rank acts on rank 0's answer. One rank decides, not each its own:
// under a time limit two ranks deciding alike could still part (one `safe`, one out of time),
// and a rank that stops while the others train leaves them waiting in a collective for ever.
// The calls here are the main thread's, before any op is submitted. `step_dump` gets the
// program as a DAG dump, which a hang dump is written beside. `backend` is the semantics the
// step's collectives run under: NCCL's where they go over NCCL (docs/semantics.md, §3a).
int verify_first(const TrainCli& o, const designs::DesignConfig& config,
                 const networks::Network& net, comm::World& world, comm::Backend backend,
                 MetricsFile* metrics, std::string& step_dump) {
  const bool root = world.rank() == 0;
  // The broadcast and two steps: the step, and the boundary into the next. Every design emits
  // the same program at every step (tests/designs/steps_repeat_test.cpp), so a run of any length
  // repeats what is verified here.
  designs::StepOptions step;
  step.include_init = true;
  step.steps = 2;
  dag::Job job = designs::build_step_job(net, config, step);
  const std::string dump = dag::write_dump(job);
  step_dump = dump;
  // Halved so that negating it cannot overflow: max of (h, -h) gives the largest and smallest.
  const auto h = static_cast<std::int64_t>(std::hash<std::string>{}(dump) >> 1);
  std::int64_t hashes[2] = {h, -h};
  world.comm(0).allreduce(hashes, 2, dag::DType::i64, dag::Reduction::max, agree_key);
  if (hashes[0] != -hashes[1]) {
    if (root) std::cerr << "ordo train: error: the ranks built different step programs\n";
    return exit_bad_input;
  }
  std::int32_t code = exit_ok;
  if (root) code = decide(o, config, net, std::move(job), dump, world.size(), backend, metrics);
  world.comm(0).bcast(&code, 1, dag::DType::i32, 0, agree_key);
  return code;
}

// Rank 0 writes the state training starts from; every rank learns whether it could, so none
// trains without the others.
int export_initial_state(const TrainCli& o, const networks::Network& net,
                         const networks::InitialValues* initial, comm::World& world) {
  std::int32_t failed = 0;
  if (world.rank() == 0) {
    try {
      checkpoint::write(o.export_init_path,
                        train::initial_checkpoint(net, {o.design, world.size(), o.options.seed,
                                                        o.options.batch, initial}));
    } catch (const std::exception& e) {
      std::cerr << "ordo train: error: " << e.what() << '\n';
      failed = 1;
    }
  }
  return any_rank_failed(world, failed != 0) ? exit_bad_input : exit_ok;
}

// How many ranks share this machine, as Open MPI tells each rank (1 outside mpirun).
std::uint32_t local_ranks() {
  const char* v = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  const long n = v == nullptr ? 1 : std::strtol(v, nullptr, 10);
  return n > 0 ? static_cast<std::uint32_t>(n) : 1u;
}

// A design written for its rank count is fitted to the world it runs on: its size, and the node
// layout MPI reports where the design needs one (designs::fit_to_ranks refuses a --shards,
// --nodes or --node-ranks that is not the world's).
int fit_to_world(const comm::MpiRuntime& runtime, designs::DesignConfig& config) {
  const auto refuse = [&runtime](const std::string& what) {
    if (runtime.world_rank() == 0) std::cerr << "ordo train: error: " << what << '\n';
    return exit_bad_input;
  };
  std::optional<designs::NodeLayout> layout;
  if (designs::needs_node_layout(config.kind)) {
    try {
      const comm::NodeLayout world = comm::node_layout(runtime);
      layout = designs::NodeLayout{world.nodes, world.node_ranks};
    } catch (const std::invalid_argument& e) {
      return refuse("design " + std::string(designs::to_string(config.kind)) + ": " + e.what());
    }
  }
  try {
    config = designs::fit_to_ranks(config, runtime.world_size(), layout);
  } catch (const std::invalid_argument& e) {
    return refuse(e.what());
  }
  return exit_ok;
}

int run_train(const TrainCli& o) {
  // Before anything starts (MPI included): a device this process cannot use is known here, and
  // every rank of the job refuses alike.
  const std::optional<c10::DeviceType> device_type = train::parse_device_type(o.device);
  if (!device_type) {
    std::cerr << "ordo train: error: --device '" << o.device << "'; expected cpu or cuda\n";
    return exit_bad_input;
  }
  if (const std::optional<std::string> why = train::device_unusable(*device_type)) {
    std::cerr << "ordo train: error: " << *why << '\n';
    return exit_bad_input;
  }
  train::set_compute_threads(o.threads != 0 ? o.threads
                                            : train::default_compute_threads(local_ranks()));
  comm::MpiRuntime runtime(nullptr, nullptr);
  designs::DesignConfig config = o.config;
  config.kind = designs::parse_design(o.design);
  const bool root = runtime.world_rank() == 0;
  if (const int code = fit_to_world(runtime, config); code != exit_ok) return code;
  comm::MpiWorld mpi_world(runtime, designs::step_comms(config));
  double hang_timeout = o.hang_timeout;
  try {
    if (hang_timeout == 0.0)
      hang_timeout = diag::hang_timeout_from_env().value_or(diag::hang_timeout_default_s);
  } catch (const std::invalid_argument& e) {
    if (root) std::cerr << "ordo train: error: " << e.what() << '\n';
    return exit_bad_input;
  }
  bool check_collectives = o.check_collectives;
  try {
    check_collectives = check_collectives || diag::check_collectives_from_env();
  } catch (const std::invalid_argument& e) {
    if (root) std::cerr << "ordo train: error: " << e.what() << '\n';
    return exit_bad_input;
  }
  // Set up collectively before any collective, as the MPI world is.
  // The node's ranks in world order spread over its GPUs: the rule the device path's detection
  // counts ranks per GPU by, whatever the launcher.
  const c10::Device device =
      train::training_device(*device_type, device_type == c10::DeviceType::CPU
                                               ? 0
                                               : comm::node_place(runtime).rank);
  train::DeviceGradients gradients;
  try {
    gradients =
        train::open_device_gradients(runtime, designs::step_comms(config), o.comm_path, device);
  } catch (const std::invalid_argument& e) {  // alike on every rank
    if (root) std::cerr << "ordo train: error: " << e.what() << '\n';
    return exit_bad_input;
  } catch (const std::exception& e) {  // this rank's own: the others may wait in a collective
    std::cerr << "ordo train: rank " << runtime.world_rank() << ": error: " << e.what()
              << "\nordo train: aborting every rank\n"
              << std::flush;
    runtime.abort(exit_bad_input);
  }
  if (root && !device.is_cpu()) {
    std::cout << "gradients: "
              << (gradients.world ? "in GPU memory, collectives on the " +
                                        std::string(comm::to_string(gradients.path)) + " path"
                                  : std::string("staged through host memory"))
              << '\n';
  }
  // What carries the step's collectives, for the checker and for fingerprint mode.
  const comm::Backend backend =
      gradients.path == comm::DevicePath::nccl ? comm::Backend::nccl : comm::Backend::mpi;
  // Made here, collectively, before any collective.
  const diag::FingerprintChannels fingerprints(mpi_world, check_collectives,
                                               gradients.world != nullptr);
  diag::WatchOptions watch_options;
  fingerprints.give(watch_options);
  watch_options.step_backend = backend;
  // Every collective is watched, the main thread's agreements included, so that the recorder's
  // sequence numbers are the communicators' own.
  watch_options.flight_recorder = o.flight_recorder;
  watch_options.flight_ring = o.flight_ring;
  watch_options.timeline_path = o.timeline_path;
  watch_options.timeline_events = o.timeline_events;
  watch_options.timeline_key = agree_key;
  diag::WatchedWorlds watched(mpi_world, gradients.world.get(), designs::step_comms(config),
                              watch_options);
  diag::FlightRecorder* const recorder = watched.recorder();
  diag::TimelineRun* const timeline = watched.timeline();
  comm::World* const step_world = watched.step_world();  // on a device path
  comm::World& world = watched.world();
  // This thread's own calls (the agreements, the verdict) are the main thread's in the recorder.
  const comm::sim::IssuerScope main_issuer("main");
  DataShape shape;
  try {
    shape = data_shape(o.data);
  } catch (const std::invalid_argument& e) {
    if (root) std::cerr << "ordo train: error: " << e.what() << '\n';
    return exit_bad_input;
  }
  // The catalog refuses a network that cannot take the data's examples; a model must fit them.
  std::optional<networks::Network> net;
  networks::InitialValues initial;
  if (!o.model.empty()) {
    if (o.network_given) {
      if (root) std::cerr << "ordo train: error: give --network or --model, not both\n";
      return exit_bad_input;
    }
    try {
      TrainModel m = load_train_model(o.model, o.data_shape, shape);
      net = std::move(m.network);
      initial = std::move(m.initial);
    } catch (const std::exception& e) {  // errors::InputError, or a model that does not fit
      if (root) std::cerr << "ordo train: error: " << e.what() << '\n';
      return exit_bad_input;
    }
  } else if (!o.data_shape.empty()) {
    if (root) std::cerr << "ordo train: error: --data-shape needs --model\n";
    return exit_bad_input;
  } else {
    net = networks::builtin_network(o.network, 4, shape.example, shape.classes);
    if (!net) {
      if (root) std::cerr << "ordo train: error: unknown network '" << o.network << "'\n";
      return exit_bad_input;
    }
  }
  const networks::InitialValues* initial_values = initial.empty() ? nullptr : &initial;
  std::unique_ptr<MetricsFile> metrics;
  if (root && !o.metrics_path.empty()) {
    try {
      metrics = std::make_unique<MetricsFile>(o.metrics_path, o.options.checkpoint.resume);
    } catch (const std::exception& e) {
      std::cerr << "ordo train: error: " << e.what() << '\n';
    }
  }
  // Every rank learns whether rank 0 could open the file, so none trains without the others.
  if (!o.metrics_path.empty()) {
    if (any_rank_failed(world, root && !metrics)) return exit_bad_input;
  }
  // A timeline that cannot be written is known before training, on every rank.
  if (timeline) {
    const std::optional<std::string> problem =
        output_problem({{"--timeline", diag::timeline_rank_path(o.timeline_path, world.rank())},
                        {"--timeline", o.timeline_path}},
                       {});
    if (problem)
      std::cerr << "ordo train: rank " << world.rank() << ": error: " << *problem << '\n';
    if (any_rank_failed(world, problem.has_value())) return exit_bad_input;
  }
  std::string step_dump;
  if (const int code = verify_first(o, config, *net, world, backend, metrics.get(), step_dump);
      code != exit_ok)
    return code;
  if (!o.export_init_path.empty()) {
    if (const int code = export_initial_state(o, *net, initial_values, world); code != exit_ok)
      return code;
  }

  TrainDataOptions data_options = o.data;
  if (data_options.dir.empty() && data_options.kind == "fashion-mnist") {
    data_options.dir = data::fashion_mnist_dir_default;
  }
  data_options.seed = o.options.seed;
  TrainData data;
  std::int32_t failed = 0;
  try {
    data = load_train_data(data_options, net->input);
  } catch (const std::exception& e) {  // DataError, or classes the data does not have
    std::cerr << "ordo train: rank " << world.rank() << ": error: " << e.what() << '\n';
    failed = 1;
  }
  // A file one node lacks stops every rank, not only the ranks there.
  if (any_rank_failed(world, failed != 0)) return exit_bad_input;
  train::TrainOptions options = o.options;
  options.initial_values = initial_values;
  options.device = device;
  options.device_vars = gradients.vars();
  if (options.device_vars) options.device_vars->world = step_world;
  const bool bar = o.progress == "bar" || (o.progress == "auto" && output_is_terminal());
  TrainProgress progress(std::cout, bar, world.size(), options.epochs);
  if (root) {
    options.on_step = [&](const train::StepReport& r) {
      if (o.progress != "none") progress.step(r);
      if (metrics) metrics->write(step_event(r, world.size()));
    };
    options.on_epoch = [&](const train::EpochReport& r) {
      progress.epoch(r);
      if (metrics) metrics->write(epoch_event(r));
    };
  }
  // Watching starts with training: before it, rank 0 may verify for up to --verify-timeout while
  // the others wait for its verdict, and loading the data may take long.
  std::unique_ptr<diag::Watchdog> watchdog;
  if (recorder) {
    options.recorder = recorder;
    diag::WatchdogOptions watch;
    watch.timeout_s = hang_timeout;
    watch.dir = o.dump_dir;
    watch.abort = [&runtime](int code) { runtime.abort(code); };
    watch.program_dump = step_dump;
    watchdog = std::make_unique<diag::Watchdog>(*recorder, watch);
  }
  // A rank that failed alone leaves its state beside the others' dumps (which they write when
  // mpirun ends them), so that `ordo analyze` shows the failure and where every rank was.
  auto dump_failure = [&](const std::string& what) {
    if (!watchdog) return;
    std::cerr << "ordo train: rank " << world.rank() << ": state written to "
              << watchdog->dump_now("error", what) << '\n';
  };
  // A rank that fails alone (a record that does not decode, a failed write) ends the job here,
  // before its executor unwinds: the others wait for it in a collective.
  options.on_failure = [&](std::exception_ptr error) {
    try {
      std::rethrow_exception(error);
    } catch (const checkpoint::CheckpointError&) {
      return;  // every rank throws it together (they agree first): a clean exit follows
    } catch (const diag::CollectiveMismatch& e) {
      // Every rank of the communicator has reported it (CheckedWorld) before getting here.
      dump_failure(e.what());
      runtime.abort(diag::exit_collective_mismatch);
    } catch (const std::exception& e) {
      std::cerr << "ordo train: rank " << world.rank() << ": error: " << e.what()
                << "\nordo train: aborting every rank\n"
                << std::flush;
      dump_failure(e.what());
    } catch (...) {
      std::cerr << "ordo train: rank " << world.rank() << ": unknown error; aborting every rank\n"
                << std::flush;
      dump_failure("unknown error");
    }
    runtime.abort(exit_bad_input);
  };
  if (timeline) {
    options.timeline = &timeline->log();
    timeline->start();
  }
  train::TrainResult r;
  try {
    r = train::train_rank(*net, config, world, *data.train, data.test.get(), options);
  } catch (const checkpoint::CheckpointError& e) {
    // Every rank has thrown (the ranks agree on a resume before any trains): a clean exit.
    std::cerr << "ordo train: rank " << world.rank() << ": error: " << e.what() << '\n';
    return exit_bad_input;
  } catch (const std::exception& e) {
    // This rank alone may have failed (a record that does not decode, a failed write): the
    // others wait for it in a collective, so the job ends here, all of it.
    std::cerr << "ordo train: rank " << world.rank() << ": error: " << e.what()
              << "\nordo train: aborting every rank\n"
              << std::flush;
    dump_failure(e.what());
    runtime.abort(exit_bad_input);
  }
  // A timeline that could not be written makes the exit code 2, after the run's report.
  bool timeline_failed = false;
  if (timeline) {
    const std::string error = timeline->finish();
    timeline_failed = !error.empty();
    if (!error.empty()) {
      std::cerr << "ordo train: rank " << world.rank() << ": error: " << error << '\n';
    } else if (root) {
      std::cout << "timeline: " << o.timeline_path << " (" << world.size()
                << (world.size() == 1 ? " rank" : " ranks") << ")\n";
    }
  }
  const double images_per_s =
      r.seconds > 0 ? static_cast<double>(r.images * world.size()) / r.seconds : 0.0;
  if (root) {
    const std::size_t tail = std::min<std::size_t>(r.losses.size(), 20);
    const double loss = tail == 0
                            ? 0.0
                            : std::accumulate(r.losses.end() - static_cast<std::ptrdiff_t>(tail),
                                              r.losses.end(), 0.0) /
                                  static_cast<double>(tail);
    std::cout << "trained " << r.losses.size() << " steps";
    if (r.first_step != 0) std::cout << ", resumed at step " << r.first_step << ",";
    std::cout << " of " << o.options.batch << " x " << world.size() << " images in " << r.seconds
              << " s: " << images_per_s << " images/s, training loss " << loss << " (last " << tail
              << " steps)\n";
    if (!r.test_accuracy.empty())
      std::cout << "final test accuracy " << r.test_accuracy.back() << '\n';
    if (metrics) {
      metrics->write(
          {{"event", "summary"},
           {"steps", r.losses.size()},
           {"first_step", r.first_step},
           {"seconds", r.seconds},
           {"images_per_s", images_per_s},
           {"test_accuracy",
            r.test_accuracy.empty() ? nlohmann::json() : nlohmann::json(r.test_accuracy.back())}});
    }
  }
  // Rank 0's accuracy decides for every rank: the weights are equal, but batch norm's running
  // statistics are each rank's own, so the ranks' accuracies may differ a little.
  if (o.target_accuracy > 0.0) {
    double reached = r.test_accuracy.empty() ? 0.0 : r.test_accuracy.back();
    world.comm(0).bcast(&reached, 1, dag::DType::f64, 0, agree_key);
    if (reached < o.target_accuracy) {
      if (root) {
        std::cout << "target accuracy " << o.target_accuracy << " not reached (" << reached
                  << ")\n";
      }
      return 1;
    }
    if (root) std::cout << "target accuracy " << o.target_accuracy << " reached\n";
  }
  return timeline_failed ? exit_bad_input : exit_ok;
}

}  // namespace

Command add_train(CLI::App& app) {
  auto o = std::make_shared<TrainCli>();
  CLI::App* sub = app.add_subcommand("train", train_summary);
  CLI::Option* network = sub->add_option("--network", o->network, networks::builtin_network_names())
                             ->capture_default_str();
  sub->add_option("--model", o->model,
                  "train this model file instead (ONNX, or MXNet symbol JSON; docs/import.md): "
                  "its operators must be the trainer's, its input the data's examples and its "
                  "output the classes; ONNX initializers are the initial weights");
  sub->add_option("--data-shape", o->data_shape,
                  "with --model: one example's shape, e.g. 1,28,28 (MXNet symbols carry none)");
  sub->add_option("--device", o->device,
                  "where the layers, batches and updates run: cpu, or cuda (a GPU through a CUDA "
                  "build of libtorch; each rank takes the GPU of its local rank, docs/train.md)")
      ->check(CLI::IsMember({"cpu", "cuda"}))
      ->capture_default_str();
  sub->add_option("--comm-path", o->comm_path,
                  "with --device cuda, what carries the gradients: auto (what the job finds, "
                  "docs/gpu.md), nccl, cuda-aware or staged (gradients in GPU memory), or host "
                  "(staged through host buffers by the trainer)")
      ->check(CLI::IsMember({"auto", "nccl", "cuda-aware", "staged", "host"}))
      ->capture_default_str();
  add_design_options(sub, o->design, o->config, "");
  sub->add_option("--data", o->data.kind,
                  "fashion-mnist; imagenet (--data-dir holds train.rec/.idx and val.rec/.idx, as "
                  "im2rec or ordo pack-rec write them); or synthetic (random in-memory images of "
                  "the network's input, for throughput)")
      ->capture_default_str();
  sub->add_option("--data-dir", o->data.dir,
                  "where the data is (default: Debian's Fashion-MNIST; imagenet: .)");
  sub->add_option("--image-size", o->data.image_size, "imagenet: the side of the crops")
      ->check(CLI::Range(8, 1024))
      ->capture_default_str();
  sub->add_option("--classes", o->data.classes, "classes (0: the data's; synthetic: 1000)");
  sub->add_option("--train-images", o->data.train_images, "train on the first N images (0: all)");
  sub->add_option("--test-images", o->data.test_images, "test on the first N test images (0: all)");
  sub->add_option("--epochs", o->options.epochs, "epochs")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  sub->add_option("--batch", o->options.batch, "images per rank and step")
      ->check(CLI::Range(1, 65536))
      ->capture_default_str();
  sub->add_option("--steps-max", o->options.steps_max, "stop after this many steps (0: none)");
  sub->add_option("--lr", o->options.lr.base, "learning rate")->capture_default_str();
  sub->add_option("--warmup", o->options.lr.warmup, "steps of linear learning-rate warm-up");
  sub->add_option("--lr-decay-epochs", o->options.lr_decay_epochs,
                  "multiply the learning rate by --lr-factor after each of these epochs")
      ->delimiter(',');
  sub->add_option("--lr-factor", o->options.lr.factor, "the learning rate's decay factor")
      ->capture_default_str();
  sub->add_option("--momentum", o->options.sgd.momentum, "SGD momentum")->capture_default_str();
  sub->add_option("--weight-decay", o->options.sgd.weight_decay, "weight decay")
      ->capture_default_str();
  sub->add_option("--seed", o->options.seed, "initial weights and shuffles")->capture_default_str();
  sub->add_option(
      "--threads", o->threads,
      "threads of each rank's tensor math (0: the cores divided among the local ranks)");
  sub->add_flag("--prefetch,!--no-prefetch", o->config.prefetch,
                "load each step's batch on the data pool while the step before computes (default), "
                "or on the main thread between steps");
  sub->add_option("--compute-threads", o->config.compute_threads,
                  "threads of the compute pool: how many compute ops run at once");
  sub->add_option("--target-accuracy", o->target_accuracy,
                  "exit 1 unless the final test accuracy reaches this (0: no target)");
  sub->add_option("--checkpoint-dir", o->options.checkpoint.dir,
                  "write checkpoints here (each rank its own file, committed together)");
  sub->add_option("--checkpoint-every", o->options.checkpoint.every,
                  "steps between checkpoints (0: only after the last step)");
  sub->add_flag("--resume", o->options.checkpoint.resume,
                "continue from the latest checkpoint in --checkpoint-dir");
  sub->add_option("--progress", o->progress,
                  "auto (a bar on a terminal, log lines otherwise), bar, log or none")
      ->check(CLI::IsMember({"auto", "bar", "log", "none"}))
      ->capture_default_str();
  sub->add_option("--metrics", o->metrics_path, "write JSON lines of every step and epoch here");
  sub->add_option("--dump-step", o->dump_step_path,
                  "write the step program the checker decides as a dump (ordo verify reads it)");
  sub->add_option("--export-init", o->export_init_path,
                  "write rank 0's state before the first step here, as a checkpoint of step 0 "
                  "(the initial weights, for bench/ddp)");
  sub->add_option("--hang-timeout", o->hang_timeout,
                  std::string("seconds a collective or a wait may take before the rank dumps "
                              "its flight recorder to --dump-dir and ends the job (default: "
                              "ORDO_HANG_TIMEOUT, else ") +
                      std::to_string(static_cast<int>(diag::hang_timeout_default_s)) + ")")
      ->check(CLI::PositiveNumber);
  sub->add_option("--dump-dir", o->dump_dir,
                  "where a hang writes rank-K.json (ordo analyze reads it)")
      ->capture_default_str();
  sub->add_option("--flight-ring", o->flight_ring,
                  "calls the flight recorder keeps per communicator")
      ->check(CLI::Range(std::size_t{1}, diag::ring_capacity_max))
      ->capture_default_str();
  sub->add_flag("!--no-flight-recorder", o->flight_recorder,
                "no flight recorder and no hang watchdog (to measure what they cost)");
  sub->add_flag("--check-collectives", o->check_collectives,
                "fingerprint mode: compare every collective across its ranks before it is issued "
                "and end the job with both calls named on a mismatch (also ORDO_DEBUG=detail)");
  sub->add_option("--timeline", o->timeline_path,
                  "write the run as a Chrome trace here (opens in Perfetto): ops, waits and "
                  "collectives of every rank; each rank writes FILE.rank-K.json, rank 0 merges");
  sub->add_option("--timeline-events", o->timeline_events,
                  "events each rank's timeline holds; later ones are counted as dropped")
      ->check(CLI::Range(std::size_t{1}, diag::timeline_events_max))
      ->capture_default_str();
  sub->add_flag("--no-verify", o->no_verify, "train without checking the step program first");
  sub->add_flag("--allow-unknown", o->allow_unknown, "train when the checker cannot decide");
  sub->add_option("--verify-timeout", o->verify_seconds, "seconds for the check")
      ->capture_default_str();
  o->options.lr.base = 0.05;
  o->config.prefetch = true;

  return [o, network] {
    o->network_given = network->count() > 0;
    return run_train(*o);
  };
}

}  // namespace ordo::tools
