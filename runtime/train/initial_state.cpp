#include "runtime/train/initial_state.hpp"

#include "runtime/train/initial_values.hpp"
#include "runtime/train/layers/init.hpp"
#include "runtime/train/model/model.hpp"
#include "runtime/train/train_state.hpp"

namespace ordo::train {

checkpoint::Checkpoint initial_checkpoint(const networks::Network& network,
                                          const InitialStateOf& run) {
  // What train_rank does before its first step; tests hold a run resumed from this checkpoint
  // to a fresh run, bit for bit.
  Model model(network, at::kFloat);
  init_params(model.library_layers(), run.seed);
  if (run.initial_values != nullptr) set_initial_values(model, *run.initial_values);
  checkpoint::Checkpoint c;
  c.network = network.name;
  c.design = run.design;
  c.world_size = run.world_size;
  c.rank = 0;
  c.seed = run.seed;
  c.batch = run.batch;
  c.arrays = capture_initial_arrays(model);
  return c;
}

}  // namespace ordo::train
