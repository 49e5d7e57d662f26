// Job-level rules: the rank count, communicators, and which program each rank runs.
#include <algorithm>
#include <cassert>
#include <limits>
#include <unordered_map>

#include "runtime/dag/detail/check_parts.hpp"
#include "runtime/dag/limits.hpp"
#include "runtime/json/pointer.hpp"
#include "runtime/json/quote.hpp"

namespace ordo::dag::detail {
namespace {

constexpr std::uint32_t no_program = std::numeric_limits<std::uint32_t>::max();

// The rank count, when it is one that the other rules can rely on.
std::optional<std::uint32_t> usable_rank_count(const Job& job) {
  if (job.ranks.has_value() && *job.ranks >= 1 && *job.ranks <= limits::ranks_max) {
    return job.ranks;
  }
  return std::nullopt;
}

std::string rank_range(std::uint32_t ranks) {
  return "a rank from 0 to " + std::to_string(ranks - 1) + " (the job has " +
         std::to_string(ranks) + " ranks)";
}

void check_rank_count(const Job& job, Findings& findings) {
  if (job.ranks.has_value() && !usable_rank_count(job).has_value()) {
    findings.push_back({"/ranks", "job has " + std::to_string(*job.ranks) + " ranks",
                        "from 1 to " + std::to_string(limits::ranks_max) + " ranks"});
  }
}

void check_members(const Job& job, std::size_t index, Findings& findings) {
  const Communicator& comm = job.comms[index];
  if (!comm.members.has_value()) {
    return;
  }
  const std::string where = json::pointer_child(json::pointer_child("/comms", index), "members");
  const std::vector<Rank>& members = *comm.members;
  if (members.empty()) {
    findings.push_back({where, "communicator " + json::quote(comm.name) + " has no members",
                        "at least one member rank"});
  }
  check_table_size(members.size(), limits::ranks_max, where, "members", findings);
  const std::optional<std::uint32_t> ranks = usable_rank_count(job);
  std::unordered_map<Rank, std::size_t> first_position;
  for (std::size_t i = 0; i < members.size(); ++i) {
    const std::string member_where = json::pointer_child(where, i);
    if (ranks.has_value() && members[i] >= *ranks) {
      findings.push_back({member_where, "rank " + std::to_string(members[i]) + " is out of range",
                          rank_range(*ranks)});
      continue;
    }
    const auto [first, inserted] = first_position.emplace(members[i], i);
    if (!inserted) {
      findings.push_back({member_where,
                          "rank " + std::to_string(members[i]) + " is listed twice (first at " +
                              json::pointer_child(where, first->second) + ")",
                          "each member once"});
    }
  }
}

// Without a rank count the job must mean the same at every size: one SPMD program and
// communicators that span every rank.
void check_rankless(const Job& job, Findings& findings) {
  assert(!job.ranks.has_value());
  if (job.programs.size() > 1) {
    findings.push_back(
        {"/ranks", "job has no rank count but " + std::to_string(job.programs.size()) + " programs",
         "a 'ranks' count, or a single program that runs on all ranks"});
  }
  for (std::size_t i = 0; i < job.programs.size(); ++i) {
    if (job.programs[i].ranks.has_value()) {
      findings.push_back({json::pointer_child(json::pointer_child("/programs", i), "ranks"),
                          "program " + json::quote(job.programs[i].name) +
                              " lists ranks but the job has no rank count",
                          "\"all\", or a 'ranks' count for the job"});
    }
  }
  for (std::size_t i = 0; i < job.comms.size(); ++i) {
    if (job.comms[i].members.has_value()) {
      findings.push_back({json::pointer_child(json::pointer_child("/comms", i), "members"),
                          "communicator " + json::quote(job.comms[i].name) +
                              " lists members but the job has no rank count",
                          "no member list (all ranks), or a 'ranks' count for the job"});
    }
  }
}

struct RankOwner {
  std::uint32_t program = no_program;
  std::uint32_t position = 0;
};

void check_program_ranks(const Job& job, std::size_t index, std::uint32_t ranks,
                         std::vector<RankOwner>& owners, Findings& findings) {
  const Program& program = job.programs[index];
  const std::string where = json::pointer_child(json::pointer_child("/programs", index), "ranks");
  if (!program.ranks.has_value()) {
    if (job.programs.size() > 1) {
      findings.push_back({where,
                          "program " + json::quote(program.name) +
                              " runs on all ranks but is not the only program",
                          "the list of ranks that run it"});
    }
    return;
  }
  const std::vector<Rank>& list = *program.ranks;
  if (list.empty()) {
    findings.push_back(
        {where, "program " + json::quote(program.name) + " runs on no rank", "at least one rank"});
  }
  check_table_size(list.size(), limits::ranks_max, where, "ranks", findings);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string rank_where = json::pointer_child(where, i);
    if (list[i] >= ranks) {
      findings.push_back(
          {rank_where, "rank " + std::to_string(list[i]) + " is out of range", rank_range(ranks)});
      continue;
    }
    RankOwner& owner = owners[list[i]];
    if (owner.program != no_program) {
      const std::string first = json::pointer_child(
          json::pointer_child(json::pointer_child("/programs", owner.program), "ranks"),
          owner.position);
      const std::string problem = owner.program == index
                                      ? " is listed twice (first at " + first + ")"
                                      : " is also run by program " +
                                            json::quote(job.programs[owner.program].name) +
                                            " (at " + first + ")";
      findings.push_back({rank_where, "rank " + std::to_string(list[i]) + problem,
                          "every rank run by exactly one program"});
      continue;
    }
    owner = RankOwner{static_cast<std::uint32_t>(index), static_cast<std::uint32_t>(i)};
  }
}

void check_coverage(const Job& job, std::uint32_t ranks, Findings& findings) {
  std::vector<RankOwner> owners(ranks);
  bool all_listed = true;
  for (std::size_t i = 0; i < job.programs.size(); ++i) {
    check_program_ranks(job, i, ranks, owners, findings);
    all_listed = all_listed && job.programs[i].ranks.has_value();
  }
  if (!all_listed || job.programs.empty()) {
    return;  // an SPMD program covers every rank; the lack of programs is reported apart
  }
  const auto unowned = [](const RankOwner& owner) { return owner.program == no_program; };
  const auto first = std::find_if(owners.begin(), owners.end(), unowned);
  if (first == owners.end()) {
    return;
  }
  const auto others = std::count_if(first + 1, owners.end(), unowned);
  findings.push_back(
      {"/programs",
       "rank " + std::to_string(first - owners.begin()) + " is run by no program" +
           (others > 0 ? " (nor are " + std::to_string(others) + " other ranks)" : ""),
       "every rank from 0 to " + std::to_string(ranks - 1) + " run by exactly one program"});
}

}  // namespace

