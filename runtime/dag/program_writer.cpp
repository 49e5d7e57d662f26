#include "runtime/dag/program_writer.hpp"

#include <cassert>
#include <stdexcept>

namespace ordo::dag {

dag::VarId ProgramWriter::add_var(const dag::Var& var) {
  program_.vars.push_back(var);
  return static_cast<dag::VarId>(program_.vars.size() - 1);
}

const dag::Var& ProgramWriter::var(dag::VarId id) const { return program_.vars.at(id); }

void ProgramWriter::submit(const dag::Op& op) {
  program_.ops.push_back(op);
  const auto id = static_cast<dag::OpId>(program_.ops.size() - 1);
  program_.main.emplace_back(dag::SubmitAction{id});
}

void ProgramWriter::wait_to_read(dag::VarId var) {
  assert(var < program_.vars.size());
  program_.main.emplace_back(dag::WaitToReadAction{var});
}

void ProgramWriter::wait_for_all() { program_.main.emplace_back(dag::WaitForAllAction{}); }

void ProgramWriter::collective(const dag::CollectiveAction& action) {
  program_.main.emplace_back(action);
}

}  // namespace ordo::dag
