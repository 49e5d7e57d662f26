// Where a program's main thread goes, action by action: the four dag::Actions plus the vars they
// name. A KVStore design is written against this interface only and has two listeners: the
// program writer (which only appends to a dag::Program, for the checker and the dumps) and the
// runtime's executor (which also submits to a live engine and calls the communicators), so the
// runtime runs exactly the program the checker verifies. It lives with the IR because it is the
// IR as a stream: every layer above may speak it, none below needs to.
#pragma once

#include "runtime/dag/program.hpp"

namespace ordo::dag {

class ProgramSink {
 public:
  virtual ~ProgramSink() = default;
  virtual VarId add_var(const Var& var) = 0;
  virtual const Var& var(VarId id) const = 0;
  virtual void submit(const Op& op) = 0;
  virtual void wait_to_read(VarId var) = 0;
  virtual void wait_for_all() = 0;
  virtual void collective(const CollectiveAction& action) = 0;
};

}  // namespace ordo::dag
