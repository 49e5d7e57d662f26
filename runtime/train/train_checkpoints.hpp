// The trainer's checkpoints across the ranks of a job (checkpoint/checkpoint_dir.hpp has the
// commit protocol): a resume that every rank agrees on before any trains, and a save that rank 0
// commits only once every rank wrote its file.
//
// The agreements are collectives the trainer makes itself, outside the step program: the main
// thread makes them between steps, after the step's wait_for_all, so no collective of this rank
// is in flight on any communicator; and every rank makes the same ones after the same step, so
// they match one for one (docs/train.md). Their keys are below every gradient key.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/checkpoint/checkpoint_file.hpp"
#include "runtime/comm/communicator.hpp"
#include "runtime/train/model/model.hpp"
#include "runtime/train/step_compute.hpp"
#include "runtime/train/train_run.hpp"

namespace ordo::train {

// What a checkpoint of this run must say about the run to be resumed by it.
struct RunIdentity {
  std::string network;
  std::string design;
  std::uint32_t world_size;
  std::uint32_t rank;
  std::uint64_t seed;
  std::uint32_t batch;
  std::uint32_t steps_per_epoch;
};

// Where a resumed run continues: the step, and this rank's sums of the epoch's steps before it.
struct ResumePoint {
  std::uint64_t step = 0;
  checkpoint::EpochSums epoch_sums;
};

// Loads this rank's part of the latest checkpoint into `model` and `compute`; returns where to
// continue. Throws checkpoint::CheckpointError on every rank when any rank cannot, or when the
// checkpoint is not of this run: another network, design, world size, rank, seed or batch, or a
// position that this run's steps per epoch do not give.
ResumePoint resume(const CheckpointOptions& o, const RunIdentity& run, comm::World& world,
                   Model& model, StepCompute& compute);

// Every rank writes its file of `step`, with its sums of the epoch so far (`epoch_sums`: of the
// steps of `step`'s epoch up to it; ignored at an epoch's end, where the next epoch starts at
// zero); once all have, rank 0 commits it. Throws on every rank when any rank's write or rank
// 0's commit failed.
void save(const CheckpointOptions& o, const RunIdentity& run, comm::World& world, Model& model,
          StepCompute& compute, std::uint64_t step, const checkpoint::EpochSums& epoch_sums);

}  // namespace ordo::train
