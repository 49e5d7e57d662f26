// The IR's calls and main-thread actions in words, as every report writes them: the checker's
// witnesses and deadlocks, the runtime's controlled run and its simulated world. One renderer, so
// that a checker report and the runtime's account of the same schedule read alike.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/dag/program.hpp"

namespace ordo::dag {

// "allreduce of 1024 x f32 (sum) on 'grads', key 3"; a bcast or reduce adds "from root K".
std::string describe(const Collective& collective, std::string_view comm_name);

// What the ids an action names read as. A program and its job's communicators are the usual
// source (ProgramNames); a live run that keeps no program gives its own.
class ActionNames {
 public:
  virtual ~ActionNames() = default;
  virtual std::string op(OpId op) const = 0;
  virtual std::string var(VarId var) const = 0;
  virtual std::string comm(CommId comm) const = 0;
};

// The names of `program`'s ops and vars and of `comms`; an id past a table reads "op 3".
class ProgramNames final : public ActionNames {
 public:
  ProgramNames(const Program& program, const std::vector<Communicator>& comms)
      : program_(program), comms_(comms) {}
  std::string op(OpId op) const override;
  std::string var(VarId var) const override;
  std::string comm(CommId comm) const override;

 private:
  const Program& program_;
  const std::vector<Communicator>& comms_;
};

// "submit 'copy.a.w'", "wait to read 'buf.w'", "wait for all", "call allreduce of ... on
// 'world', key 1"; a collective the main thread is blocked in (`in_call`) reads "in allreduce ...".
std::string describe(const Action& action, const ActionNames& names, bool in_call = false);

// The main thread at position `pc` of `program`: "main action 3: submit 'copy.a.w'"; "main
// finished" at the end of its actions, "main: no action 7" past it.
std::string describe_main(const Program& program, const std::vector<Communicator>& comms,
                          std::uint32_t pc, bool in_call = false);
// The main thread at `action` where its position is not known (a live run keeps no program):
// "main: wait to read 'buf.w'".
std::string describe_main(const Action& action, const ActionNames& names, bool in_call = false);

}  // namespace ordo::dag
