#include "runtime/dag/dump_reader.hpp"

#include <array>
#include <cassert>
#include <limits>
#include <string>

#include "runtime/dag/detail/read_parts.hpp"
#include "runtime/dag/dump_error.hpp"
#include "runtime/dag/dump_format.hpp"
#include "runtime/dag/limits.hpp"
#include "runtime/json/file.hpp"
#include "runtime/json/node.hpp"
#include "runtime/json/parse.hpp"
#include "runtime/json/quote.hpp"

namespace ordo::dag {
namespace {

using json::Node;
using json::ObjectNode;

constexpr std::array<std::string_view, 4> job_required = {"format", "version", "comms", "programs"};
constexpr std::array<std::string_view, 1> job_optional = {"ranks"};
constexpr json::ObjectSpec job_spec = {"an ordo-dag dump", job_required, job_optional};

constexpr std::array<std::string_view, 1> comm_required = {"name"};
constexpr std::array<std::string_view, 1> comm_optional = {"members"};
constexpr json::ObjectSpec comm_spec = {"a communicator", comm_required, comm_optional};

std::vector<Communicator> read_comms(const json::Node& node, detail::NameTable& names) {
  const std::size_t count = json::read_array(node, limits::comms_max, "communicators");
  names.reserve(count);
  std::vector<Communicator> comms(count);
  for (std::size_t i = 0; i < count; ++i) {
    const json::ObjectNode object(node.element(i), comm_spec);
    object.reject_unknown_fields();
    comms[i].name = names.add(object.required("name"));
    if (const std::optional<Node> members = object.optional("members")) {
      comms[i].members = detail::read_rank_list(*members);
    }
  }
  return comms;
}

Job read_job(const json::Node& root) {
  const json::ObjectNode object(root, job_spec);
  const std::uint64_t version =
      json::check_format(object, dump_format_name, dump_format_version_oldest, dump_format_version);
  object.reject_unknown_fields();
  Job job;
  if (const std::optional<Node> ranks = object.optional("ranks")) {
    job.ranks = static_cast<std::uint32_t>(json::read_unsigned(*ranks, limits::ranks_max));
  }
  detail::NameTable comms("communicator", "/comms");
  job.comms = read_comms(object.required("comms"), comms);

  const json::Node programs = object.required("programs");
  const std::size_t count = json::read_array(programs, limits::programs_max, "programs");
  detail::NameTable program_names("program", "/programs");
  program_names.reserve(count);
  job.programs.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    job.programs.push_back(
        detail::read_program(programs.element(i), version, comms, program_names));
  }
  assert(job.comms.size() == comms.size() && job.programs.size() == count);
  return job;
}

std::string too_large(std::uint64_t bytes) { return "dump is " + std::to_string(bytes) + " bytes"; }

std::string size_limit() { return "at most " + std::to_string(limits::dump_bytes_max) + " bytes"; }

}  // namespace

Job read_dump(std::string_view text) {
  if (text.size() > limits::dump_bytes_max) {
    throw DumpError("/", too_large(text.size()), size_limit());
  }
  // Running out of memory (std::bad_alloc) is not the input's fault: it goes to the caller, which
  // answers that a bound of the machine was hit rather than that the dump is bad.
  try {
    const nlohmann::json document = json::parse_json(text);
    return read_job(json::Node(document, ""));
  } catch (const DumpError&) {
    throw;
  } catch (const errors::InputError& error) {
    throw DumpError(error);  // every fault of a dump is the dump's error, syntax included
  }
}

Job read_dump_file(const std::filesystem::path& path) {
  std::string text;
  try {
    text = json::read_json_file(path, "dump");
  } catch (const errors::InputError& error) {
    throw DumpError(error);
  }
  try {
    return read_dump(text);
  } catch (const DumpError& error) {
    throw DumpError(
        json::escaped(path.string(), json::path_display_bytes_max) + ": " + error.where(),
        error.problem(), error.expected());
  }
}

}  // namespace ordo::dag
