#include "runtime/dag/dump_writer.hpp"

#include <cassert>
#include <stdexcept>
#include <variant>

#include "runtime/dag/detail/dump_text.hpp"
#include "runtime/dag/dump_format.hpp"
#include "runtime/dag/names.hpp"

namespace ordo::dag {
namespace {

using detail::InlineObject;
using detail::json_number;
using detail::json_string;

// The name a reference stands for. `where` locates the reference for the exception.
template <typename Entry>
std::string name_of(const std::vector<Entry>& table, std::uint32_t index, const char* entity,
                    const std::string& where) {
  if (index >= table.size()) {
    throw std::invalid_argument(where + ": " + entity + " index " + std::to_string(index) +
                                " is out of range (the table has " + std::to_string(table.size()) +
                                " entries)");
  }
  return json_string(table[index].name);
}

template <typename Entry>
std::string name_list(const std::vector<Entry>& table, const std::vector<std::uint32_t>& ids,
                      const char* entity, const std::string& where) {
  std::vector<std::string> names;
  names.reserve(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    names.push_back(name_of(table, ids[i], entity, where + "/" + std::to_string(i)));
  }
  return detail::json_inline_array(names);
}

std::string rank_list(const std::vector<Rank>& ranks) {
  std::vector<std::string> numbers;
  numbers.reserve(ranks.size());
  for (const Rank rank : ranks) {
    numbers.push_back(json_number(std::uint64_t{rank}));
  }
  return detail::json_inline_array(numbers);
}

// Enum spellings are plain ASCII words; quoting them is all they need.
std::string spelling_text(std::string_view spelling) { return json_string(spelling); }

std::string collective_text(const Collective& collective, const Job& job,
                            const std::string& where) {
  InlineObject object;
  object.field("kind", spelling_text(to_string(collective.kind)))
      .field("comm", name_of(job.comms, collective.comm, "communicator", where + "/comm"))
      .field("key", json_number(collective.key))
      .field("count", json_number(collective.count))
      .field("dtype", spelling_text(to_string(collective.dtype)))
      .field("reduction", spelling_text(to_string(collective.reduction)));
  if (collective.root.has_value()) {
    object.field("root", json_number(std::uint64_t{*collective.root}));
  }
  if (collective.offset != 0) object.field("offset", json_number(collective.offset));
  if (collective.peer.has_value()) {
    object.field("peer", *collective.peer == any_source
                             ? json_string("any")
                             : json_number(std::uint64_t{*collective.peer}));
  }
  if (collective.peer.has_value() || collective.tag != 0) {
    object.field("tag", json_number(std::uint64_t{collective.tag}));
  }
  return object.text();
}

std::string op_text(const Op& op, const Program& program, const Job& job,
                    const std::string& where) {
  InlineObject object;
  object.field("name", json_string(op.name))
      .field("kind", spelling_text(to_string(op.kind)))
      .field("pool", name_of(program.pools, op.pool, "pool", where + "/pool"))
      .field("reads", name_list(program.vars, op.reads, "var", where + "/reads"))
      .field("writes", name_list(program.vars, op.writes, "var", where + "/writes"))
      .field("priority", json_number(std::int64_t{op.priority}))
      .field("cost_us", json_number(op.cost_us));
  if (op.collective.has_value()) {
    object.field("collective", collective_text(*op.collective, job, where + "/collective"));
  }
  return object.text();
}

std::string action_text(const Action& action, const Program& program, const Job& job,
                        const std::string& where) {
  InlineObject object;
  if (const auto* submit = std::get_if<SubmitAction>(&action)) {
    object.field("action", spelling_text(submit_action_spelling(dump_format_version)))
        .field("op", name_of(program.ops, submit->op, "op", where + "/op"));
  } else if (const auto* wait = std::get_if<WaitToReadAction>(&action)) {
    object.field("action", spelling_text("wait_to_read"))
        .field("var", name_of(program.vars, wait->var, "var", where + "/var"));
  } else if (std::holds_alternative<WaitForAllAction>(action)) {
    object.field("action", spelling_text("wait_for_all"));
  } else {
    const auto& call = std::get<CollectiveAction>(action);
    object.field("action", spelling_text("collective"))
        .field("collective", collective_text(call.collective, job, where + "/collective"));
    if (call.buffer.has_value()) {
      object.field("buffer", name_of(program.vars, *call.buffer, "var", where + "/buffer"));
    }
  }
  return object.text();
}

// A table as `"key": [` + one entry per line + `]`, or `"key": []` when empty.
void append_table(std::string& out, std::string_view indent, std::string_view key,
                  const std::vector<std::string>& entries, bool last) {
  out += indent;
  out += json_string(key);
  out += ": [";
  for (std::size_t i = 0; i < entries.size(); ++i) {
    out += i == 0 ? "\n" : ",\n";
    out += indent;
    out += "  ";
    out += entries[i];
  }
  if (!entries.empty()) {
    out += "\n";
    out += indent;
  }
  out += last ? "]\n" : "],\n";
}

template <typename Entry, typename Render>
std::vector<std::string> render_all(const std::vector<Entry>& entries, const std::string& where,
                                    Render render) {
  std::vector<std::string> lines;
  lines.reserve(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    lines.push_back(render(entries[i], where + "/" + std::to_string(i)));
  }
  return lines;
}

void append_program(std::string& out, const Program& program, const Job& job,
                    const std::string& where) {
  constexpr std::string_view indent = "      ";
  out += "    {\n";
  out += indent;
  out += "\"name\": " + json_string(program.name) + ",\n";
  out += indent;
  out +=
      "\"ranks\": " + (program.ranks.has_value() ? rank_list(*program.ranks) : "\"all\"") + ",\n";
  append_table(out, indent, "pools",
               render_all(program.pools, where + "/pools",
                          [](const Pool& pool, const std::string&) {
                            return InlineObject()
                                .field("name", json_string(pool.name))
                                .field("threads", json_number(std::uint64_t{pool.threads}))
                                .field("kind", spelling_text(to_string(pool.kind)))
                                .text();
                          }),
               false);
  append_table(out, indent, "vars",
               render_all(program.vars, where + "/vars",
                          [](const Var& var, const std::string&) {
                            return InlineObject()
                                .field("name", json_string(var.name))
                                .field("kind", spelling_text(to_string(var.kind)))
                                .field("bytes", json_number(var.bytes))
                                .field("dtype", spelling_text(to_string(var.dtype)))
                                .text();
                          }),
               false);
  append_table(out, indent, "ops",
               render_all(program.ops, where + "/ops",
                          [&](const Op& op, const std::string& at) {
                            return op_text(op, program, job, at);
                          }),
               false);
  append_table(out, indent, "main",
               render_all(program.main, where + "/main",
                          [&](const Action& action, const std::string& at) {
                            return action_text(action, program, job, at);
                          }),
               true);
  out += "    }";
}

}  // namespace

std::string write_dump(const Job& job) {
  std::string out = "{\n";
  out += "  \"format\": " + json_string(dump_format_name) + ",\n";
  out += "  \"version\": " + json_number(dump_format_version) + ",\n";
  if (job.ranks.has_value()) {
    out += "  \"ranks\": " + json_number(std::uint64_t{*job.ranks}) + ",\n";
  }
  append_table(out, "  ", "comms",
               render_all(job.comms, "/comms",
                          [](const Communicator& comm, const std::string&) {
                            InlineObject object;
                            object.field("name", json_string(comm.name));
                            if (comm.members.has_value()) {
                              object.field("members", rank_list(*comm.members));
                            }
                            return object.text();
                          }),
               false);
  out += "  \"programs\": [";
  for (std::size_t i = 0; i < job.programs.size(); ++i) {
    out += i == 0 ? "\n" : ",\n";
    append_program(out, job.programs[i], job, "/programs/" + std::to_string(i));
  }
  out += job.programs.empty() ? "]\n" : "\n  ]\n";
  out += "}\n";
  assert(out.front() == '{' && out.back() == '\n');
  return out;
}

}  // namespace ordo::dag
