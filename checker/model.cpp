#include "checker/model.hpp"

#include <stdexcept>
#include <string>

#include "runtime/dag/validate.hpp"

namespace ordo::checker {

Model::Model(dag::Job job, std::uint32_t ranks) : job_(std::move(job)), ranks_(ranks) {
  dag::validate_or_throw(job_);
  if (ranks_ == 0) throw std::invalid_argument("a job needs at least one rank");
  if (job_.ranks && *job_.ranks != ranks_) {
    throw std::invalid_argument("the job is for " + std::to_string(*job_.ranks) + " ranks, not " +
                                std::to_string(ranks_));
  }
  for (dag::Rank r = 0; r < ranks_; ++r) {
    const dag::Program* p = dag::program_of(job_, r);
    if (p == nullptr) throw std::invalid_argument("no program covers rank " + std::to_string(r));
    programs_.push_back(p);
  }
  for (const dag::Communicator& c : job_.comms) {
    std::vector<dag::Rank> m;
    if (c.members) {
      m = *c.members;
    } else {
      for (dag::Rank r = 0; r < ranks_; ++r) m.push_back(r);
    }
    for (dag::Rank r : m) {
      if (r >= ranks_) {
        throw std::invalid_argument("communicator '" + c.name + "' names rank " +
                                    std::to_string(r) + " of a " + std::to_string(ranks_) +
                                    "-rank job");
      }
    }
    std::vector<std::int64_t> index(ranks_, -1);
    for (std::size_t i = 0; i < m.size(); ++i) index[m[i]] = static_cast<std::int64_t>(i);
    members_.push_back(std::move(m));
    member_index_.push_back(std::move(index));
  }
  interchangeable_ = true;
  for (dag::Rank r = 0; r < ranks_; ++r) {
    if (programs_[r] != programs_[0]) interchangeable_ = false;
  }
  for (const std::vector<dag::Rank>& m : members_) {
    if (m.size() != ranks_) interchangeable_ = false;
    for (std::size_t i = 0; i < m.size() && interchangeable_; ++i) {
      if (m[i] != i) interchangeable_ = false;
    }
  }
}

std::int64_t Model::member_of(dag::CommId comm, dag::Rank rank) const {
  return member_index_.at(comm).at(rank);
}

}  // namespace ordo::checker
