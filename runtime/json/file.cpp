#include "runtime/json/file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <system_error>

#include "runtime/errors/input_error.hpp"
#include "runtime/io/input_file.hpp"
#include "runtime/json/quote.hpp"

namespace ordo::json {

namespace {

constexpr std::size_t file_chunk_bytes = 1u << 20;

[[noreturn]] void fail_file(const std::filesystem::path& path, std::string problem,
                            std::string expected) {
  throw errors::InputError(escaped(path.string(), path_display_bytes_max), std::move(problem),
                           std::move(expected));
}

std::string size_limit(std::uint64_t bytes_max) {
  return "at most " + std::to_string(bytes_max) + " bytes";
}

}  // namespace

std::string read_json_file(const std::filesystem::path& path, std::string_view what,
                           std::uint64_t bytes_max) {
  const std::string a_file = "a " + std::string(what) + " file";
  if (std::optional<io::InputProblem> problem =
          io::input_file_problem(path, std::string(what) + " file")) {
    fail_file(path, std::move(problem->problem), std::move(problem->expected));
  }
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (!error && size > bytes_max) {
    fail_file(path, std::string(what) + " is " + std::to_string(size) + " bytes",
              size_limit(bytes_max));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const std::error_code cause(errno, std::generic_category());
    fail_file(path, "cannot open: " + cause.message(), "a readable " + std::string(what) + " file");
  }
  std::string text;
  std::string chunk(file_chunk_bytes, '\0');
  while (in && text.size() <= bytes_max) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    const std::size_t got = static_cast<std::size_t>(in.gcount());
    if (const void* nul = std::memchr(chunk.data(), '\0', got)) {
      const std::size_t at =
          text.size() + static_cast<std::size_t>(static_cast<const char*>(nul) - chunk.data());
      fail_file(path, "a NUL byte at byte " + std::to_string(at),
                "JSON text (" + a_file + "), which never holds one");
    }
    text.append(chunk.data(), got);
  }
  if (in.bad()) fail_file(path, "read error", "a readable " + std::string(what) + " file");
  if (text.size() > bytes_max) {
    fail_file(path, std::string(what) + " is more than " + std::to_string(bytes_max) + " bytes",
              size_limit(bytes_max));
  }
  return text;
}

}  // namespace ordo::json
