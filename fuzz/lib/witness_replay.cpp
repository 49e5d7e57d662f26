#include "fuzz/lib/witness_replay.hpp"

#include "fuzz/lib/schedule_mix.hpp"
#include "replay/replay.hpp"

namespace ordo::fuzz {

std::optional<std::string> replay_problem(const Instance& instance, const checker::System& model,
                                          const checker::Result& result) {
  exec::ControlledRun run(instance.job, instance.ranks, {}, instance.backend);
  const replay::Replay replayed = replay::replay(run, result.witness);
  const std::optional<std::string> problem = replay::problem(replayed, result);
  if (!problem) return std::nullopt;
  return *problem + "\nruntime transitions:\n" +
         transitions_text(instance.job, instance.ranks, instance.backend, run.trace()) +
         "checker:\n" + checker::report(model, result);
}

}  // namespace ordo::fuzz
