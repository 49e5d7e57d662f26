#include "fuzz/lib/campaign.hpp"

#include <algorithm>
#include <chrono>
#include <memory>

#include "checker/search/memory.hpp"
#include "checker/verify/verify.hpp"
#include "checker/verify/verify_sarif.hpp"
#include "checker/witness/trace_io.hpp"
#include "fuzz/lib/case_files.hpp"
#include "fuzz/lib/mutants.hpp"
#include "runtime/bounds/seconds.hpp"

namespace ordo::fuzz {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point begin) {
  return std::chrono::duration<double>(Clock::now() - begin).count();
}

Clock::time_point after(Clock::time_point from, double seconds) {
  return bounds::deadline_after(from, seconds);
}

// The witness as `ordo verify --format sarif` places it, in the dump just written.
std::optional<report::SarifResult> placed_result(const checker::System& model,
                                                 const checker::Result& witness, const FuzzCase& c,
                                                 const CaseFiles& files) {
  checker::Verification v;
  v.result = witness;
  const checker::JobSource source{c.name, files.dump_path, files.dump_text};
  report::SarifRun run = checker::verify_sarif(model, v, source);
  if (run.results.empty()) return std::nullopt;
  return std::move(run.results.front());
}

std::string short_property(const CaseOutcome& o) {
  if (!o.witness || !o.witness->property) return "";
  return std::string(checker::short_name(*o.witness->property));
}

class Campaign {
 public:
  Campaign(const CampaignOptions& options, const CampaignHooks& hooks)
      : options_(options),
        hooks_(hooks),
        decide_(options.decide ? options.decide : Decider(checker::verify)),
        begin_(Clock::now()),
        deadline_(after(begin_, options.timeout)) {}

  CampaignSummary run(const dag::Job& job, const std::string& job_name) {
    summary_.job_name = job_name;
    summary_.backend = options_.backend;
    const std::uint32_t ranks = options_.ranks != 0 ? options_.ranks : job.ranks.value_or(2);
    summary_.ranks = ranks;
    FuzzCase user{"job", "", job, ranks};
    // Built before any work: a job that is not valid at the rank count is bad input.
    const auto model = std::make_unique<const checker::System>(job, ranks, options_.backend);

    Mutants mutants;
    if (options_.mutate && options_.cases > 0) {
      mutants =
          mutants_of(job, ranks, options_.backend, case_seed(options_.seed, 0), options_.cases);
    }
    summary_.mutants_invalid = mutants.invalid;
    progress_.cases_total = 1 + static_cast<std::uint32_t>(mutants.cases.size());

    // The user's job decides the outcome: its checker gets half of the time when mutants share
    // the rest, most of it when none do.
    CaseBudget budget = base_budget();
    budget.checker_seconds = options_.timeout * (mutants.cases.empty() ? 0.8 : 0.5);
    budget.schedules_until = deadline_;
    summary_.job = check(user, *model, budget, 1);
    summary_.outcome = job_outcome(summary_.job);
    // The line first: a front end answering from the records so far lists the job's case too.
    add_line(user, summary_.job);
    if (summary_.job.verdict == CaseVerdict::unsafe) {
      add_record(RecordKind::finding, user, *model, summary_.job);
    } else if (summary_.job.verdict == CaseVerdict::disagreement) {
      add_record(RecordKind::disagreement, user, *model, summary_.job);
    }

    for (std::size_t i = 0; i < mutants.cases.size(); ++i) {
      const double left = std::chrono::duration<double>(deadline_ - Clock::now()).count();
      if (left <= 0.0) {
        ++summary_.mutants_left_out;
        CaseLine line;
        line.name = mutants.cases[i].name;
        line.change = mutants.cases[i].change;
        line.checked = false;
        summary_.cases.push_back(std::move(line));
        continue;
      }
      check_mutant(mutants.cases[i], left / static_cast<double>(mutants.cases.size() - i), i + 2);
    }
    if (summary_.mutants_disagree > 0) summary_.outcome = CampaignOutcome::disagreement;
    if (!written_) summary_.outcome = CampaignOutcome::not_written;
    summary_.seconds = since(begin_);
    return std::move(summary_);
  }

  CampaignSummary run_generated(JobDrawer& drawer, std::uint32_t count, const std::string& name) {
    summary_.job_name = name;
    summary_.backend = options_.backend;
    summary_.generated = true;
    progress_.cases_total = count;
    for (std::uint32_t i = 0; i < count; ++i) {
      const double left = std::chrono::duration<double>(deadline_ - Clock::now()).count();
      if (left <= 0.0) {
        // One line for the rest: they are never drawn.
        summary_.generated_left_out = count - i;
        CaseLine line;
        line.name = "gen-" + std::to_string(i + 1) + " to gen-" + std::to_string(count);
        line.change = std::to_string(count - i) + " job(s) not drawn";
        line.checked = false;
        summary_.cases.push_back(std::move(line));
        break;
      }
      const FuzzCase c = drawer.next();
      const double share = left / static_cast<double>(count - i);
      const auto model = std::make_unique<const checker::System>(c.job, c.ranks, options_.backend);
      CaseBudget budget = base_budget();
      budget.checker_seconds = share / 2.0;
      budget.schedules_until = std::min(after(Clock::now(), share), deadline_);
      const CaseOutcome o = check(c, *model, budget, i + 1);
      add_line(c, o);
      switch (o.verdict) {
        case CaseVerdict::safe:
          ++summary_.generated_safe;
          break;
        case CaseVerdict::unknown:
          ++summary_.generated_unknown;
          break;
        case CaseVerdict::unsafe:
          ++summary_.generated_unsafe;
          add_record(RecordKind::finding, c, *model, o);
          break;
        case CaseVerdict::disagreement:
          ++summary_.generated_disagree;
          add_record(RecordKind::disagreement, c, *model, o);
          break;
      }
    }
    summary_.outcome = summary_.generated_disagree > 0 ? CampaignOutcome::disagreement
                       : summary_.generated_unsafe > 0 ? CampaignOutcome::unsafe
                       : summary_.generated_unknown + summary_.generated_left_out > 0
                           ? CampaignOutcome::unknown
                           : CampaignOutcome::clean;
    if (!written_) summary_.outcome = CampaignOutcome::not_written;
    summary_.seconds = since(begin_);
    return std::move(summary_);
  }

