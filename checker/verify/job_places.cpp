#include "checker/verify/job_places.hpp"

#include <variant>

namespace ordo::checker {

namespace {

std::size_t program_index(const System& model, dag::Rank rank) {
  const dag::Program* program = &model.program(rank);
  return static_cast<std::size_t>(program - model.job().programs.data());
}

}  // namespace

std::vector<ProgramPart> witness_parts(const System& model,
                                       const std::vector<dag::Transition>& witness) {
  const std::vector<WitnessStep> steps = witness_steps(model, witness);
  std::vector<ProgramPart> parts;
  parts.reserve(witness.size());
  for (std::size_t i = 0; i < witness.size(); ++i) {
    const dag::Transition& t = witness[i];
    ProgramPart part{t.rank, std::nullopt, std::nullopt};
    if (t.kind == dag::Transition::Kind::main) {
      part.action = steps[i].action;
    } else {
      part.op = t.op;
    }
    parts.push_back(part);
  }
  return parts;
}

std::optional<ProgramPart> party_part(const System& model, const std::vector<ProgramPart>& witness,
                                      dag::Rank rank, std::string_view party,
                                      std::string_view comm_name) {
  if (rank >= model.ranks()) return std::nullopt;
  const dag::Program& program = model.program(rank);
  if (party == "main") {
    // The main thread names no action in a violation; the witness took it there, so its last
    // call on the communicator is the one meant.
    std::optional<ProgramPart> last;
    for (const ProgramPart& part : witness) {
      if (part.rank != rank || !part.action || *part.action >= program.main.size()) continue;
      const auto* call = std::get_if<dag::CollectiveAction>(&program.main[*part.action]);
      if (call != nullptr && model.job().comms.at(call->collective.comm).name == comm_name) {
        last = part;
      }
    }
    if (last) return last;
  }
  for (dag::OpId op = 0; op < program.ops.size(); ++op) {
    if (program.ops[op].name == party) return ProgramPart{rank, op, std::nullopt};
  }
  return std::nullopt;
}

JobPlaces::JobPlaces(const System& model, const JobSource& source)
    : model_(model), source_(source) {
  if (!source.dump_path.empty() && !source.dump_text.empty()) locator_.emplace(source.dump_text);
}

std::string JobPlaces::pointer(const ProgramPart& part) const {
  const std::string program = "/programs/" + std::to_string(program_index(model_, part.rank));
  if (part.op) return program + "/ops/" + std::to_string(*part.op);
  return program + "/main/" + std::to_string(part.action.value_or(0));
}

report::SarifLocation JobPlaces::location(const ProgramPart& part, std::string message) {
  report::SarifLocation l;
  l.message = std::move(message);
  if (part.rank >= model_.ranks()) return l;
  const dag::Program& program = model_.program(part.rank);
  const std::string in = source_.name + ": program '" + program.name + "', ";
  if (part.op && *part.op < program.ops.size()) {
    l.logical_name = program.ops[*part.op].name;
    l.logical_full_name = in + "op '" + l.logical_name + "'";
    l.logical_kind = "function";
  } else if (part.action && *part.action < program.main.size()) {
    l.logical_name = "main action " + std::to_string(*part.action);
    l.logical_full_name = in + l.logical_name;
  } else {
    return l;
  }
  if (source_.dump_path.empty()) return l;
  l.path = source_.dump_path;
  if (locator_) {
    if (const std::optional<report::TextSpan> span = locator_->locate(pointer(part))) {
      l.region = report::SarifRegion{span->start_line, span->start_column, span->end_line,
                                     span->end_column};
    }
  }
  return l;
}

}  // namespace ordo::checker
