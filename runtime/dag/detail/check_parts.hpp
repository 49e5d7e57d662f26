// The checks behind validate(), one file per level: the job (ranks, communicators, which program
// runs where), a program's tables, its main thread, and collective specs. Shared facts about the
// job are computed once and passed down.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/dag/detail/findings.hpp"
#include "runtime/dag/program.hpp"

namespace ordo::dag::detail {

struct CommFacts {
  std::optional<std::uint64_t> size;  // when known: its member count, or the job's rank count
  std::optional<std::vector<Rank>> members_sorted;  // explicit member lists only
};

struct JobFacts {
  const Job* job = nullptr;
  std::optional<std::uint32_t> ranks;  // the job's rank count, when it is a valid one
  std::vector<CommFacts> comms;
};

// A program under check, with what the collective checks need to know about it.
class ProgramScope {
 public:
  ProgramScope(const JobFacts& facts, std::size_t program_index);

  const JobFacts& job() const { return *facts_; }
  const Program& program() const { return *program_; }
  const std::string& pointer() const { return pointer_; }

  // Why communicator `comm` (a valid index) cannot serve this program's collectives: a rank
  // running the program is not a member. Computed once per communicator.
  const std::optional<std::string>& membership_problem(CommId comm);

 private:
  const JobFacts* facts_;
  const Program* program_;
  std::string pointer_;
  std::optional<std::vector<Rank>> ranks_;  // the valid ranks running it, when known
  std::vector<std::optional<std::string>> membership_;
  std::vector<bool> membership_known_;
};

// check_job.cpp
JobFacts job_facts(const Job& job);
void check_job(const Job& job, Findings& findings);

// check_program.cpp
void check_program(ProgramScope& scope, Findings& findings);

// check_main.cpp
void check_main(ProgramScope& scope, Findings& findings);

// check_collective.cpp: `buffer` is the var the collective fills, when there is exactly one.
void check_collective(const Collective& collective, const std::string& where, const Var* buffer,
                      ProgramScope& scope, Findings& findings);

}  // namespace ordo::dag::detail