JobFacts job_facts(const Job& job) {
  JobFacts facts;
  facts.job = &job;
  facts.ranks = usable_rank_count(job);
  facts.comms.resize(job.comms.size());
  const std::optional<std::uint32_t> ranks = facts.ranks;
  for (std::size_t i = 0; i < job.comms.size(); ++i) {
    const Communicator& comm = job.comms[i];
    CommFacts& comm_facts = facts.comms[i];
    if (comm.members.has_value()) {
      comm_facts.size = comm.members->size();
      comm_facts.members_sorted = *comm.members;
      std::sort(comm_facts.members_sorted->begin(), comm_facts.members_sorted->end());
    } else if (ranks.has_value()) {
      comm_facts.size = *ranks;
    }
  }
  return facts;
}

void check_job(const Job& job, Findings& findings) {
  check_rank_count(job, findings);
  if (job.programs.empty()) {
    findings.push_back({"/programs", "job has no programs", "at least one program"});
  }
  const std::string comms_where = "/comms";
  const std::string programs_where = "/programs";
  check_table_size(job.comms.size(), limits::comms_max, comms_where, "communicators", findings);
  check_table_size(job.programs.size(), limits::programs_max, programs_where, "programs", findings);
  check_entry_names(job.comms, "/comms", "communicator", findings);
  check_entry_names(job.programs, "/programs", "program", findings);
  for (std::size_t i = 0; i < job.comms.size(); ++i) {
    check_members(job, i, findings);
  }
  if (!job.ranks.has_value()) {
    check_rankless(job, findings);
  } else if (const std::optional<std::uint32_t> ranks = usable_rank_count(job)) {
    check_coverage(job, *ranks, findings);
  }
}

}  // namespace ordo::dag::detail
