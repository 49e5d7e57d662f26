#include "runtime/dag/program_writer.hpp"

#include <cassert>
#include <stdexcept>
#include <string>

#include "runtime/dag/limits.hpp"

namespace ordo::dag {

namespace {

// A program over the dump format's limits could be neither dumped nor verified; the builder
// stops at the limit instead of allocating what a huge network asks for.
void check_room(std::size_t count, std::uint64_t max, const char* what) {
  if (count < max) return;
  throw std::invalid_argument("the program would have more than " + std::to_string(max) + " " +
                              what + " (the dump format's limit); expected a smaller network or " +
                              "fewer steps");
}

}  // namespace

dag::VarId ProgramWriter::add_var(const dag::Var& var) {
  check_room(program_.vars.size(), limits::vars_max, "vars");
  program_.vars.push_back(var);
  return static_cast<dag::VarId>(program_.vars.size() - 1);
}

const dag::Var& ProgramWriter::var(dag::VarId id) const { return program_.vars.at(id); }

void ProgramWriter::submit(const dag::Op& op) {
  check_room(program_.ops.size(), limits::ops_max, "ops");
  check_room(program_.main.size(), limits::actions_max, "main-thread actions");
  program_.ops.push_back(op);
  const auto id = static_cast<dag::OpId>(program_.ops.size() - 1);
  program_.main.emplace_back(dag::SubmitAction{id});
}

void ProgramWriter::wait_to_read(dag::VarId var) {
  assert(var < program_.vars.size());
  check_room(program_.main.size(), limits::actions_max, "main-thread actions");
  program_.main.emplace_back(dag::WaitToReadAction{var});
}

void ProgramWriter::wait_for_all() {
  check_room(program_.main.size(), limits::actions_max, "main-thread actions");
  program_.main.emplace_back(dag::WaitForAllAction{});
}

void ProgramWriter::collective(const dag::CollectiveAction& action) {
  check_room(program_.main.size(), limits::actions_max, "main-thread actions");
  program_.main.emplace_back(action);
}

}  // namespace ordo::dag