 private:
  CaseBudget base_budget() const {
    CaseBudget budget;
    budget.states_max = options_.states_max;
    budget.schedules = options_.schedules;
    if (options_.memory_max != 0) {
      // As in `ordo verify`: the search stops itself a little short of the bound, with its
      // figures, before the command's guard has to.
      const std::uint64_t now = checker::resident_bytes();
      const std::uint64_t soft = options_.memory_max / 10 * 9;
      budget.bytes_max = soft > now ? soft - now : 1;
    }
    return budget;
  }

  static CampaignOutcome job_outcome(const CaseOutcome& o) {
    switch (o.verdict) {
      case CaseVerdict::safe:
        return CampaignOutcome::clean;
      case CaseVerdict::unsafe:
        return CampaignOutcome::unsafe;
      case CaseVerdict::unknown:
        return CampaignOutcome::unknown;
      case CaseVerdict::disagreement:
        return CampaignOutcome::disagreement;
    }
    return CampaignOutcome::unknown;
  }

  CaseOutcome check(const FuzzCase& c, const checker::System& model, const CaseBudget& budget,
                    std::uint64_t index) {
    CaseOutcome o = check_case(c, model, decide_, budget, case_seed(options_.seed, index),
                               [this] { schedule_done(); });
    summary_.schedules += o.schedules_run;
    ++progress_.cases_done;
    report_progress();
    return o;
  }

  // A mutant gets an equal share of what is left: half for its checker, the rest for its
  // schedules.
  void check_mutant(const FuzzCase& mutant, double share, std::uint64_t index) {
    std::unique_ptr<const checker::System> model;
    model = std::make_unique<const checker::System>(mutant.job, mutant.ranks, options_.backend);
    CaseBudget budget = base_budget();
    budget.checker_seconds = share / 2.0;
    budget.schedules_until = std::min(after(Clock::now(), share), deadline_);
    const CaseOutcome o = check(mutant, *model, budget, index);
    add_line(mutant, o);
    ++summary_.mutants_checked;
    switch (o.verdict) {
      case CaseVerdict::safe:
        ++summary_.mutants_safe;
        break;
      case CaseVerdict::unknown:
        ++summary_.mutants_unknown;
        break;
      case CaseVerdict::unsafe:
        ++summary_.mutants_unsafe;
        // "The job becomes unsafe when ..." says something only of a job that is safe as it is.
        if (summary_.job.verdict == CaseVerdict::safe)
          add_record(RecordKind::note, mutant, *model, o);
        break;
      case CaseVerdict::disagreement:
        ++summary_.mutants_disagree;
        add_record(RecordKind::disagreement, mutant, *model, o);
        break;
    }
  }

  void add_line(const FuzzCase& c, const CaseOutcome& o) {
    CaseLine line{c.name,    c.change,        o.verdict, short_property(o),
                  o.message, o.schedules_run, o.seconds};
    summary_.cases.push_back(std::move(line));
  }

  void add_record(RecordKind kind, const FuzzCase& c, const checker::System& model,
                  const CaseOutcome& o) {
    const CaseFiles files = write_case_files(options_.out_dir, c, model, o.witness, hooks_.write);
    written_ = written_ && files.written;
    Record r;
    r.kind = kind;
    r.case_name = c.name;
    r.change = c.change;
    r.property = short_property(o);
    if (kind == RecordKind::note) {
      r.message = "the job becomes unsafe when " + c.change + "\n" + o.message;
    } else if (summary_.generated) {
      r.message = c.change + ":\n" + o.message;  // which point of the settings' space
    } else {
      r.message = o.message;
    }
    r.dump_path = files.dump_path;
    r.trace_path = files.trace_path;
    r.reproduce = files.reproduce;
    if (o.witness) {
      r.witness = witness_lines(model, *o.witness);
      r.placed = placed_result(model, *o.witness, c, files);
    }
    r.found_by_schedule = o.failing_index;
    if (o.failing) r.schedule = o.failing->choice.name();
    summary_.records.push_back(std::move(r));
    progress_.findings = static_cast<std::uint32_t>(summary_.records.size());
    if (hooks_.recorded) hooks_.recorded(summary_);
  }

  void schedule_done() {
    ++progress_.schedules;
    report_progress();
  }

  void report_progress() {
    progress_.seconds = since(begin_);
    if (hooks_.progress) hooks_.progress(progress_);
  }

  const CampaignOptions& options_;
  const CampaignHooks& hooks_;
  Decider decide_;
  Clock::time_point begin_;
  Clock::time_point deadline_;
  CampaignSummary summary_;
  Progress progress_;
  bool written_ = true;
};

}  // namespace

CampaignSummary run_campaign(const dag::Job& job, const std::string& job_name,
                             const CampaignOptions& options, const CampaignHooks& hooks) {
  return Campaign(options, hooks).run(job, job_name);
}

CampaignSummary run_generated(JobDrawer& drawer, std::uint32_t count, const std::string& name,
                              const CampaignOptions& options, const CampaignHooks& hooks) {
  return Campaign(options, hooks).run_generated(drawer, count, name);
}

}  // namespace ordo::fuzz
