#include "checker/witness/trace_io.hpp"

#include <array>
#include <limits>
#include <nlohmann/json.hpp>

#include "runtime/dag/limits.hpp"
#include "runtime/errors/input_error.hpp"
#include "runtime/json/node.hpp"
#include "runtime/json/parse.hpp"

namespace ordo::checker {

namespace {

using json::Node;
using json::ObjectNode;
using json::ObjectSpec;

constexpr std::string_view format_name = "ordo-trace";
// Version 3 lists the witness under "transitions" (version 2 called them "steps"); since version 2
// a collective op's claim and the issue of its call are separate transitions (S3). Older versions
// are refused rather than converted: `ordo verify --trace` writes the witness again.
constexpr std::uint64_t format_version = 3;
// Far above any witness the checker writes (a few transitions per op and rank), low enough that a
// hostile file cannot make the reader allocate without bound.
constexpr std::size_t transitions_max = std::size_t{1} << 24;

constexpr std::array<std::string_view, 4> trace_required = {"format", "version", "ranks",
                                                            "transitions"};
// "backend" is written only for a witness found under a stream-ordered backend, so a trace of
// MPI's semantics reads as before.
constexpr std::array<std::string_view, 4> trace_optional = {"verdict", "property", "violation",
                                                            "backend"};
constexpr std::array<std::string_view, 2> backend_names = {"mpi", "nccl"};
constexpr ObjectSpec trace_spec = {"an ordo-trace file", trace_required, trace_optional};

constexpr std::array<std::string_view, 2> transition_required = {"rank", "event"};
constexpr std::array<std::string_view, 6> transition_optional = {"op",     "op_name", "thread",
                                                                 "source", "action",  "what"};
constexpr ObjectSpec transition_spec = {"a trace transition", transition_required,
                                        transition_optional};

constexpr std::array<std::string_view, 5> property_names = {"P1", "P2", "P3", "P4", "P5"};

nlohmann::json transition_json(const System& model, const dag::Transition& transition,
                               const WitnessStep& step) {
  nlohmann::json j;
  j["rank"] = transition.rank;
  j["event"] = dag::to_string(transition.kind);
  if (transition.kind == dag::Transition::Kind::main) {
    if (step.action) j["action"] = *step.action;
  } else {
    j["op"] = transition.op;
    j["op_name"] = model.program(transition.rank).ops.at(transition.op).name;
  }
  if (transition.thread) j["thread"] = *transition.thread;
  if (transition.source) j["source"] = *transition.source;
  j["what"] = step.what;
  return j;
}

dag::Transition read_transition(const Node& node, std::optional<std::string>& op_name) {
  const ObjectNode object(node, transition_spec);
  object.reject_unknown_fields();
  dag::Transition transition;
  transition.rank = static_cast<dag::Rank>(
      json::read_unsigned(object.required("rank"), dag::limits::ranks_max - 1));
  transition.kind = static_cast<dag::Transition::Kind>(json::read_choice(
      object.required("event"), dag::transition_kind_names(), "transition event"));
  const std::optional<Node> op = object.optional("op");
  const std::optional<Node> thread = object.optional("thread");
  if (transition.kind == dag::Transition::Kind::main) {
    if (op) {
      op->fail("a main-thread transition names an op", "no \"op\" field on a \"main\" transition");
    }
    if (thread) thread->fail("a main-thread transition names a pool thread", "no \"thread\" field");
  } else {
    if (!op) {
      node.fail("missing field \"op\" in a " + std::string(dag::to_string(transition.kind)) +
                    " transition",
                "the op id the transition claims, issues or completes");
    }
    transition.op = static_cast<dag::OpId>(json::read_unsigned(*op, dag::limits::ops_max - 1));
  }
  if (transition.kind == dag::Transition::Kind::claim) {
    if (!thread) {
      node.fail("missing field \"thread\" in a claim transition", "the pool thread it uses");
    }
    transition.thread =
        static_cast<std::uint32_t>(json::read_unsigned(*thread, dag::limits::pool_threads_max - 1));
  } else if (transition.kind != dag::Transition::Kind::main && thread) {
    thread->fail("a " + std::string(dag::to_string(transition.kind)) + " transition names a thread",
                 "a \"thread\" field on \"claim\" transitions only");
  }
  const std::optional<Node> source = object.optional("source");
  if (transition.kind == dag::Transition::Kind::match && !source) {
    node.fail("missing field \"source\" in a match transition",
              "the rank whose message the recv takes");
  }
  if (source) {
    if (transition.kind != dag::Transition::Kind::match &&
        transition.kind != dag::Transition::Kind::main) {
      source->fail(
          "a " + std::string(dag::to_string(transition.kind)) + " transition names a source",
          "a \"source\" field on \"match\" and \"main\" transitions only");
    }
    transition.source =
        static_cast<dag::Rank>(json::read_unsigned(*source, dag::limits::ranks_max - 1));
  }
  if (const std::optional<Node> name = object.optional("op_name")) {
    if (transition.kind == dag::Transition::Kind::main) {
      name->fail("a main-thread transition names an op", "no \"op_name\" on a \"main\" transition");
    }
    op_name = json::read_string(*name, "the op's name");
  }
  if (const std::optional<Node> action = object.optional("action")) {
    json::read_unsigned(*action, dag::limits::actions_max - 1);
  }
  if (const std::optional<Node> what = object.optional("what")) {
    json::read_string(*what, "a description of the transition");
  }
  return transition;
}

}  // namespace

std::string_view short_name(Property property) {
  return property_names[static_cast<std::size_t>(property)];
}

std::optional<Property> parse_property(std::string_view name) {
  for (std::size_t i = 0; i < property_names.size(); ++i) {
    if (property_names[i] == name) return static_cast<Property>(i);
  }
  return std::nullopt;
}

std::string write_trace(const System& model, const Result& result) {
  nlohmann::json j;
  j["format"] = format_name;
  j["version"] = format_version;
  j["ranks"] = model.ranks();
  if (model.backend() != comm::Backend::mpi) j["backend"] = comm::to_string(model.backend());
  j["verdict"] = to_string(result.verdict);
  if (result.property) j["property"] = short_name(*result.property);
  if (result.violation) j["violation"] = describe(*result.violation);
  nlohmann::json transitions = nlohmann::json::array();
  const std::vector<WitnessStep> steps = witness_steps(model, result.witness);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    transitions.push_back(transition_json(model, result.witness[i], steps[i]));
  }
  j["transitions"] = std::move(transitions);
  return j.dump(1) + "\n";
}

