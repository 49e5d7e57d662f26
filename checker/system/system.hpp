// The fixed part of a verification problem: the job, the rank count, each rank's program and each
// communicator's members. States refer to it and never copy it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/comm/rules/backend.hpp"
#include "runtime/dag/program.hpp"
#include "runtime/engine/rules/op_desc.hpp"

namespace ordo::checker {

class System {
 public:
  // Validates the job (dag::validate_or_throw), and again at `ranks` when the job leaves its rank
  // count open, so that every rank-dependent rule (a bcast root is a rank of its communicator)
  // holds at the count verified (V1); throws dag::DumpError naming the count otherwise. Resolves
  // every rank's program and every communicator's members. Throws std::invalid_argument when
  // `ranks` disagrees with job.ranks, is zero, or leaves a rank without a program. The job is
  // held as `backend` runs it (comm::launch_view): under NCCL its `collective` ops launch.
  System(dag::Job job, std::uint32_t ranks, comm::Backend backend = comm::Backend::mpi);

  // What the model's own tables take at `ranks`, at least: each communicator's members and its
  // index by world rank, a program and a description list per rank. With a million ranks and
  // many communicators this alone is gigabytes, so it is checked before a model is built.
  static std::uint64_t table_bytes_at_least(const dag::Job& job, std::uint32_t ranks);

  const dag::Job& job() const { return job_; }
  comm::Backend backend() const { return backend_; }
  std::uint32_t ranks() const { return ranks_; }
  const dag::Program& program(dag::Rank rank) const { return *programs_.at(rank); }
  // The engine's description of the rank's op `op`, made once: every branch that submits the op
  // points at it (engine::EngineState::submit_unowned), so the model must outlive its states.
  const std::shared_ptr<const engine::OpDesc>& desc(dag::Rank rank, dag::OpId op) const {
    return descs_.at(rank)->at(op);
  }
  // Whether a touch of the rank's program may race (comm::may_race, docs/semantics.md B3); where
  // not, the transitions skip the buffer rule.
  bool may_race(dag::Rank rank) const { return may_race_.at(rank); }
  // World ranks in communicator-rank order.
  const std::vector<dag::Rank>& members(dag::CommId comm) const { return members_.at(comm); }
  // The communicator rank of `rank`, or -1 when it is not a member.
  std::int64_t member_of(dag::CommId comm, dag::Rank rank) const;
  std::uint32_t comms() const { return static_cast<std::uint32_t>(members_.size()); }
  // Every rank runs the same program and every communicator spans every rank in rank order, so
  // renaming ranks maps executions to executions (the symmetry reduction's precondition).
  bool ranks_interchangeable() const { return interchangeable_; }
  // The smallest rank count at which the job is valid (docs/semantics.md, V1-V2): a job with a
  // fixed rank count is valid at that count only; one without is valid from the count at which
  // every bcast and reduce root is a rank of its communicator, among the counts that divide
  // valid_divides(). A claim "at every rank count" means every such count from here on.
  std::uint32_t valid_from() const { return valid_from_; }
  // For a job without a rank count whose calls that split into blocks split a nonzero
  // count, the greatest common divisor of those counts: the job is valid only at rank counts
  // that divide it. 0 when nothing constrains the count that way.
  std::uint64_t valid_divides() const { return valid_divides_; }

 private:
  dag::Job job_;
  std::uint32_t ranks_ = 0;
  comm::Backend backend_ = comm::Backend::mpi;
  std::vector<const dag::Program*> programs_;
  using Descs = std::vector<std::shared_ptr<const engine::OpDesc>>;
  std::vector<std::shared_ptr<const Descs>> descs_;  // per rank; ranks of one program share
  std::vector<bool> may_race_;                       // per rank
  std::vector<std::vector<dag::Rank>> members_;
  std::vector<std::vector<std::int64_t>> member_index_;  // per comm, per world rank
  bool interchangeable_ = false;
  std::uint32_t valid_from_ = 1;
  std::uint64_t valid_divides_ = 0;
};

// Which rank counts the job is valid at, as words that follow "every rank count" or "a rank
// count": " from 3 that divides 12", or "" when every count is.
std::string valid_counts_words(const System& model);

// "allreduce of 4 x f32 (sum) on 'grads', key 3": a collective of the job as reports spell it.
std::string describe(const System& model, const dag::Collective& collective);

}  // namespace ordo::checker
