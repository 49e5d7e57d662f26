// Property 5: every generated job validates, and its dump reads back as the same job and writes
// as the same bytes. The other properties lean on this: a counterexample is shown as a dump, and
// `ordo verify` reads exactly what the runtime would write.
#include <gtest/gtest.h>
// rapidcheck/gtest.h needs GoogleTest declared first.
#include <rapidcheck/gtest.h>

#include "fuzz/props/families.hpp"
#include "runtime/dag/dump_reader.hpp"
#include "runtime/dag/dump_writer.hpp"
#include "runtime/dag/validate.hpp"
#include "runtime/errors/input_error.hpp"

namespace ordo::fuzz {
namespace {

void check_round_trip(const rc::Gen<Instance>& family) {
  const Instance instance = *family;
  const std::vector<dag::Diagnostic> problems = dag::validate(instance.job);
  if (!problems.empty()) {
    std::string text;
    for (const dag::Diagnostic& d : problems) text += d.where + ": " + d.message + "\n";
    RC_FAIL("a generated job does not validate:\n" + text);
  }
  const std::string text = dag::write_dump(instance.job);
  dag::Job back;
  try {
    back = dag::read_dump(text);
  } catch (const errors::InputError& e) {
    RC_FAIL("the dump does not read back: " + e.where() + ": " + e.problem() + "; expected " +
            e.expected());
  }
  RC_ASSERT(back == instance.job);
  RC_ASSERT(dag::write_dump(back) == text);
}

RC_GTEST_PROP(DumpRoundTrip, DesignJobs, ()) { check_round_trip(design_jobs()); }
RC_GTEST_PROP(DumpRoundTrip, HeterogeneousJobs, ()) { check_round_trip(heterogeneous_jobs()); }
RC_GTEST_PROP(DumpRoundTrip, RawPrograms, ()) { check_round_trip(raw_jobs()); }
RC_GTEST_PROP(DumpRoundTrip, MessageJobs, ()) { check_round_trip(message_jobs()); }

}  // namespace
}  // namespace ordo::fuzz
