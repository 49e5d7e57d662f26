#include "checker/system/system.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "runtime/comm/rules/buffer_touch.hpp"
#include "runtime/comm/rules/call.hpp"
#include "runtime/dag/dump_error.hpp"
#include "runtime/dag/limits.hpp"
#include "runtime/dag/validate.hpp"

namespace ordo::checker {

namespace {

// A job without a fixed rank count has only full communicators (the dump format's rule), so a
// rooted call's root r needs at least r + 1 ranks, and a call that splits into blocks (a
// reduce_scatter, allgather, gather, scatter or alltoall) of count c needs a rank count that
// divides c; nothing else in it depends on the count. The counts that
// divide every such c are the divisors of their greatest common divisor (0: no such call).
struct ValidCounts {
  std::uint32_t at_least = 1;
  std::uint64_t divides = 0;
};

ValidCounts valid_counts(const dag::Job& job) {
  ValidCounts v;
  const auto need = [&](const dag::Collective& c) {
    if (c.root) v.at_least = std::max<std::uint32_t>(v.at_least, *c.root + 1);
    // A count of 0 splits at any size; std::gcd(0, c) is c, so it adds no constraint.
    if (dag::splits_into_blocks(c.kind)) v.divides = std::gcd(v.divides, c.count);
    // A send's or recv's peer p is a rank of the communicator only from p + 1 ranks on.
    if (c.peer && *c.peer != dag::any_source) {
      v.at_least = std::max<std::uint32_t>(v.at_least, *c.peer + 1);
    }
  };
  for (const dag::Program& p : job.programs) {
    for (const dag::Op& op : p.ops) {
      if (op.collective) need(*op.collective);
    }
    for (const dag::Action& a : p.main) {
      if (const auto* c = std::get_if<dag::CollectiveAction>(&a)) need(c->collective);
    }
  }
  return v;
}

// The smallest valid count, or 0 when none is (a root above every divisor); at most
// dag::limits::ranks_max steps, since no job runs on more ranks.
std::uint32_t smallest_valid_count(const ValidCounts& v) {
  if (v.divides == 0) return v.at_least;
  const std::uint64_t last = std::min<std::uint64_t>(v.divides, dag::limits::ranks_max);
  for (std::uint64_t n = v.at_least; n <= last; ++n) {
    if (v.divides % n == 0) return static_cast<std::uint32_t>(n);
  }
  return 0;
}

// A call the backend cannot make (NCCL has no gather, scatter, alltoall, scan or exscan) is bad
// input for a check under that backend, as it is for the runtime.
void refuse_unsupported_kinds(const dag::Job& job, comm::Backend backend) {
  for (std::size_t p = 0; p < job.programs.size(); ++p) {
    const dag::Program& program = job.programs[p];
    const std::string at = "/programs/" + std::to_string(p);
    const auto check = [&](const dag::Collective& c, const std::string& where) {
      const std::string why = comm::unsupported_reason(backend, c.kind);
      if (!why.empty()) {
        throw dag::DumpError(
            where + "/collective/kind", why,
            "a collective kind the " + std::string(comm::to_string(backend)) + " backend has");
      }
    };
    for (std::size_t o = 0; o < program.ops.size(); ++o) {
      if (program.ops[o].collective)
        check(*program.ops[o].collective, at + "/ops/" + std::to_string(o));
    }
    for (std::size_t a = 0; a < program.main.size(); ++a) {
      if (const auto* c = std::get_if<dag::CollectiveAction>(&program.main[a])) {
        check(c->collective, at + "/main/" + std::to_string(a));
      }
    }
  }
}

}  // namespace

System::System(dag::Job job, std::uint32_t ranks, comm::Backend backend)
    : job_(comm::launch_view(std::move(job), backend)), ranks_(ranks), backend_(backend) {
  dag::validate_or_throw(job_);
  refuse_unsupported_kinds(job_, backend_);
  if (ranks_ == 0) throw std::invalid_argument("a job needs at least one rank");
  if (job_.ranks && *job_.ranks != ranks_) {
    throw std::invalid_argument("the job is for " + std::to_string(*job_.ranks) + " ranks, not " +
                                std::to_string(ranks_));
  }
  if (job_.ranks) {
    valid_from_ = *job_.ranks;
  } else {
    const ValidCounts counts = valid_counts(job_);
    valid_from_ = smallest_valid_count(counts);
    valid_divides_ = counts.divides;
  }
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
          expected + (valid_from_ == 0 ? "; no rank count makes the job valid"
                                       : ", or a rank count" + valid_counts_words(*this)));
    }
  }
  const std::vector<const dag::Program*> by_rank = dag::programs_by_rank(job_, ranks_);
  for (dag::Rank r = 0; r < ranks_; ++r) {
    const dag::Program* p = by_rank[r];
    if (p == nullptr) throw std::invalid_argument("no program covers rank " + std::to_string(r));
    programs_.push_back(p);
    if (r > 0 && programs_[r - 1] == p) {
      descs_.push_back(descs_.back());
      may_race_.push_back(may_race_.back());
      continue;
    }
    may_race_.push_back(comm::may_race(*p));
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
  // A send or recv names its peer by rank, so renaming ranks changes where its message goes.
  interchangeable_ = !dag::has_point_to_point(job_);
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

std::uint64_t System::table_bytes_at_least(const dag::Job& job, std::uint32_t ranks) {
  std::uint64_t bytes =
      std::uint64_t{ranks} * (sizeof(const dag::Program*) + sizeof(std::shared_ptr<const Descs>));
  for (const dag::Communicator& c : job.comms) {
    const std::uint64_t members = c.members ? c.members->size() : ranks;
    bytes += members * sizeof(dag::Rank) + std::uint64_t{ranks} * sizeof(std::int64_t);
  }
  return bytes;
}

std::string valid_counts_words(const System& model) {
  std::string words;
  if (model.valid_from() > 1) words += " from " + std::to_string(model.valid_from());
  if (model.valid_divides() > 0) {
    words += " that divides " + std::to_string(model.valid_divides());
  }
  return words;
}

std::string describe(const System& model, const dag::Collective& collective) {
  return comm::describe(comm::call_of(collective), model.job().comms.at(collective.comm).name);
}

std::int64_t System::member_of(dag::CommId comm, dag::Rank rank) const {
  return member_index_.at(comm).at(rank);
}

}  // namespace ordo::checker
