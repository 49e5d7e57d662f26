// What `ordo train` runs (docs/train.md, "`ordo train`"): the network or model file, the design,
// where it computes, the data, the optimisation, the checks, what it writes and what it does when
// something goes wrong. One field per option of the command line, which fills them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "runtime/dag/program.hpp"
#include "runtime/designs/design_config.hpp"
#include "runtime/diag/flight_recorder.hpp"
#include "runtime/flight/timeline_log.hpp"
#include "runtime/train/job/job_data.hpp"
#include "runtime/train/train_run.hpp"

namespace ordo::train {

struct JobOptions {
  JobOptions() {
    options.lr.base = 0.05;
    config.prefetch = true;  // the data ops on the data pool, as ordo train runs by default
  }

  std::string network = "lenet";
  std::string model;           // a model file (docs/import.md) in place of `network`
  std::string data_shape;      // with `model`: one example's shape, for MXNet symbols
  bool network_given = false;  // `network` was asked for, so that it and `model` exclude each other
  std::string design = "depcha";
  std::string device = "cpu";      // cpu or cuda
  std::string comm_path = "auto";  // runtime/train/device/device_gradients.hpp
  TrainDataOptions data;
  std::string metrics_path;       // empty: none
  std::string progress = "auto";  // auto, bar, log or none
  std::uint32_t threads = 0;      // 0: the cores divided among the ranks on this machine
  std::string dump_step_path;     // empty: none
  std::string export_init_path;   // empty: none
  TrainOptions options;
  designs::DesignConfig config;
  bool no_verify = false;
  bool allow_unknown = false;
  double verify_seconds = 60.0;
  double target_accuracy = 0.0;  // the final test accuracy must reach it, or the exit code is 1
  // Hang diagnostics (docs/diagnostics.md). 0: ORDO_HANG_TIMEOUT, else the default.
  double hang_timeout = 0.0;
  std::string dump_dir = "ordo-dumps";
  std::size_t flight_ring = diag::ring_capacity_default;
  bool flight_recorder = true;     // false: no flight recorder and no hang watchdog
  bool check_collectives = false;  // else ORDO_DEBUG=detail
  // The run's timeline (docs/diagnostics.md, "Timeline"); empty: none.
  std::string timeline_path;
  std::size_t timeline_events = flight::timeline_events_default;
};

}  // namespace ordo::train
