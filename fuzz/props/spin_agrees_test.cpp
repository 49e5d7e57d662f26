// Property 4: SPIN, searching the Promela export of a job exhaustively, reaches the explicit
// checker's verdict. Safe must be safe; unsafe must be unsafe, and when SPIN meets another kind
// of violation first, a search for the checker's kind alone must find that one too (which kind a
// search meets first depends on its order). Instances that either side cannot finish, or that
// Promela cannot express, establish nothing; they are tagged and counted.
#include <gtest/gtest.h>
// rapidcheck/gtest.h needs GoogleTest declared first.
#include <rapidcheck/gtest.h>

#include <optional>
#include <string>

#include "checker/promela/export.hpp"
#include "checker/promela/spin_run.hpp"
#include "fuzz/lib/budget.hpp"
#include "fuzz/lib/verdicts.hpp"
#include "fuzz/props/families.hpp"

namespace ordo::fuzz {
namespace {

using checker::Property;
using checker::promela::SpinVerdict;

SpinVerdict spin_kind(Property property) {
  return property == Property::p1_order || property == Property::p2_thread_rule
             ? SpinVerdict::assertion
             : SpinVerdict::invalid_end_state;
}

std::string spin_assertion(Property property) {
  if (property == Property::p1_order) return "p1_order_consistent";
  if (property == Property::p2_thread_rule) return "p2_thread_rule_kept";
  return "";
}

// Small instances: compiling pan.c costs more than searching, so it is compiled unoptimised.
checker::promela::SpinOptions spin_options(std::optional<Property> only = std::nullopt) {
  checker::promela::SpinOptions o;
  o.seconds_max = spin_seconds_max();
  o.optimization = "-O0";
  o.hash_bits = 20;
  if (only) {
    o.report_p1 = *only == Property::p1_order;
    o.report_p2 = *only == Property::p2_thread_rule;
    o.report_deadlocks = *only == Property::p3_deadlock || *only == Property::p4_termination;
  }
  return o;
}

std::string said(const checker::promela::SpinResult& spin) {
  return std::string(checker::promela::to_string(spin.verdict)) +
         (spin.assertion.empty() ? "" : " " + spin.assertion);
}

void check_spin_agrees(const rc::Gen<Instance>& family) {
  const Instance instance = *family;
  const Decision decision = decide(instance);
  const checker::Result& ordo = decision.result;
  if (ordo.verdict == checker::Verdict::unknown) {
    RC_TAG(verdict_tag(ordo));
    return;
  }
  // SPIN searches without ordo's reductions; past this many reduced states its search takes
  // minutes, which a campaign can afford (ORDO_FUZZ_SPIN_STATES_MAX) and CI cannot.
  if (ordo.stats.states > spin_states_max()) {
    RC_TAG("over the SPIN size bound");
    return;
  }
  std::string text;
  checker::promela::SpinHints hints;
  try {
    text = checker::promela::export_promela(*decision.model);
    hints = checker::promela::spin_hints(*decision.model);
  } catch (const checker::promela::ExportError& e) {
    RC_TAG("not expressible in Promela");
    return;
  }
  const checker::promela::SpinResult spin = checker::promela::run_spin(text, hints, spin_options());
  if (spin.verdict == SpinVerdict::incomplete) {
    RC_TAG("SPIN incomplete");
    return;
  }
  RC_TAG(verdict_tag(ordo));
  const std::string checker_report = checker::report(*decision.model, ordo);
  if (spin.verdict == SpinVerdict::model_error) {
    RC_FAIL("pan reports an error in the model:\n" + spin.pan_output);
  }
  if (ordo.verdict == checker::Verdict::safe) {
    if (spin.verdict != SpinVerdict::safe) {
      RC_FAIL("the checker says safe, SPIN says " + said(spin) + ":\n" + spin.pan_output);
    }
    return;
  }
  const Property property = *ordo.property;
  if (spin.verdict == SpinVerdict::safe) {
    RC_FAIL("the checker says unsafe, SPIN says safe\nchecker:\n" + checker_report);
  }
  if (spin.verdict == spin_kind(property) && spin.assertion == spin_assertion(property)) return;
  const checker::promela::SpinResult targeted =
      checker::promela::run_spin(text, hints, spin_options(property));
  if (targeted.verdict == SpinVerdict::incomplete) {
    RC_TAG("SPIN incomplete on the checker's property alone");
    return;
  }
  if (targeted.verdict != spin_kind(property) || targeted.assertion != spin_assertion(property)) {
    RC_FAIL("SPIN does not reach the checker's " + std::string(checker::to_string(property)) +
            " (it says " + said(targeted) + " searching for it alone)\nchecker:\n" +
            checker_report + "\npan:\n" + targeted.pan_output);
  }
}

RC_GTEST_PROP(SpinAgrees, DesignJobs, ()) { check_spin_agrees(design_jobs()); }
RC_GTEST_PROP(SpinAgrees, HeterogeneousJobs, ()) { check_spin_agrees(heterogeneous_jobs()); }
RC_GTEST_PROP(SpinAgrees, RawPrograms, ()) { check_spin_agrees(raw_jobs()); }
RC_GTEST_PROP(SpinAgrees, RacyJobs, ()) { check_spin_agrees(racy_jobs()); }

// The same families under the NCCL semantics (docs/semantics.md, §3a).
RC_GTEST_PROP(SpinAgrees, DesignJobsOnStreams, ()) { check_spin_agrees(on_streams(design_jobs())); }

RC_GTEST_PROP(SpinAgrees, RawProgramsOnStreams, ()) { check_spin_agrees(on_streams(raw_jobs())); }

RC_GTEST_PROP(SpinAgrees, RacyJobsOnStreams, ()) { check_spin_agrees(on_streams(racy_jobs())); }

}  // namespace
}  // namespace ordo::fuzz
