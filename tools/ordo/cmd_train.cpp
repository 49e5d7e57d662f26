// `ordo train`: data-parallel training of a built-in network, or of a model file from another
// framework (--model), on Fashion-MNIST across the Open MPI ranks it runs on (mpirun -np N ordo
// train ...; one process is a world of one). Here the options are mapped onto the job's
// (runtime/train/job/train_job.hpp), which verifies the step program before the first step,
// trains and reports.
#include <memory>
#include <optional>
#include <string>

#include "runtime/diag/timeline_writer.hpp"
#include "runtime/diag/watchdog.hpp"
#include "runtime/networks/catalog.hpp"
#include "runtime/train/job/job_data.hpp"
#include "runtime/train/job/job_options.hpp"
#include "runtime/train/job/train_job.hpp"
#include "tools/ordo/bound_options.hpp"
#include "tools/ordo/commands.hpp"
#include "tools/ordo/design_options.hpp"
#include "tools/ordo/file_names.hpp"
#include "tools/ordo/front_end.hpp"
#include "tools/ordo/output.hpp"

namespace ordo::tools {

namespace {

// The options are the job's own fields (runtime/train/job/job_options.hpp).
using TrainCli = train::JobOptions;

}  // namespace

Command add_train(CLI::App& app) {
  auto o = std::make_shared<TrainCli>();
  auto paths = std::make_shared<PathOptions>();
  CLI::App* sub = app.add_subcommand("train", train_summary);
  // The trainer takes the built-in networks only; a file is --model.
  CLI::Option* network =
      paths->not_a_path(sub->add_option("--network", o->network, networks::builtin_network_names())
                            ->capture_default_str());
  paths->input_file(
      sub->add_option("--model", o->model,
                      "train this model file instead (ONNX, or MXNet symbol JSON; docs/import.md): "
                      "its operators must be the trainer's, its input the data's examples and its "
                      "output the classes; ONNX initializers are the initial weights"),
      o->model);
  paths->not_a_path(sub->add_option(
      "--data-shape", o->data_shape,
      "with --model: one example's shape, e.g. 1,28,28 (MXNet symbols carry none)"));
  paths->not_a_path(
      sub->add_option("--device", o->device,
                      "where the layers, batches and updates run: cpu, or cuda (a GPU through a "
                      "CUDA build of libtorch; each rank takes the GPU of its local rank, "
                      "docs/train.md)")
          ->check(CLI::IsMember({"cpu", "cuda"}))
          ->capture_default_str());
  paths->not_a_path(
      sub->add_option("--comm-path", o->comm_path,
                      "with --device cuda, what carries the gradients: auto (what the job finds, "
                      "docs/gpu.md), nccl, cuda-aware or staged (gradients in GPU memory), or "
                      "host (staged through host buffers by the trainer)")
          ->check(CLI::IsMember({"auto", "nccl", "cuda-aware", "staged", "host"}))
          ->capture_default_str());
  add_design_options(sub, *paths, o->design, o->config, "");
  paths->not_a_path(
      sub->add_option("--data", o->data.kind,
                      "fashion-mnist; imagenet (--data-dir holds train.rec/.idx and val.rec/.idx, "
                      "as im2rec or ordo pack-rec write them); or synthetic (random in-memory "
                      "images of the network's input, for throughput)")
          ->capture_default_str());
  // The data folder is read for its data files alone, which the data's kind names; its default
  // counts as given, since the trainer reads it all the same.
  paths->paths(sub->add_option("--data-dir", o->data.dir,
                               "where the data is (default: Debian's Fashion-MNIST; imagenet: .)"),
               [o](const std::string& option) {
                 std::vector<paths::PathUse> uses;
                 std::vector<paths::NamePattern> names;
                 for (const std::string& name : train::data_file_names(o->data)) {
                   names.push_back(paths::NamePattern::exact(name));
                 }
                 if (!names.empty()) {
                   uses.push_back(
                       {option, train::data_dir(o->data), paths::Role::input_folder, names});
                 }
                 return uses;
               });
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
  // Read back by --resume, but what is read there is the trainer's own writing: an output folder
  // of the names a commit writes and removes.
  paths->output_folder(
      sub->add_option("--checkpoint-dir", o->options.checkpoint.dir,
                      "write checkpoints here (each rank its own file, committed together)"),
      o->options.checkpoint.dir, checkpoint_names());
  sub->add_option("--checkpoint-every", o->options.checkpoint.every,
                  "steps between checkpoints (0: only after the last step)");
  sub->add_flag("--resume", o->options.checkpoint.resume,
                "continue from the latest checkpoint in --checkpoint-dir");
  paths->not_a_path(
      sub->add_option("--progress", o->progress,
                      "auto (a bar on a terminal, log lines otherwise), bar, log or none")
          ->check(CLI::IsMember({"auto", "bar", "log", "none"}))
          ->capture_default_str());
  paths->output_file(sub->add_option("--metrics", o->metrics_path,
                                     "write JSON lines of every step and epoch here"),
                     o->metrics_path);
  paths->output_file(
      sub->add_option("--dump-step", o->dump_step_path,
                      "write the step program the checker decides as a dump (ordo verify reads "
                      "it)"),
      o->dump_step_path);
  paths->output_file(
      sub->add_option("--export-init", o->export_init_path,
                      "write rank 0's state before the first step here, as a checkpoint of step 0 "
                      "(the initial weights, for bench/ddp)"),
      o->export_init_path);
  sub->add_option("--hang-timeout", o->hang_timeout,
                  std::string("seconds a collective or a wait may take before the rank dumps "
                              "its flight recorder to --dump-dir and ends the job (default: "
                              "ORDO_HANG_TIMEOUT, else ") +
                      std::to_string(static_cast<int>(diag::hang_timeout_default_s)) + ")")
      ->check(seconds_bound());
  // Written only with the flight recorder, and only its names (rank-K.json, program.json).
  paths->paths(
      sub->add_option("--dump-dir", o->dump_dir,
                      "where a hang writes rank-K.json (ordo analyze reads it)")
          ->capture_default_str(),
      [o](const std::string& option) {
        std::vector<paths::PathUse> uses;
        if (o->flight_recorder) {
          uses.push_back({option, o->dump_dir, paths::Role::output_folder, rank_dump_names()});
        }
        return uses;
      });
  sub->add_option("--flight-ring", o->flight_ring,
                  "calls the flight recorder keeps per communicator")
      ->check(CLI::Range(std::size_t{1}, diag::ring_capacity_max))
      ->capture_default_str();
  sub->add_flag("!--no-flight-recorder", o->flight_recorder,
                "no flight recorder and no hang watchdog (to measure what they cost)");
  sub->add_flag("--check-collectives", o->check_collectives,
                "fingerprint mode: compare every collective across its ranks before it is issued "
                "and end the job with both calls named on a mismatch (also ORDO_DEBUG=detail)");
  // Each rank's part beside it (FILE.rank-K.json) is written too.
  paths->paths(
      sub->add_option("--timeline", o->timeline_path,
                      "write the run as a Chrome trace here (opens in Perfetto): ops, "
                      "waits and collectives of every rank; each rank writes "
                      "FILE.rank-K.json, rank 0 merges"),
      [o](const std::string& option) {
        return std::vector<paths::PathUse>{{option, o->timeline_path, paths::Role::output_file,
                                            timeline_part_names(o->timeline_path)}};
      });
  sub->add_option("--timeline-events", o->timeline_events,
                  "events each rank's timeline holds; later ones are counted as dropped")
      ->check(CLI::Range(std::size_t{1}, flight::timeline_events_max))
      ->capture_default_str();
  sub->add_flag("--no-verify", o->no_verify, "train without checking the step program first");
  sub->add_flag("--allow-unknown", o->allow_unknown, "train when the checker cannot decide");
  sub->add_option("--verify-timeout", o->verify_seconds, "seconds for the check")
      ->check(seconds_bound())
      ->capture_default_str();
  return {[o, network] {
            o->network_given = network->count() > 0;
            return train::run_train_process(*o);
          },
          paths};
}

}  // namespace ordo::tools
