// The distinct programs of a job's ranks, each with its happens-before graph built once: an SPMD
// job has one whatever its rank count, and ranks whose programs are equal in everything but name
// and rank list share one too, since the symbolic arguments only need "the same program".
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "checker/symbolic/hb.hpp"
#include "checker/system/system.hpp"

namespace ordo::checker::symbolic {

class Programs {
 public:
  explicit Programs(const System& model);

  std::uint32_t size() const { return static_cast<std::uint32_t>(programs_.size()); }
  const dag::Program& program(std::uint32_t p) const { return *programs_.at(p); }
  const HappensBefore& hb(std::uint32_t p) const { return *graphs_.at(p); }
  std::uint32_t of_rank(dag::Rank rank) const { return of_rank_.at(rank); }
  // By rank, for guided runs.
  const std::vector<const HappensBefore*>& hb_of_rank() const { return hb_of_rank_; }
  // The ranks that run program p, in rank order.
  std::vector<dag::Rank> ranks_of(std::uint32_t p) const;

 private:
  std::vector<const dag::Program*> programs_;
  std::vector<std::unique_ptr<HappensBefore>> graphs_;
  std::vector<std::uint32_t> of_rank_;
  std::vector<const HappensBefore*> hb_of_rank_;
};

}  // namespace ordo::checker::symbolic
