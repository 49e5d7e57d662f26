// What a KVStore design does on the main thread, said once for two listeners: the program writer
// (which only appends to a dag::Program, for the checker and the dumps) and the runtime executor
// (which also pushes to a live engine and calls the communicators). Designs are written against
// this interface only, so the runtime runs exactly the program the checker verifies.
#pragma once

#include "runtime/dag/program.hpp"

namespace ordo::kvstore {

class MainThread {
 public:
  virtual ~MainThread() = default;
  virtual dag::VarId add_var(const dag::Var& var) = 0;
  virtual const dag::Var& var(dag::VarId id) const = 0;
  virtual void push(const dag::Op& op) = 0;
  virtual void wait_to_read(dag::VarId var) = 0;
  virtual void wait_for_all() = 0;
  virtual void collective(const dag::CollectiveAction& action) = 0;
};

}  // namespace ordo::kvstore