Trace read_trace(std::string_view text) {
  if (text.size() > dag::limits::dump_bytes_max) {
    throw errors::InputError("/", "trace of " + std::to_string(text.size()) + " bytes is too large",
                             "at most " + std::to_string(dag::limits::dump_bytes_max) + " bytes");
  }
  const nlohmann::json document = json::parse_json(text);
  const Node root(document, "");
  const ObjectNode object(root, trace_spec);
  json::check_format(object, format_name, format_version);
  object.reject_unknown_fields();
  Trace trace;
  trace.ranks = static_cast<std::uint32_t>(
      json::read_unsigned(object.required("ranks"), dag::limits::ranks_max));
  if (trace.ranks == 0) object.required("ranks").fail("zero ranks", "at least 1 rank");
  if (const std::optional<Node> backend = object.optional("backend")) {
    trace.backend =
        *comm::parse_backend(backend_names[json::read_choice(*backend, backend_names, "backend")]);
  }
  if (const std::optional<Node> verdict = object.optional("verdict")) {
    json::read_string(*verdict, "the verdict the trace witnesses");
  }
  if (const std::optional<Node> violation = object.optional("violation")) {
    json::read_string(*violation, "the violation in words");
  }
  if (const std::optional<Node> property = object.optional("property")) {
    trace.property =
        std::string(property_names[json::read_choice(*property, property_names, "property")]);
  }
  const Node transitions = object.required("transitions");
  const std::size_t count = json::read_array(transitions, transitions_max, "transitions");
  trace.transitions.reserve(count);
  trace.op_names.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    std::optional<std::string> name;
    const Node element = transitions.element(i);
    dag::Transition transition = read_transition(element, name);
    if (transition.rank >= trace.ranks) {
      element.fail("rank " + std::to_string(transition.rank) + " in a trace of " +
                       std::to_string(trace.ranks) + " ranks",
                   "a rank below " + std::to_string(trace.ranks));
    }
    trace.transitions.push_back(transition);
    trace.op_names.push_back(std::move(name));
  }
  return trace;
}

std::optional<std::string> trace_mismatch(const System& model, const Trace& trace) {
  if (trace.backend != model.backend()) {
    return "the trace was found under the " + std::string(comm::to_string(trace.backend)) +
           " semantics, the job is run under " + std::string(comm::to_string(model.backend()));
  }
  if (trace.ranks != model.ranks()) {
    return "the trace is for " + std::to_string(trace.ranks) + " ranks, the job runs on " +
           std::to_string(model.ranks());
  }
  for (std::size_t i = 0; i < trace.transitions.size(); ++i) {
    const dag::Transition& transition = trace.transitions[i];
    if (transition.kind == dag::Transition::Kind::main) continue;
    const dag::Program& program = model.program(transition.rank);
    const std::string where =
        "transition " + std::to_string(i) + " (rank " + std::to_string(transition.rank) + "): ";
    if (transition.op >= program.ops.size()) {
      return where + "op " + std::to_string(transition.op) + " does not exist; program '" +
             program.name + "' has " + std::to_string(program.ops.size()) + " ops";
    }
    const dag::Op& op = program.ops[transition.op];
    if (trace.op_names[i] && *trace.op_names[i] != op.name) {
      return where + "op " + std::to_string(transition.op) + " is '" + op.name +
             "' in the job but '" + *trace.op_names[i] + "' in the trace";
    }
    if (transition.thread && *transition.thread >= program.pools.at(op.pool).threads) {
      return where + "thread " + std::to_string(*transition.thread) + " of pool '" +
             program.pools[op.pool].name + "', which has " +
             std::to_string(program.pools[op.pool].threads) + " threads";
    }
  }
  return std::nullopt;
}

}  // namespace ordo::checker
