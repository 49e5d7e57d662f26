#include "bench/designs/overlap.hpp"

#include <algorithm>
#include <functional>
#include <memory>
#include <stdexcept>

#include "bench/designs/alone_world.hpp"
#include "bench/designs/device_steps.hpp"
#include "bench/designs/raw_allreduces.hpp"
#include "bench/designs/sync_timer.hpp"
#include "runtime/comm/mpi/node_layout.hpp"
#include "runtime/comm/mpi/world.hpp"
#include "runtime/diag/timeline_run.hpp"
#include "runtime/kvstore/step_run.hpp"

namespace ordo::bench {

namespace {

// Calibrating the compute cost: a few back-to-back allreduces of every key.
constexpr Repeats calibration_repeats{1, 7};
constexpr std::uint32_t mlp_layers = 8;
constexpr std::uint32_t mlp_width = 1024;

double median_seconds(Repeats repeats, const std::function<void()>& body) {
  std::vector<double> samples;
  for (std::uint32_t i = 0; i < repeats.warmup + repeats.timed; ++i) {
    const double s = slowest_rank_seconds(MPI_COMM_WORLD, body);
    if (i >= repeats.warmup) samples.push_back(s);
  }
  return median(samples);
}

designs::DesignConfig priority_with_credit(std::uint64_t credit_bytes) {
  designs::DesignConfig c;
  c.kind = designs::DesignKind::priority;
  c.credit_bytes = credit_bytes;
  return c;
}

std::string mib(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  return text;
}

}  // namespace

std::vector<Workload> overlap_workloads() {
  return {
      {"resnet50", [](double forward_us) { return networks::resnet50(forward_us); }},
      {"inception-bn",
       [](double forward_us) {
         return networks::inception_bn(1000, {3, 224, 224}, forward_us);
       }},
      {"mlp8x1024",
       [](double forward_us) {
         return networks::mlp(mlp_layers, mlp_width, forward_us / mlp_layers);
       }},
  };
}

std::vector<designs::DesignConfig> overlap_designs(std::uint32_t ranks,
                                                   const comm::NodeLayout& layout) {
  std::vector<designs::DesignConfig> designs;
  for (designs::BufferMode buffers : {designs::BufferMode::in_place, designs::BufferMode::copy}) {
    designs::DesignConfig funnel;
    funnel.kind = designs::DesignKind::funnel;
    designs::DesignConfig concom;
    concom.kind = designs::DesignKind::concom;
    concom.comm_threads = 1;
    concom.ncomm = 2;
    concom.outstanding = 2;
    designs::DesignConfig depcha;
    depcha.kind = designs::DesignKind::depcha;
    for (designs::DesignConfig c : {funnel, concom, depcha}) {
      c.buffers = buffers;
      designs.push_back(c);
    }
    if (buffers == designs::BufferMode::copy) continue;
    // Beyond the paper, in place only: 1 MiB buckets (the default), and one issuing thread.
    designs::DesignConfig fused;
    fused.kind = designs::DesignKind::fused;
    designs::DesignConfig nonblocking;
    nonblocking.kind = designs::DesignKind::nonblocking;
    designs.push_back(fused);
    designs.push_back(nonblocking);
    // sharded over every rank; hierarchical on the nodes MPI reports, or, on one machine, on
    // two halves of the ranks standing in for nodes (no rank then crosses a network).
    designs::DesignConfig sharded;
    sharded.kind = designs::DesignKind::sharded;
    sharded.shards = ranks;
    designs.push_back(sharded);
    if (layout.nodes > 1 || ranks % 2 == 0) {
      designs::DesignConfig hierarchical;
      hierarchical.kind = designs::DesignKind::hierarchical;
      hierarchical.nodes = layout.nodes > 1 ? layout.nodes : 2;
      hierarchical.node_ranks = ranks / hierarchical.nodes;
      designs.push_back(hierarchical);
    }
    // 1 MiB slices, 4 MiB of credit per push; and every slice at its key's push (slices alone).
    designs.push_back(priority_with_credit(designs::DesignConfig{}.credit_bytes));
    designs.push_back(priority_with_credit(priority_credit_all));
  }
  return designs;
}


std::vector<designs::DesignConfig> overlapped_designs() {
  std::vector<designs::DesignConfig> designs(2);
  designs[0].kind = designs::DesignKind::funnel;
  designs[1].kind = designs::DesignKind::depcha;
  // Every slice released at its key's push: depcha's order in slices, no priority at all.
  designs.push_back(priority_with_credit(priority_credit_all));
  // One slice per push: the backlog builds up as soon as backward outruns the link, and the next
  // forward's keys overtake more of it. Then the default credit.
  designs.push_back(priority_with_credit(designs::DesignConfig{}.slice_bytes));
  designs.push_back(priority_with_credit(designs::DesignConfig{}.credit_bytes));
  return designs;
}

OverlapResult run_overlap(const comm::MpiRuntime& runtime, const Workload& workload,
                          std::uint32_t steps, const OverlapTimeline* timeline,
                          double compute_share) {
  if (steps < 2) throw std::invalid_argument("the overlap needs a warm-up round and a timed one");
  OverlapResult result;
  result.workload = workload.name;
  const networks::Network shape = workload.make(0.0);
  result.keys = networks::param_count(shape);
  result.bytes = networks::param_bytes(shape);
  RawAllreduces raw(runtime, shape);
  RawAllreduces raw_sliced(runtime, shape, false,
                           designs::DesignConfig{}.slice_bytes / dag::dtype_bytes(dag::DType::f32));
  // Forward plus backward (twice the forward) take compute_share times the allreduces.
  result.compute_share = compute_share;
  result.forward_us_total =
      median_seconds(calibration_repeats, [&] { raw.run(); }) / 3.0 * 1e6 * compute_share;
  const networks::Network network = workload.make(result.forward_us_total);

  // The step without communication, on a world of one rank whose collectives do nothing, for
  // each buffer mode (copy buffers add the copies to it). depcha, whose main thread never
  // waits, so that nothing but the engine orders the ops.
  designs::DesignConfig alone_config;
  alone_config.kind = designs::DesignKind::depcha;
  AloneWorld alone_world(designs::step_comms(alone_config));
  DeviceSteps alone_in_place(network, alone_config, alone_world);
  alone_config.buffers = designs::BufferMode::copy;
  DeviceSteps alone_copy(network, alone_config, alone_world);
  std::vector<std::unique_ptr<comm::MpiWorld>> worlds;
  // The timeline's design, if one is asked for; it outlives the steps that log into it.
  std::unique_ptr<diag::TimelineRun> traced;
  std::vector<std::unique_ptr<DeviceSteps>> designs;
  std::vector<designs::DesignConfig> configs =
      overlap_designs(runtime.world_size(), comm::node_layout(runtime));
  const std::size_t closed = configs.size();
  for (const designs::DesignConfig& c : overlapped_designs()) configs.push_back(c);
  for (const designs::DesignConfig& config : configs) {
    worlds.push_back(std::make_unique<comm::MpiWorld>(runtime, designs::step_comms(config)));
    comm::World* world = worlds.back().get();
    if (timeline != nullptr && !traced && config.kind == timeline->kind &&
        config.buffers == designs::BufferMode::in_place) {
      traced = std::make_unique<diag::TimelineRun>(timeline->path, *world,
                                                   flight::timeline_events_default, -1);
      traced->start();
      world = &traced->world();
    }
    designs.push_back(std::make_unique<DeviceSteps>(
        network, config, *world, world == worlds.back().get() ? nullptr : &traced->log()));
  }

  // Every variant runs once per round, in turn, so that a change in the machine's load affects
  // all of them alike; the first round is a warm-up. Every rank runs the one-rank step at the
  // same time, so the ranks' copies compete for the cores as they do in the real steps.
  std::vector<std::function<void()>> variants = {[&] { raw.run(); }, [&] { alone_in_place.step(); },
                                                 [&] { alone_copy.step(); },
                                                 [&] { raw_sliced.run(); }};
  constexpr std::size_t first_design = 4;
  for (std::size_t d = 0; d < designs.size(); ++d) {
    DeviceSteps* run = designs[d].get();
    if (d < closed) {
      variants.emplace_back([run] { run->step(); });
    } else {
      variants.emplace_back([run] { run->overlapped_steps(overlapped_run_steps); });
    }
  }
  const std::vector<double> medians = medians_in_turn(variants, steps);
  if (traced) {
    const std::string error = traced->finish();
    if (!error.empty()) throw std::runtime_error(error);
  }
  result.comm_s = medians[0];
  result.compute_in_place_s = medians[1];
  result.compute_copy_s = medians[2];
  result.comm_sliced_s = medians[3];
  for (std::size_t d = 0; d < designs.size(); ++d) {
    OverlapRow row;
    row.config = configs[d];
    row.overlapped = d >= closed;
    row.step_s = medians[first_design + d] / (row.overlapped ? overlapped_run_steps : 1);
    kvstore::StepRunOptions check = checked_steps();
    check.overlap = row.overlapped;
    const kvstore::StepRunResult checked = kvstore::run_steps(shape, row.config, *worlds[d], check);
    row.keys_wrong = sum_over_ranks(MPI_COMM_WORLD, checked.keys_wrong);
    row.keys_checked = sum_over_ranks(MPI_COMM_WORLD, checked.keys_checked);
    result.rows.push_back(row);
  }
  return result;
}

namespace {

// The funnel step with the same buffer mode as `config`, closed or overlapped alike: the paper
// compares depcha with funnel.
double funnel_step_s(const OverlapResult& r, const designs::DesignConfig& config,
                     bool overlapped) {
  for (const OverlapRow& row : r.rows) {
    if (row.config.kind == designs::DesignKind::funnel && row.config.buffers == config.buffers &&
        row.overlapped == overlapped) {
      return row.step_s;
    }
  }
  return 0.0;
}

}  // namespace

void print_overlap(std::FILE* out, const OverlapResult& r) {
  std::fprintf(out,
               "%s: %llu keys, %s of f32 gradients; simulated forward %.1f ms and backward "
               "%.1f ms, together %.2f times as long as the communication\n\n",
               r.workload.c_str(), static_cast<unsigned long long>(r.keys), mib(r.bytes).c_str(),
               r.forward_us_total / 1e3, 2.0 * r.forward_us_total / 1e3, r.compute_share);
  std::fprintf(out, "- M, communication: raw MPI_Allreduce of every key in push order: %.1f ms\n",
               r.comm_s * 1e3);
  std::fprintf(out, "- the same in 1 MiB slices (the priority design's default): %.1f ms\n",
               r.comm_sliced_s * 1e3);
  std::fprintf(out,
               "- C, compute: the step on a world of one rank whose collectives do nothing "
               "(simulated compute, updates, engine; with copy buffers also the copies): "
               "%.1f ms in place, %.1f ms with copy buffers\n",
               r.compute_in_place_s * 1e3, r.compute_copy_s * 1e3);
  for (designs::BufferMode buffers : {designs::BufferMode::in_place, designs::BufferMode::copy}) {
    std::fprintf(out, "- %s: lower bound max(C, M) %.1f ms; no overlap, C + M: %.1f ms\n",
                 std::string(designs::to_string(buffers)).c_str(),
                 std::max(r.compute_s(buffers), r.comm_s) * 1e3,
                 (r.compute_s(buffers) + r.comm_s) * 1e3);
  }
  std::fprintf(out,
               "\n| design | median step T | T / max(C, M) | hidden (C + M - T) / min(C, M) | "
               "funnel T / T | sums wrong (run_steps) |\n");
  std::fprintf(out, "|---|---:|---:|---:|---:|---:|\n");
  for (const OverlapRow& row : r.rows) {
    const double compute_s = r.compute_s(row.config.buffers);
    const double bound = std::max(compute_s, r.comm_s);
    const double smaller = std::min(compute_s, r.comm_s);
    std::fprintf(out, "| %s%s | %.1f ms | %.2f | %.2f | %.2f | %llu of %llu |\n",
                 designs::describe(row.config).c_str(), row.overlapped ? ", overlapped" : "", row.step_s * 1e3, row.step_s / bound,
                 (compute_s + r.comm_s - row.step_s) / smaller,
                 funnel_step_s(r, row.config, row.overlapped) / row.step_s,
                 static_cast<unsigned long long>(row.keys_wrong),
                 static_cast<unsigned long long>(row.keys_checked));
  }
}

}  // namespace ordo::bench
