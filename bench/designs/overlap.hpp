// Overlap of computation and communication in whole training steps: a network whose simulated
// compute time is made comparable to the time its gradients take to allreduce, run under each
// design, against the lower bound max(compute, communication).
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "runtime/comm/mpi/node_layout.hpp"
#include "runtime/comm/mpi/runtime.hpp"
#include "runtime/designs/design_config.hpp"
#include "runtime/networks/network.hpp"

namespace ordo::bench {

struct Workload {
  std::string name;
  // The network with a forward pass of `forward_us_total` simulated microseconds (backward
  // costs twice the forward, as in networks::mlp and networks::resnet50).
  std::function<networks::Network(double forward_us_total)> make;
};

// ResNet-50 (161 keys, 97.5 MiB of f32), Inception-BN (209 keys, 11.3 M parameters) and an
// 8-layer MLP of width 1024 (16 keys, 32 MiB).
std::vector<Workload> overlap_workloads();

// funnel, concom (one comm thread, 2 communicators, a barrier every 2 keys), depcha (2 comm
// threads), fused (1 MiB buckets), nonblocking, sharded, hierarchical and priority (1 MiB slices,
// 4 MiB of credit, then every slice at its push): the designs safe on any network, first in
// place, then the paper's three with copy buffers.
// `ranks`: the world's size; `layout`: its nodes, as comm::node_layout reports them.
std::vector<designs::DesignConfig> overlap_designs(std::uint32_t ranks,
                                                   const comm::NodeLayout& layout);

// Steps per timed run in the overlapped rows: the first step's forward and the last step's
// communication overlap nothing, so a run of this many steps shows most of the overlap.
inline constexpr std::uint32_t overlapped_run_steps = 4;
// priority's largest credit: every slice released at its key's push, depcha's order in slices.
inline constexpr std::uint64_t priority_credit_all = std::uint64_t{1} << 32;

// The designs run again with steps not closed by a wait for all (StepOptions::overlap), where the
// next forward waits only for the weights it reads: funnel, depcha and priority (every slice at
// its push, a credit of one slice, then the default), in place.
std::vector<designs::DesignConfig> overlapped_designs();

struct OverlapRow {
  designs::DesignConfig config;
  // Run overlapped_run_steps at a time, closed only at the end; step_s is a run's time divided
  // by them.
  bool overlapped = false;
  double step_s = 0.0;  // median step, slowest rank
  // A separate run_steps of the same design and network shape, which writes known gradients:
  // key-steps whose sum was wrong, summed over ranks (must be 0), and key-steps checked.
  std::uint64_t keys_wrong = 0;
  std::uint64_t keys_checked = 0;
};

struct OverlapResult {
  std::string workload;
  std::uint64_t keys = 0;
  std::uint64_t bytes = 0;
  double forward_us_total = 0.0;  // the simulated forward cost the calibration chose
  double compute_share = 1.0;     // forward and backward over the communication it aimed at
  double comm_s = 0.0;            // raw MPI_Allreduce of every key in push order, back to back
  // The same in the priority design's default slices (1 MiB): what slicing alone changes in M.
  double comm_sliced_s = 0.0;
  // The step on a world of one rank whose collectives do nothing (alone_world.hpp): simulated
  // compute, updates, engine and, with copy buffers, the copies; no communication. One per
  // buffer mode, in place first.
  double compute_in_place_s = 0.0;
  double compute_copy_s = 0.0;
  double compute_s(designs::BufferMode buffers) const {
    return buffers == designs::BufferMode::copy ? compute_copy_s : compute_in_place_s;
  }
  // per entry of overlap_designs(...), in order, then per entry of overlapped_designs()
  std::vector<OverlapRow> rows;
};

// A timeline of one design's steps (docs/diagnostics.md, "Timeline"): the first design of
// overlap_designs() of this kind (in place) is run over a world that logs its collectives, with
// its engine logging its ops, for every round; the ranks' traces are merged into `path`.
struct OverlapTimeline {
  std::string path;
  designs::DesignKind kind = designs::DesignKind::depcha;
};

// Collective over every rank of the job: chooses the forward cost so that forward and backward
// take `compute_share` times as long as the allreduces of every key, then runs `steps` rounds (at least 2; the first
// is a warm-up) in which the raw allreduces, the step without communication and each design's
// step (device_steps.hpp) run once each, in turn, and reports the medians; finally checks each
// design's sums with run_steps.
OverlapResult run_overlap(const comm::MpiRuntime& runtime, const Workload& workload,
                          std::uint32_t steps, const OverlapTimeline* timeline = nullptr,
                          double compute_share = 1.0);

void print_overlap(std::FILE* out, const OverlapResult& result);

}  // namespace ordo::bench
