#include "runtime/dag/dump_reader.hpp"

#include <array>
#include <cassert>
#include <cerrno>
#include <fstream>
#include <limits>
#include <new>
#include <string>
#include <system_error>

#include "runtime/dag/detail/json_node.hpp"
#include "runtime/dag/detail/json_parse.hpp"
#include "runtime/dag/detail/quote.hpp"
#include "runtime/dag/detail/read_parts.hpp"
#include "runtime/dag/dump_error.hpp"
#include "runtime/dag/dump_format.hpp"
#include "runtime/dag/limits.hpp"

namespace ordo::dag {
namespace {

using detail::Node;
using detail::ObjectNode;

constexpr std::array<std::string_view, 4> job_required = {"format", "version", "comms", "programs"};
constexpr std::array<std::string_view, 1> job_optional = {"ranks"};
constexpr detail::ObjectSpec job_spec = {"an ordo-dag dump", job_required, job_optional};

constexpr std::array<std::string_view, 1> comm_required = {"name"};
constexpr std::array<std::string_view, 1> comm_optional = {"members"};
constexpr detail::ObjectSpec comm_spec = {"a communicator", comm_required, comm_optional};

constexpr std::size_t file_chunk_bytes = 1u << 20;
constexpr std::size_t path_display_bytes_max = 1024;

std::vector<Communicator> read_comms(const Node& node, detail::NameTable& names) {
  const std::size_t count = detail::read_array(node, limits::comms_max, "communicators");
  names.reserve(count);
  std::vector<Communicator> comms(count);
  for (std::size_t i = 0; i < count; ++i) {
    const ObjectNode object(node.element(i), comm_spec);
    object.reject_unknown_fields();
    comms[i].name = names.add(object.required("name"));
    if (const std::optional<Node> members = object.optional("members")) {
      comms[i].members = detail::read_rank_list(*members);
    }
  }
  return comms;
}

Job read_job(const Node& root) {
  const ObjectNode object(root, job_spec);
  const std::uint64_t version = detail::check_format(
      object, dump_format_name, dump_format_version_oldest, dump_format_version);
  object.reject_unknown_fields();
  Job job;
  if (const std::optional<Node> ranks = object.optional("ranks")) {
    job.ranks = static_cast<std::uint32_t>(detail::read_unsigned(*ranks, limits::ranks_max));
  }
  detail::NameTable comms("communicator", "/comms");
  job.comms = read_comms(object.required("comms"), comms);

  const Node programs = object.required("programs");
  const std::size_t count = detail::read_array(programs, limits::programs_max, "programs");
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

[[noreturn]] void fail_file(const std::filesystem::path& path, std::string problem,
                            std::string expected) {
  throw DumpError(detail::escaped(path.string(), path_display_bytes_max), std::move(problem),
                  std::move(expected));
}

std::string too_large(std::uint64_t bytes) { return "dump is " + std::to_string(bytes) + " bytes"; }

std::string size_limit() { return "at most " + std::to_string(limits::dump_bytes_max) + " bytes"; }

// Reads at most dump_bytes_max + 1 bytes: enough to tell that a pipe or device is too long.
std::string read_file_text(const std::filesystem::path& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    fail_file(path, "is a directory", "a dump file");
  }
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (!error && size > limits::dump_bytes_max) {
    fail_file(path, too_large(size), size_limit());
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const std::error_code cause(errno, std::generic_category());
    fail_file(path, "cannot open: " + cause.message(), "a readable dump file");
  }
  std::string text;
  std::string chunk(file_chunk_bytes, '\0');
  while (in && text.size() <= limits::dump_bytes_max) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) {
    fail_file(path, "read error", "a readable dump file");
  }
  if (text.size() > limits::dump_bytes_max) {
    fail_file(path, "dump is more than " + std::to_string(limits::dump_bytes_max) + " bytes",
              size_limit());
  }
  return text;
}

}  // namespace

Job read_dump(std::string_view text) {
  if (text.size() > limits::dump_bytes_max) {
    throw DumpError("/", too_large(text.size()), size_limit());
  }
  try {
    const nlohmann::json document = detail::parse_json(text);
    return read_job(Node(document, ""));
  } catch (const std::bad_alloc&) {
    throw DumpError("/",
                    "out of memory reading a dump of " + std::to_string(text.size()) + " bytes",
                    "a dump that fits in memory");
  }
}

Job read_dump_file(const std::filesystem::path& path) {
  std::string text;
  try {
    text = read_file_text(path);
  } catch (const std::bad_alloc&) {
    fail_file(path, "out of memory reading the file", "a dump that fits in memory");
  }
  try {
    return read_dump(text);
  } catch (const DumpError& error) {
    throw DumpError(detail::escaped(path.string(), path_display_bytes_max) + ": " + error.where(),
                    error.problem(), error.expected());
  }
}

}  // namespace ordo::dag
