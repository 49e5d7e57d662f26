#include "runtime/train/job/train_job.hpp"

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <memory>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>

#include "runtime/checkpoint/checkpoint_error.hpp"
#include "runtime/checkpoint/checkpoint_file.hpp"
#include "runtime/comm/mpi/node_layout.hpp"
#include "runtime/comm/sim/issuer.hpp"
#include "runtime/data/labelled_images.hpp"
#include "runtime/designs/step_builder.hpp"
#include "runtime/diag/deadline.hpp"
#include "runtime/diag/debug_mode.hpp"
#include "runtime/diag/watchdog.hpp"
#include "runtime/errors/exit_codes.hpp"
#include "runtime/flight/checked_world.hpp"
#include "runtime/networks/catalog.hpp"
#include "runtime/train/compute_threads.hpp"
#include "runtime/train/initial_state.hpp"
#include "runtime/train/job/job_agreement.hpp"
#include "runtime/train/job/job_messages.hpp"
#include "runtime/train/job/job_model.hpp"
#include "runtime/train/job/job_worlds.hpp"
#include "runtime/train/job/metrics_file.hpp"
#include "runtime/train/job/progress.hpp"
#include "runtime/train/job/step_verdict.hpp"
#include "runtime/train/training_device.hpp"

namespace ordo::train {

namespace {

constexpr int exit_bad_input = exit_codes::bad_input;

// How many ranks share this machine, as Open MPI tells each rank (1 outside mpirun).
std::uint32_t local_ranks() {
  const char* v = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
  const long n = v == nullptr ? 1 : std::strtol(v, nullptr, 10);
  return n > 0 ? static_cast<std::uint32_t>(n) : 1u;
}

class TrainJob {
 public:
  TrainJob(comm::MpiRuntime& runtime, const JobOptions& o, std::ostream& out)
      : runtime_(runtime), o_(o), out_(out), rank_(runtime.world_rank()), root_(rank_ == 0) {}

  // Whatever escapes the job's steps is this rank's own failure: what every rank meets alike is
  // answered where it is met, with an exit code.
  int run() {
    try {
      return body();
    } catch (const std::exception& e) {
      return failed_alone(e.what());
    } catch (...) {
      return failed_alone("unknown error");
    }
  }

 private:
  int body();
  int set_up_worlds(c10::DeviceType device_type, bool check_collectives);
  int choose_network();
  void start_watchdog(const std::string& program_dump);
  int open_outputs();
  int export_initial_state();
  int train();
  int report(const TrainResult& r, bool timeline_failed);

  // Said by rank 0, returned by every rank: for what every rank meets alike.
  int refuse(const std::string& what) const {
    if (root_) say_error(what);
    return exit_bad_input;
  }

  // This rank failed where the others may wait for it in a collective: it ends the job rather
  // than finalising alone. In a world of one nobody waits, and the exit code says it.
  int failed_alone(const std::string& what) {
    if (runtime_.world_size() == 1) {
      say_rank_error(rank_, what);
      return exit_bad_input;
    }
    say_rank_error(rank_, what + "; ending every rank");
    dump_failure(what);
    runtime_.abort(exit_bad_input);
  }

  // A rank that failed alone leaves its state beside the others' dumps (which they write when
  // mpirun ends them), so that `ordo analyze` shows the failure and where every rank was.
  void dump_failure(const std::string& what) {
    if (watchdog_) say_rank(rank_, "state written to " + watchdog_->dump_now("error", what));
  }

  comm::World& world() { return worlds_->world(); }

