#include "fuzz/props/witness_replay.hpp"

#include "replay/replay.hpp"

namespace ordo::fuzz {

namespace {

std::string transitions_text(const exec::ControlledRun& run) {
  std::string text;
  for (std::size_t i = 0; i < run.trace().size(); ++i) {
    text += std::to_string(i + 1) + ". " + run.describe(run.trace()[i]) + "\n";
  }
  return text;
}

}  // namespace

std::optional<std::string> replay_problem(const Instance& instance, const checker::Model& model,
                                          const checker::Result& result) {
  exec::ControlledRun run(instance.job, instance.ranks, {}, instance.backend);
  const replay::Replay replayed = replay::replay(run, result.witness);
  const std::optional<std::string> problem = replay::problem(replayed, result);
  if (!problem) return std::nullopt;
  return *problem + "\nruntime transitions:\n" + transitions_text(run) + "checker:\n" +
         checker::report(model, result);
}

}  // namespace ordo::fuzz
