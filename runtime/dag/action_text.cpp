#include "runtime/dag/action_text.hpp"

#include "runtime/dag/names.hpp"

namespace ordo::dag {

std::string describe(const Collective& c, std::string_view comm_name) {
  std::string text(to_string(c.kind));
  if (c.kind != CollectiveKind::barrier) {
    text += " of " + std::to_string(c.count) + " x " + std::string(to_string(c.dtype));
  }
  if (c.reduction != Reduction::none || takes_reduction(c.kind)) {
    text += " (" + std::string(to_string(c.reduction)) + ")";
  }
  if (c.root) text += " from root " + std::to_string(*c.root);
  if (c.peer) {
    const bool any = *c.peer == any_source;
    text += std::string(c.kind == CollectiveKind::send ? " to" : " from") +
            (any ? " any source" : " rank " + std::to_string(*c.peer)) + ", tag " +
            std::to_string(c.tag);
  }
  text += " on '" + std::string(comm_name) + "', key " + std::to_string(c.key);
  if (c.offset != 0) text += " from element " + std::to_string(c.offset);
  return text;
}

std::string ProgramNames::op(OpId op) const {
  return op < program_.ops.size() ? program_.ops[op].name : "op " + std::to_string(op);
}

std::string ProgramNames::var(VarId var) const {
  return var < program_.vars.size() ? program_.vars[var].name : "var " + std::to_string(var);
}

std::string ProgramNames::comm(CommId comm) const {
  return comm < comms_.size() ? comms_[comm].name : "comm " + std::to_string(comm);
}

std::string describe(const Action& action, const ActionNames& names, bool in_call) {
  if (const auto* submit = std::get_if<SubmitAction>(&action)) {
    return "submit '" + names.op(submit->op) + "'";
  }
  if (const auto* wait = std::get_if<WaitToReadAction>(&action)) {
    return "wait to read '" + names.var(wait->var) + "'";
  }
  if (std::holds_alternative<WaitForAllAction>(action)) return "wait for all";
  const Collective& c = std::get<CollectiveAction>(action).collective;
  return (in_call ? "in " : "call ") + describe(c, names.comm(c.comm));
}

std::string describe_main(const Program& program, const std::vector<Communicator>& comms,
                          std::uint32_t pc, bool in_call) {
  if (pc == program.main.size()) return "main finished";
  if (pc > program.main.size()) return "main: no action " + std::to_string(pc);
  return "main action " + std::to_string(pc) + ": " +
         describe(program.main[pc], ProgramNames(program, comms), in_call);
}

std::string describe_main(const Action& action, const ActionNames& names, bool in_call) {
  return "main: " + describe(action, names, in_call);
}

}  // namespace ordo::dag
