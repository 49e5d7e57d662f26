// libFuzzer harness for the counterexample trace reader (checker/witness/trace_io.hpp). Any text
// must be rejected with errors::InputError or read as a trace whose per-transition op names line
// up with its transitions; a trace that reads is then checked against a fixed two-rank job with
// trace_mismatch, which must answer for any transitions at all, since `ordo replay` runs it on user
// files before anything else.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "checker/system/system.hpp"
#include "checker/witness/trace_io.hpp"
#include "runtime/dag/dump_error.hpp"
#include "runtime/designs/step_builder.hpp"

namespace {

// Naive on two concurrent branches: two keys, collective ops on a two-thread pool, main-thread
// submissions and waits, so traces can name every kind of transition, op and thread that exists.
const ordo::checker::System& model() {
  static const ordo::checker::System m = [] {
    using ordo::networks::Layer;
    const ordo::networks::Network net{"branches",
                                     {Layer{"a", {{"a.w", 4, ordo::dag::DType::f32}}, 1, 1, {}},
                                      Layer{"b", {{"b.w", 4, ordo::dag::DType::f32}}, 1, 1, {}},
                                      Layer{"join", {}, 1, 1, {0, 1}}}};
    ordo::designs::DesignConfig config;
    config.kind = ordo::designs::DesignKind::naive;
    return ordo::checker::System(ordo::designs::build_step_job(net, config, {}), 2);
  }();
  return m;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ordo::checker::Trace trace;
  try {
    trace = ordo::checker::read_trace(text);
  } catch (const ordo::errors::InputError&) {
    return 0;
  }
  if (trace.op_names.size() != trace.transitions.size()) {
    std::fprintf(stderr, "trace_parser: %zu transitions but %zu op names\n",
                 trace.transitions.size(), trace.op_names.size());
    std::abort();
  }
  (void)ordo::checker::trace_mismatch(model(), trace);
  return 0;
}
