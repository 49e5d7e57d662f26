#include "checker/system/model.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "runtime/comm/rules/call.hpp"
#include "runtime/dag/dump_error.hpp"
#include "runtime/dag/validate.hpp"

namespace ordo::checker {

namespace {

// A job without a fixed rank count has only full communicators (the dump format's rule), so a
// bcast root r needs at least r + 1 ranks; nothing else in it depends on the count.
std::uint32_t smallest_valid_count(const dag::Job& job) {
  std::uint32_t from = 1;
  const auto need = [&](const dag::Collective& c) {
    if (c.root) from = std::max<std::uint32_t>(from, *c.root + 1);
  };
  for (const dag::Program& p : job.programs) {
    for (const dag::Op& op : p.ops) {
      if (op.collective) need(*op.collective);
    }
    for (const dag::Action& a : p.main) {
      if (const auto* c = std::get_if<dag::CollectiveAction>(&a)) need(c->collective);
    }
  }
  return from;
}

}  // namespace

Model::Model(dag::Job job, std::uint32_t ranks) : job_(std::move(job)), ranks_(ranks) {
  dag::validate_or_throw(job_);
  if (ranks_ == 0) throw std::invalid_argument("a job needs at least one rank");
  if (job_.ranks && *job_.ranks != ranks_) {
    throw std::invalid_argument("the job is for " + std::to_string(*job_.ranks) + " ranks, not " +
                                std::to_string(ranks_));
  }
  valid_from_ = job_.ranks ? *job_.ranks : smallest_valid_count(job_);
  if (!job_.ranks) {
    dag::Job at = job_;
    at.ranks = ranks_;
    const std::vector<dag::Diagnostic> problems = dag::validate(at);
    if (!problems.empty()) {
      // The diagnostic reads "PROBLEM; expected EXPECTED": keep its expectation, and add where
      // the job becomes valid.
      const std::string& message = problems.front().message;
      const std::size_t split = message.find("; expected ");
      const std::string problem = split == std::string::npos ? message : message.substr(0, split);
      const std::string expected =
          split == std::string::npos ? "a valid job" : message.substr(split + 11);
      throw dag::DumpError(
          problems.front().where, "at " + std::to_string(ranks_) + " ranks, " + problem,
          expected + ", or a rank count of at least " + std::to_string(valid_from_));
    }
  }
  const std::vector<const dag::Program*> by_rank = dag::programs_by_rank(job_, ranks_);
  for (dag::Rank r = 0; r < ranks_; ++r) {
    const dag::Program* p = by_rank[r];
    if (p == nullptr) throw std::invalid_argument("no program covers rank " + std::to_string(r));
    programs_.push_back(p);
    if (r > 0 && programs_[r - 1] == p) {
      descs_.push_back(descs_.back());
      continue;
    }
    auto descs = std::make_shared<Descs>();
    for (const dag::Op& op : p->ops) {
      descs->push_back(std::make_shared<const engine::OpDesc>(
          engine::desc_of(op, [](dag::VarId v) { return engine::VarHandle{v}; })));
    }
    descs_.push_back(std::move(descs));
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

std::uint64_t Model::table_bytes_at_least(const dag::Job& job, std::uint32_t ranks) {
  std::uint64_t bytes =
      std::uint64_t{ranks} * (sizeof(const dag::Program*) + sizeof(std::shared_ptr<const Descs>));
  for (const dag::Communicator& c : job.comms) {
    const std::uint64_t members = c.members ? c.members->size() : ranks;
    bytes += members * sizeof(dag::Rank) + std::uint64_t{ranks} * sizeof(std::int64_t);
  }
  return bytes;
}

std::string describe(const Model& model, const dag::Collective& collective) {
  return comm::describe(comm::call_of(collective), model.job().comms.at(collective.comm).name);
}

std::int64_t Model::member_of(dag::CommId comm, dag::Rank rank) const {
  return member_index_.at(comm).at(rank);
}

}  // namespace ordo::checker
