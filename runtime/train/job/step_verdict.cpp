#include "runtime/train/job/step_verdict.hpp"

#include <functional>
#include <ostream>
#include <system_error>

#include "checker/verify/verify.hpp"
#include "runtime/dag/dump_writer.hpp"
#include "runtime/designs/step_builder.hpp"
#include "runtime/errors/exit_codes.hpp"
#include "runtime/io/atomic_file.hpp"
#include "runtime/train/job/job_agreement.hpp"
#include "runtime/train/job/job_messages.hpp"

namespace ordo::train {

namespace {

// Rank 0's part: the dump, the checker, the report.
int decide(const JobOptions& o, const designs::DesignConfig& config, const networks::Network& net,
           StepProgram program, std::uint32_t ranks, comm::Backend backend, MetricsFile* metrics,
           std::ostream& out) {
  if (!o.dump_step_path.empty()) {
    out.flush();  // what was printed goes first, should the file be standard output
    try {
      io::write_file_atomically(o.dump_step_path, program.dump);
    } catch (const std::system_error& e) {
      say_error(e.what());
      return exit_codes::bad_input;
    }
  }
  if (o.no_verify) {
    out << "verify: skipped (--no-verify): the step program is not checked\n";
    if (metrics) metrics->write({{"event", "verify"}, {"verdict", "skipped"}});
    return exit_codes::ok;
  }
  const checker::System model(std::move(program.job), ranks, backend);
  checker::VerifyOptions options;
  options.limits.seconds_max = o.verify_seconds;
  const checker::Verification v = checker::verify(model, options);
  if (metrics) {
    metrics->write({{"event", "verify"},
                    {"verdict", checker::to_string(v.result.verdict)},
                    {"ranks", ranks},
                    {"backend", std::string(comm::to_string(backend))},
                    {"design", designs::describe(config)},
                    {"network", net.name},
                    {"seconds", v.seconds}});
  }
  out << "verify: " << checker::to_string(v.result.verdict) << " at " << ranks << " ranks ("
      << designs::describe(config) << ", " << net.name
      << (backend == comm::Backend::mpi ? "" : ", under NCCL's semantics") << ") in " << v.seconds
      << " s\n";
  if (v.result.verdict == checker::Verdict::unsafe) {
    out << checker::human_report(model, v);
    return exit_codes::unsafe;
  }
  if (v.result.verdict == checker::Verdict::unknown && !o.allow_unknown) {
    out << checker::human_report(model, v)
        << "verify: not training an unproven program (--allow-unknown to train anyway)\n";
    return exit_codes::unknown;
  }
  return exit_codes::ok;
}

}  // namespace

StepProgram build_step_program(const networks::Network& net, const designs::DesignConfig& config) {
  designs::StepOptions step;
  step.include_init = true;
  step.steps = 2;
  StepProgram p;
  p.job = designs::build_step_job(net, config, step);
  p.dump = dag::write_dump(p.job);
  return p;
}

int agree_on_verdict(const JobOptions& o, const designs::DesignConfig& config,
                     const networks::Network& net, StepProgram program, comm::World& world,
                     comm::Backend backend, MetricsFile* metrics, std::ostream& out) {
  const bool root = world.rank() == 0;
  // Halved so that negating it cannot overflow: max of (h, -h) gives the largest and smallest.
  const auto h = static_cast<std::int64_t>(std::hash<std::string>{}(program.dump) >> 1);
  std::int64_t hashes[2] = {h, -h};
  world.comm(0).allreduce(hashes, 2, dag::DType::i64, dag::Reduction::max, agree_key);
  if (hashes[0] != -hashes[1]) {
    if (root) say_error("the ranks built different step programs");
    return exit_codes::bad_input;
  }
  std::int32_t code = exit_codes::ok;
  if (root) code = decide(o, config, net, std::move(program), world.size(), backend, metrics, out);
  world.comm(0).bcast(&code, 1, dag::DType::i32, 0, agree_key);
  return code;
}

}  // namespace ordo::train