  comm::MpiRuntime& runtime_;
  const JobOptions& o_;
  std::ostream& out_;
  const dag::Rank rank_;
  const bool root_;
  designs::DesignConfig config_;
  double hang_timeout_ = diag::hang_timeout_default_s;
  c10::Device device_ = c10::Device(c10::DeviceType::CPU);
  std::unique_ptr<JobWorlds> worlds_;
  std::optional<networks::Network> net_;
  networks::InitialValues initial_;
  std::unique_ptr<MetricsFile> metrics_;
  // Destroyed before the worlds whose recorder it watches.
  std::unique_ptr<diag::Watchdog> watchdog_;
};

int TrainJob::body() {
  // Alike on every rank: the options and the environment.
  const std::optional<c10::DeviceType> device_type = parse_device_type(o_.device);
  if (!device_type) return refuse("--device '" + o_.device + "'; expected cpu or cuda");
  bool check_collectives = o_.check_collectives;
  try {
    hang_timeout_ = o_.hang_timeout != 0.0
                        ? o_.hang_timeout
                        : diag::hang_timeout_from_env().value_or(diag::hang_timeout_default_s);
    check_collectives = check_collectives || diag::check_collectives_from_env();
  } catch (const std::invalid_argument& e) {
    return refuse(e.what());
  }
  if (const int code = set_up_worlds(*device_type, check_collectives); code != exit_codes::ok) {
    return code;
  }
  // This thread's own calls (the agreements, the verdict) are the main thread's in the recorder.
  const comm::sim::IssuerScope main_issuer("main");
  if (const int code = choose_network(); code != exit_codes::ok) return code;
  StepProgram program = build_step_program(*net_, config_);
  // From the first agreement to the last, every call is watched.
  start_watchdog(program.dump);
  if (const int code = open_outputs(); code != exit_codes::ok) return code;
  {
    // Every rank but 0 waits for the verdict while rank 0 verifies, for up to --verify-timeout.
    const diag::Watchdog::Allowance verifying(watchdog_.get(), o_.verify_seconds);
    const int code = agree_on_verdict(o_, config_, *net_, std::move(program), world(),
                                      worlds_->backend(), metrics_.get(), out_);
    if (code != exit_codes::ok) return code;
  }
  if (!o_.export_init_path.empty()) {
    if (const int code = export_initial_state(); code != exit_codes::ok) return code;
  }
  return train();
}

// The design fitted to the world, the device, and the worlds: calls of MPI itself, bounded by a
// deadline of the hang timeout, since no recorder sees them yet.
int TrainJob::set_up_worlds(c10::DeviceType device_type, bool check_collectives) {
  std::optional<diag::Deadline> deadline;
  if (o_.flight_recorder) {
    deadline.emplace(hang_timeout_, [this] {
      std::ostringstream what;
      what << "hang: the MPI set-up (the design's communicators, the device path) took longer "
              "than the hang timeout of "
           << hang_timeout_ << " s; ending every rank";
      say_rank(rank_, what.str());
      runtime_.abort(diag::exit_hang);
    });
  }
  config_ = o_.config;
  config_.kind = designs::parse_design(o_.design);
  if (const std::optional<std::string> why = fit_to_world(runtime_, config_)) return refuse(*why);
  // The node's ranks in world order spread over its GPUs: the rule the device path's detection
  // counts ranks per GPU by, whatever the launcher.
  device_ = training_device(
      device_type, device_type == c10::DeviceType::CPU ? 0 : comm::node_place(runtime_).rank);
  try {
    worlds_ = std::make_unique<JobWorlds>(runtime_, config_, o_, device_, check_collectives);
  } catch (const std::invalid_argument& e) {  // alike on every rank
    return refuse(e.what());
  }
  if (root_ && !device_.is_cpu()) {
    const DeviceGradients& g = worlds_->gradients();
    out_ << "gradients: "
         << (g.world ? "in GPU memory, collectives on the " + std::string(comm::to_string(g.path)) +
                           " path"
                     : std::string("staged through host memory"))
         << '\n';
  }
  return exit_codes::ok;
}

// The catalog refuses a network that cannot take the data's examples; a model must fit them.
// Alike on every rank, and no collective.
int TrainJob::choose_network() {
  DataShape shape;
  try {
    shape = data_shape(o_.data);
  } catch (const std::invalid_argument& e) {
    return refuse(e.what());
  }
  if (!o_.model.empty()) {
    if (o_.network_given) return refuse("give --network or --model, not both");
    try {
      TrainModel m = load_train_model(o_.model, o_.data_shape, shape);
      net_ = std::move(m.network);
      initial_ = std::move(m.initial);
    } catch (const std::exception& e) {  // errors::InputError, or a model that does not fit
      return refuse(e.what());
    }
    return exit_codes::ok;
  }
  if (!o_.data_shape.empty()) return refuse("--data-shape needs --model");
  net_ = networks::builtin_network(o_.network, 4, shape.example, shape.classes);
  if (!net_) return refuse("unknown network '" + o_.network + "'");
  return exit_codes::ok;
}

void TrainJob::start_watchdog(const std::string& program_dump) {
  diag::FlightRecorder* const recorder = worlds_->recorder();
  if (recorder == nullptr) return;  // --no-flight-recorder: nothing is watched
  diag::WatchdogOptions watch;
  watch.timeout_s = hang_timeout_;
  watch.dir = o_.dump_dir;
  watch.abort = [this](int code) { runtime_.abort(code); };
  watch.program_dump = program_dump;
  watchdog_ = std::make_unique<diag::Watchdog>(*recorder, watch);
}

// Every rank learns whether rank 0 could open the metrics file and whether every rank's outputs
// can be written, so that none trains without the others.
int TrainJob::open_outputs() {
  if (!o_.metrics_path.empty()) {
    if (root_) {
      try {
        metrics_ = std::make_unique<MetricsFile>(o_.metrics_path, o_.options.checkpoint.resume);
      } catch (const std::exception& e) {
        say_error(e.what());
      }
    }
    if (any_rank_failed(world(), root_ && !metrics_)) return exit_bad_input;
  }
  return exit_codes::ok;
}

// Rank 0 writes the state training starts from; every rank learns whether it could, so none
// trains without the others.
int TrainJob::export_initial_state() {
  bool failed = false;
  if (root_) {
    try {
      checkpoint::write(
          o_.export_init_path,
          initial_checkpoint(
              *net_, {std::string(designs::to_string(config_.kind)), world().size(),
                      o_.options.seed, o_.options.batch, initial_.empty() ? nullptr : &initial_}));
    } catch (const std::exception& e) {
      say_error(e.what());
      failed = true;
    }
  }
  return any_rank_failed(world(), failed) ? exit_bad_input : exit_codes::ok;
}

int TrainJob::train() {
  TrainDataOptions data_options = o_.data;
  if (data_options.dir.empty() && data_options.kind == "fashion-mnist") {
    data_options.dir = data::fashion_mnist_dir_default;
  }
  data_options.seed = o_.options.seed;
  TrainData data;
  bool failed = false;
  try {
    data = load_train_data(data_options, net_->input);
  } catch (const std::exception& e) {  // DataError, or classes the data does not have
    say_rank_error(rank_, e.what());
    failed = true;
  }
  // A file one node lacks stops every rank, not only the ranks there.
  if (any_rank_failed(world(), failed)) return exit_bad_input;

  TrainOptions options = o_.options;
  options.initial_values = initial_.empty() ? nullptr : &initial_;
  options.device = device_;
  options.device_vars = worlds_->gradients().vars();
  if (options.device_vars) options.device_vars->world = worlds_->step_world();
  const bool bar = o_.progress == "bar" || (o_.progress == "auto" && output_is_terminal());
  TrainProgress progress(out_, bar, world().size(), options.epochs);
  if (root_) {
    options.on_step = [&](const StepReport& r) {
      if (o_.progress != "none") progress.step(r);
      if (metrics_) metrics_->write(step_event(r, world().size()));
    };
    options.on_epoch = [&](const EpochReport& r) {
      progress.epoch(r);
      if (metrics_) metrics_->write(epoch_event(r));
    };
  }
  options.recorder = worlds_->recorder();
  // A rank that fails alone (a record that does not decode, a failed write) ends the job here,
  // before its executor unwinds: the others wait for it in a collective.
  options.on_failure = [this](std::exception_ptr error) {
    try {
      std::rethrow_exception(error);
    } catch (const checkpoint::CheckpointError&) {
      return;  // every rank throws it together (they agree first): a clean exit follows
    } catch (const flight::CollectiveMismatch& e) {
      // Every rank of the communicator has reported it (CheckedWorld) before getting here.
      dump_failure(e.what());
      runtime_.abort(flight::exit_collective_mismatch);
    } catch (const std::exception& e) {
      say_rank_error(rank_, std::string(e.what()) + "; ending every rank");
      dump_failure(e.what());
    } catch (...) {
      say_rank_error(rank_, "unknown error; ending every rank");
      dump_failure("unknown error");
    }
    runtime_.abort(exit_bad_input);
  };
  diag::TimelineRun* const timeline = worlds_->timeline();
  if (timeline) {
    options.timeline = &timeline->log();
    timeline->start();
  }
  TrainResult r;
  try {
    r = train_rank(*net_, config_, world(), *data.train, data.test.get(), options);
  } catch (const checkpoint::CheckpointError& e) {
    // Every rank has thrown (the ranks agree on a resume before any trains): a clean exit.
    say_rank_error(rank_, e.what());
    return exit_bad_input;
  }
  // A timeline that could not be written makes the exit code 2, after the run's report.
  bool timeline_failed = false;
  if (timeline) {
    const std::string error = timeline->finish();
    timeline_failed = !error.empty();
    if (!error.empty()) {
      say_rank_error(rank_, error);
    } else if (root_) {
      out_ << "timeline: " << o_.timeline_path << " (" << world().size()
           << (world().size() == 1 ? " rank" : " ranks") << ")\n";
    }
  }
  return report(r, timeline_failed);
}

int TrainJob::report(const TrainResult& r, bool timeline_failed) {
  const std::uint32_t ranks = world().size();
  const double images_per_s =
      r.seconds > 0 ? static_cast<double>(r.images * ranks) / r.seconds : 0.0;
  if (root_) {
    const std::size_t tail = std::min<std::size_t>(r.losses.size(), 20);
    const double loss = tail == 0
                            ? 0.0
                            : std::accumulate(r.losses.end() - static_cast<std::ptrdiff_t>(tail),
                                              r.losses.end(), 0.0) /
                                  static_cast<double>(tail);
    out_ << "trained " << r.losses.size() << " steps";
    if (r.first_step != 0) out_ << ", resumed at step " << r.first_step << ",";
    out_ << " of " << o_.options.batch << " x " << ranks << " images in " << r.seconds
         << " s: " << images_per_s << " images/s, training loss " << loss << " (last " << tail
         << " steps)\n";
    if (!r.test_accuracy.empty()) out_ << "final test accuracy " << r.test_accuracy.back() << '\n';
    if (metrics_) {
      metrics_->write(
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
  if (o_.target_accuracy > 0.0) {
    double reached = r.test_accuracy.empty() ? 0.0 : r.test_accuracy.back();
    world().comm(0).bcast(&reached, 1, dag::DType::f64, 0, agree_key);
    if (reached < o_.target_accuracy) {
      if (root_)
        out_ << "target accuracy " << o_.target_accuracy << " not reached (" << reached << ")\n";
      return exit_codes::unsafe;
    }
    if (root_) out_ << "target accuracy " << o_.target_accuracy << " reached\n";
  }
  return timeline_failed ? exit_bad_input : exit_codes::ok;
}

}  // namespace

int run_train_process(const JobOptions& o) {
  // Before anything starts (MPI included): a device this process cannot use is known here, and
  // every rank of the job refuses alike.
  const std::optional<c10::DeviceType> device_type = parse_device_type(o.device);
  if (!device_type) {
    say_error("--device '" + o.device + "'; expected cpu or cuda");
    return exit_bad_input;
  }
  if (const std::optional<std::string> why = device_unusable(*device_type)) {
    say_error(*why);
    return exit_bad_input;
  }
  set_compute_threads(o.threads != 0 ? o.threads : default_compute_threads(local_ranks()));
  comm::MpiRuntime runtime(nullptr, nullptr);
  return train_job(runtime, o, std::cout);
}

int train_job(comm::MpiRuntime& runtime, const JobOptions& o, std::ostream& out) {
  TrainJob job(runtime, o, out);
  const int code = job.run();
  out.flush();
  return code;
}

}  // namespace ordo::train
