#include "runtime/train/train_checkpoints.hpp"

#include <exception>
#include <optional>
#include <stdexcept>

#include "runtime/checkpoint/checkpoint_dir.hpp"
#include "runtime/checkpoint/checkpoint_error.hpp"
#include "runtime/checkpoint/checkpoint_file.hpp"
#include "runtime/train/train_state.hpp"

namespace ordo::train {

namespace {

constexpr std::int64_t agree_key = -1;

// Whether every rank succeeded, and the largest and smallest `value` over the ranks.
struct Agreement {
  bool all_ok = true;
  std::int64_t max = 0;
  std::int64_t min = 0;
};
Agreement agree(comm::World& world, bool ok, std::int64_t value) {
  std::int64_t v[3] = {ok ? 0 : 1, value, -value};
  world.comm(0).allreduce(v, 3, dag::DType::i64, dag::Reduction::max, agree_key);
  return {v[0] == 0, v[1], -v[2]};
}

void check_fits(const checkpoint::Checkpoint& c, const RunIdentity& run, std::uint64_t step,
                const std::string& file) {
  auto differs = [&](const std::string& field, const std::string& have, const std::string& want) {
    throw checkpoint::CheckpointError(file, field + " " + have,
                                      field + " " + want + ", as this run has");
  };
  if (c.network != run.network) differs("network", c.network, run.network);
  // Designs keep their state apart (sharded steps the momentum of each rank's own blocks only),
  // so a checkpoint continues under the design that wrote it.
  if (c.design != run.design) differs("design", c.design, run.design);
  if (c.world_size != run.world_size) {
    differs("world size", std::to_string(c.world_size), std::to_string(run.world_size));
  }
  if (c.rank != run.rank) differs("rank", std::to_string(c.rank), std::to_string(run.rank));
  if (c.seed != run.seed) differs("seed", std::to_string(c.seed), std::to_string(run.seed));
  if (c.batch != run.batch) differs("batch", std::to_string(c.batch), std::to_string(run.batch));
  if (c.step != step) {
    differs("step", std::to_string(c.step), std::to_string(step) + " (what 'latest' names)");
  }
  if (std::uint64_t{c.epoch} * run.steps_per_epoch + c.step_in_epoch != c.step ||
      c.step_in_epoch >= run.steps_per_epoch) {
    throw checkpoint::CheckpointError(
        file,
        "step " + std::to_string(c.step) + " at epoch " + std::to_string(c.epoch) + ", step " +
            std::to_string(c.step_in_epoch) + " of it",
        "the same position with this run's " + std::to_string(run.steps_per_epoch) +
            " steps per epoch (the same data and batch)");
  }
  if (c.epoch_sums.images != std::uint64_t{c.step_in_epoch} * run.batch) {
    throw checkpoint::CheckpointError(
        file, "epoch sums over " + std::to_string(c.epoch_sums.images) + " images",
        "the " + std::to_string(std::uint64_t{c.step_in_epoch} * run.batch) +
            " images of the epoch's steps before step " + std::to_string(c.step_in_epoch));
  }
}

}  // namespace

// Loads this rank's part of the latest checkpoint; every rank learns whether all could, so no
// rank trains alone. Returns where to continue.
ResumePoint resume(const CheckpointOptions& o, const RunIdentity& run, comm::World& world,
                   Model& model, StepCompute& compute) {
  std::exception_ptr error;
  ResumePoint at;
  try {
    const std::optional<std::uint64_t> latest = checkpoint::latest(o.dir);
    if (!latest) {
      throw checkpoint::CheckpointError(o.dir, "no committed checkpoint (no 'latest' file)",
                                        "a directory that ordo train wrote checkpoints to");
    }
    const std::string file = checkpoint::rank_file(o.dir, *latest, run.rank);
    const checkpoint::Checkpoint c = checkpoint::read(file);
    check_fits(c, run, *latest, file);
    restore_arrays(c.arrays, file, model, compute);
    at = {c.step, c.epoch_sums};
  } catch (const std::exception&) {
    error = std::current_exception();
  }
  const Agreement a = agree(world, !error, static_cast<std::int64_t>(at.step));
  if (error) std::rethrow_exception(error);
  if (!a.all_ok) {
    throw checkpoint::CheckpointError(o.dir, "another rank could not resume (its error is its own)",
                                      "every rank's file of the latest checkpoint");
  }
  if (a.min != a.max) {
    throw checkpoint::CheckpointError(o.dir, "the ranks resumed different steps",
                                      "one step on every rank");
  }
  return at;
}

// Every rank writes its file of `step`; once all have, rank 0 commits it.
void save(const CheckpointOptions& o, const RunIdentity& run, comm::World& world, Model& model,
          StepCompute& compute, std::uint64_t step, const checkpoint::EpochSums& epoch_sums) {
  std::exception_ptr error;
  try {
    checkpoint::Checkpoint c;
    c.network = run.network;
    c.design = run.design;
    c.world_size = run.world_size;
    c.rank = run.rank;
    c.seed = run.seed;
    c.batch = run.batch;
    c.step = step;
    c.epoch = static_cast<std::uint32_t>(step / run.steps_per_epoch);
    c.step_in_epoch = static_cast<std::uint32_t>(step % run.steps_per_epoch);
    if (c.step_in_epoch != 0) c.epoch_sums = epoch_sums;
    c.arrays = capture_arrays(model, compute);
    checkpoint::prepare_step(o.dir, step);
    checkpoint::write(checkpoint::rank_file(o.dir, step, run.rank), c);
  } catch (const std::exception&) {
    error = std::current_exception();
  }
  if (!agree(world, !error, 0).all_ok) {
    if (error) std::rethrow_exception(error);
    throw std::runtime_error("checkpoint of step " + std::to_string(step) +
                             ": another rank could not write its file (its error is its own)");
  }
  if (run.rank == 0) {
    try {
      checkpoint::commit(o.dir, step);
    } catch (const std::exception&) {
      error = std::current_exception();
    }
  }
  if (!agree(world, !error, 0).all_ok) {
    if (error) std::rethrow_exception(error);
    throw std::runtime_error("checkpoint of step " + std::to_string(step) +
                             ": rank 0 could not commit it (its error is its own)");
  }
}

}  // namespace ordo::train
