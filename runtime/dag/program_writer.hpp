// The ProgramSink that only writes the program down: what the step builder and the checker's
// front ends use to obtain the exact program a design would run.
#pragma once

#include "runtime/dag/program.hpp"
#include "runtime/dag/program_sink.hpp"

namespace ordo::dag {

class ProgramWriter final : public ProgramSink {
 public:
  explicit ProgramWriter(dag::Program& program) : program_(program) {}

  dag::VarId add_var(const dag::Var& var) override;
  const dag::Var& var(dag::VarId id) const override;
  void submit(const dag::Op& op) override;
  void wait_to_read(dag::VarId var) override;
  void wait_for_all() override;
  void collective(const dag::CollectiveAction& action) override;

 private:
  dag::Program& program_;
};

}  // namespace ordo::dag
