// Records what the engine is asked to do as the program IR, so a run can be dumped and verified
// exactly as it was submitted. Ops are recorded in submit order, each with a SubmitAction in the
// main program; an op submitted from inside another op is recorded the same way, at its submit
// position, so the recorded main program is the linearisation this run produced (docs/engine.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/dag/program.hpp"
#include "runtime/engine/rules/op_desc.hpp"

namespace ordo::engine {

class Recorder {
 public:
  // Throw CapacityError when one more op, or one more main action, would exceed the IR's bounds.
  void check_room_for_submit(const std::string& op_name) const;
  void check_room_for_action(const char* action) const;

  void record_submit(const OpDesc& desc);
  void record_wait_to_read(VarHandle var);
  void record_wait_for_all();
  void record_main_collective(const dag::Collective& collective, std::optional<VarHandle> buffer);

  std::uint32_t ops() const { return static_cast<std::uint32_t>(ops_.size()); }
  // The recorded step as an SPMD program (ranks absent) over the engine's vars and pools.
  dag::Program program(std::string name, std::vector<dag::Var> vars,
                       std::vector<dag::Pool> pools) const;

 private:
  std::vector<dag::Op> ops_;
  std::vector<dag::Action> main_;
};

}  // namespace ordo::engine
