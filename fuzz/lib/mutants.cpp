#include "fuzz/lib/mutants.hpp"

#include <algorithm>
#include <functional>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include "checker/system/system.hpp"
#include "runtime/dag/validate.hpp"
#include "runtime/errors/input_error.hpp"
#include "runtime/random/split_mix64.hpp"

namespace ordo::fuzz {

namespace {

// One change, not yet applied: `apply` makes the mutant from the user's job.
struct Candidate {
  std::string kind;    // the name's suffix: "swap-submits"
  std::string change;  // in words
  std::function<void(FuzzCase&)> apply;
};

using Candidates = std::vector<Candidate>;

std::string quoted(const std::string& name) { return "'" + name + "'"; }

// " of program 'p'" where the job has several programs, so that the words name the one changed.
std::string in_program(const dag::Job& job, std::size_t p) {
  return job.programs.size() > 1 ? " of program " + quoted(job.programs[p].name) : "";
}

Candidates swapped_submits(const dag::Job& job) {
  Candidates out;
  for (std::size_t p = 0; p < job.programs.size(); ++p) {
    const dag::Program& program = job.programs[p];
    for (std::size_t i = 0; i + 1 < program.main.size(); ++i) {
      const auto* a = std::get_if<dag::SubmitAction>(&program.main[i]);
      const auto* b = std::get_if<dag::SubmitAction>(&program.main[i + 1]);
      if (a == nullptr || b == nullptr) continue;
      out.push_back({"swap-submits",
                     "the main thread" + in_program(job, p) + " submits " +
                         quoted(program.ops.at(b->op).name) + " before " +
                         quoted(program.ops.at(a->op).name) + " (main actions " +
                         std::to_string(i) + " and " + std::to_string(i + 1) + " swapped)",
                     [p, i](FuzzCase& c) {
                       auto& main = c.job.programs[p].main;
                       std::swap(main[i], main[i + 1]);
                     }});
    }
  }
  return out;
}

Candidates dropped_vars(const dag::Job& job) {
  Candidates out;
  for (std::size_t p = 0; p < job.programs.size(); ++p) {
    const dag::Program& program = job.programs[p];
    for (std::size_t o = 0; o < program.ops.size(); ++o) {
      const dag::Op& op = program.ops[o];
      for (const bool reads : {true, false}) {
        const std::vector<dag::VarId>& vars = reads ? op.reads : op.writes;
        for (std::size_t v = 0; v < vars.size(); ++v) {
          out.push_back({reads ? "drop-read" : "drop-write",
                         "op " + quoted(op.name) + in_program(job, p) + " no longer " +
                             (reads ? "reads " : "writes ") +
                             quoted(program.vars.at(vars[v]).name) + " (a missing dependency)",
                         [p, o, reads, v](FuzzCase& c) {
                           dag::Op& changed = c.job.programs[p].ops[o];
                           std::vector<dag::VarId>& list = reads ? changed.reads : changed.writes;
                           list.erase(list.begin() + static_cast<std::ptrdiff_t>(v));
                         }});
        }
      }
    }
  }
  return out;
}

std::string fresh_token_name(const dag::Program& program) {
  const auto taken = [&program](const std::string& name) {
    return std::any_of(program.vars.begin(), program.vars.end(),
                       [&name](const dag::Var& v) { return v.name == name; });
  };
  std::string name = "fuzz.token";
  for (int n = 2; taken(name); ++n) name = "fuzz.token." + std::to_string(n);
  return name;
}

// Pairs of ops grow with the square of the program: `wanted` of them drawn at random, not all.
Candidates shared_tokens(const dag::Job& job, random::SplitMix64& rng, std::size_t wanted) {
  Candidates out;
  std::vector<std::pair<std::size_t, std::size_t>> programs_ops;
  for (std::size_t p = 0; p < job.programs.size(); ++p) {
    if (job.programs[p].ops.size() >= 2) programs_ops.emplace_back(p, job.programs[p].ops.size());
  }
  if (programs_ops.empty()) return out;
  std::set<std::tuple<std::size_t, std::size_t, std::size_t>> seen;
  for (std::size_t tries = 0; out.size() < wanted && tries < 8 * wanted; ++tries) {
    // Named copies, not a structured binding, which a lambda below could not capture.
    const std::pair<std::size_t, std::size_t> chosen = programs_ops[rng.below(programs_ops.size())];
    const std::size_t p = chosen.first;
    const std::size_t ops = chosen.second;
    std::size_t a = rng.below(ops);
    std::size_t b = rng.below(ops - 1);
    if (b >= a) ++b;
    if (a > b) std::swap(a, b);
    if (!seen.insert({p, a, b}).second) continue;
    const dag::Program& program = job.programs[p];
    const std::string token = fresh_token_name(program);
    out.push_back(
        {"shared-token",
         "ops " + quoted(program.ops[a].name) + " and " + quoted(program.ops[b].name) +
             in_program(job, p) + " both write a new token " + quoted(token) +
             " (an extra dependency)",
         [p, a, b, token](FuzzCase& c) {
           dag::Program& changed = c.job.programs[p];
           const auto id = static_cast<dag::VarId>(changed.vars.size());
           changed.vars.push_back(dag::Var{token, dag::VarKind::token, 0, dag::DType::f32});
           changed.ops[a].writes.push_back(id);
           changed.ops[b].writes.push_back(id);
         }});
  }
  return out;
}

Candidates pool_threads(const dag::Job& job) {
  Candidates out;
  for (std::size_t p = 0; p < job.programs.size(); ++p) {
    const dag::Program& program = job.programs[p];
    for (std::size_t q = 0; q < program.pools.size(); ++q) {
      for (std::uint32_t threads = 1; threads <= 4; ++threads) {
        if (threads == program.pools[q].threads) continue;
        out.push_back(
            {"pool-threads",
             "pool " + quoted(program.pools[q].name) + in_program(job, p) + " has " +
                 std::to_string(threads) + " thread" + (threads == 1 ? "" : "s") + ", not " +
                 std::to_string(program.pools[q].threads),
             [p, q, threads](FuzzCase& c) { c.job.programs[p].pools[q].threads = threads; }});
      }
    }
  }
  return out;
}

Candidates rank_counts(const dag::Job& job, std::uint32_t ranks) {
  Candidates out;
  if (job.ranks) return out;  // the job is written for its count
  for (std::uint32_t r = 2; r <= 4; ++r) {
    if (r == ranks) continue;
    out.push_back({"ranks",
                   "the job runs at " + std::to_string(r) + " ranks, not " + std::to_string(ranks),
                   [r](FuzzCase& c) { c.ranks = r; }});
  }
  return out;
}

void shuffle(Candidates& candidates, random::SplitMix64& rng) {
  for (std::size_t i = candidates.size(); i > 1; --i) {
    std::swap(candidates[i - 1], candidates[rng.below(i)]);
  }
}

bool valid(const FuzzCase& c, comm::Backend backend) {
  if (!dag::validate(c.job).empty()) return false;
  try {
    // The rank-dependent rules (a root that is a rank of its communicator, a count that splits)
    // hold at the mutant's rank count only if its model can be built there.
    const checker::System model(c.job, c.ranks, backend);
  } catch (const errors::InputError&) {
    return false;
  } catch (const std::invalid_argument&) {
    return false;
  }
  return true;
}

std::string two_digits(std::size_t n) {
  const std::string s = std::to_string(n);
  return s.size() < 2 ? "0" + s : s;
}

}  // namespace

Mutants mutants_of(const dag::Job& job, std::uint32_t ranks, comm::Backend backend,
                   std::uint64_t seed, std::uint32_t count) {
  random::SplitMix64 rng(seed);
  std::vector<Candidates> kinds;
  kinds.push_back(swapped_submits(job));
  kinds.push_back(dropped_vars(job));
  kinds.push_back(shared_tokens(job, rng, 4 * static_cast<std::size_t>(count)));
  kinds.push_back(pool_threads(job));
  kinds.push_back(rank_counts(job, ranks));
  for (Candidates& candidates : kinds) shuffle(candidates, rng);
  // Each kind takes its turn; an invalid candidate passes the turn to the next candidate of the
  // same kind, an exhausted kind drops out. Candidates are taken from the back of the shuffle.
  // A job whose candidates are nearly all invalid is not searched for ever: each costs a model.
  const std::uint64_t tries_max = 64 * static_cast<std::uint64_t>(count) + 64;
  Mutants out;
  std::size_t k = 0;
  for (std::uint64_t tries = 0; out.cases.size() < count && !kinds.empty() && tries < tries_max;
       ++tries) {
    k %= kinds.size();
    Candidates& candidates = kinds[k];
    if (candidates.empty()) {
      kinds.erase(kinds.begin() + static_cast<std::ptrdiff_t>(k));
      continue;
    }
    Candidate candidate = std::move(candidates.back());
    candidates.pop_back();
    FuzzCase mutant{"", candidate.change, job, ranks};
    candidate.apply(mutant);
    if (!valid(mutant, backend)) {
      ++out.invalid;
      continue;
    }
    mutant.name = "mutant-" + two_digits(out.cases.size() + 1) + "-" + candidate.kind;
    out.cases.push_back(std::move(mutant));
    ++k;
  }
  return out;
}

}  // namespace ordo::fuzz
