// The state a run starts from, before its first step, as a checkpoint of step 0: rank 0's weights
// as train_rank initialises them (every rank trains from them after the initial broadcast), zero
// momenta and fresh batch norm statistics. Another framework can load it to train from the same
// weights (bench/ddp does, to compare ordo with PyTorch DDP step by step); and since it is a
// valid checkpoint of step 0, a run resumed from it takes exactly the steps a fresh run takes.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/checkpoint/checkpoint_file.hpp"
#include "runtime/networks/initial_values.hpp"
#include "runtime/networks/network.hpp"

namespace ordo::train {

struct InitialStateOf {
  std::string design;  // the design a run resumed from it must have, as in every checkpoint
  std::uint32_t world_size = 1;
  std::uint64_t seed = 1;
  std::uint32_t batch = 0;                                  // per rank
  const networks::InitialValues* initial_values = nullptr;  // the model file's, where it has them
};

// Throws what Model's constructor throws for a network it cannot build.
checkpoint::Checkpoint initial_checkpoint(const networks::Network& network,
                                          const InitialStateOf& run);

}  // namespace ordo::train
