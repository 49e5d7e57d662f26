#include "tools/ordo/output.hpp"

#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <iostream>
#include <system_error>

#include "runtime/io/atomic_file.hpp"

namespace ordo::tools {

namespace {

namespace fs = std::filesystem;

std::string quoted(const std::string& path) { return "'" + path + "'"; }

// Whether two paths name one file: the same inode when both exist (hard and symbolic links
// included), else the same path once made absolute and normal.
bool same_file(const std::string& a, const std::string& b) {
  std::error_code error;
  if (fs::exists(a, error) && fs::exists(b, error)) {
    const bool same = fs::equivalent(a, b, error);
    if (!error) return same;
  }
  const fs::path ca = fs::weakly_canonical(a, error);
  if (error) return a == b;
  const fs::path cb = fs::weakly_canonical(b, error);
  if (error) return a == b;
  return ca == cb;
}

std::optional<std::string> path_problem(const OutputPath& out) {
  const std::string named = out.option + " " + quoted(out.path);
  std::error_code error;
  const fs::file_status status = fs::status(out.path, error);
  if (fs::is_directory(status)) return named + " is a directory; expected a file to write";
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    // A device or a pipe is written in place (atomic_file.hpp).
    if (::access(out.path.c_str(), W_OK) != 0) {
      return named +
             " cannot be written: " + std::error_code(errno, std::generic_category()).message();
    }
    return std::nullopt;
  }
  fs::path dir = fs::path(out.path).parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::is_directory(dir, error)) {
    return named + ": the directory " + quoted(dir.string()) + " does not exist";
  }
  // The new file is made beside the old one and renamed over it: the directory must be
  // writable even when the file is.
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    return named + ": cannot write in the directory " + quoted(dir.string()) + ": " +
           std::error_code(errno, std::generic_category()).message();
  }
  return std::nullopt;
}

// `cause` is the errno of the failed write, when it is known (0 otherwise).
bool standard_output_failed(std::string_view command, int cause) {
  static bool reported = false;  // once: the stream stays failed, and one message says it
  if (reported) return false;
  reported = true;
  std::cerr << "ordo " << command << ": error: cannot write standard output"
            << (cause != 0 ? ": " + std::error_code(cause, std::generic_category()).message()
                           : std::string())
            << '\n';
  return false;
}

}  // namespace

std::optional<std::string> output_problem(const std::vector<OutputPath>& outputs,
                                          const std::vector<std::string>& inputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const OutputPath& out = outputs[i];
    if (out.path.empty()) continue;
    if (std::optional<std::string> problem = path_problem(out)) return problem;
    for (const std::string& in : inputs) {
      if (!in.empty() && same_file(out.path, in)) {
        return out.option + " " + quoted(out.path) +
               " is the input file; expected another path (writing it would replace the input)";
      }
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (!outputs[j].path.empty() && same_file(out.path, outputs[j].path)) {
        return out.option + " and " + outputs[j].option + " name the same file " +
               quoted(out.path) + "; expected a file for each";
      }
    }
  }
  return std::nullopt;
}

bool flush_standard_output(std::string_view command) {
  errno = 0;
  std::cout.flush();
  return std::cout ? true : standard_output_failed(command, errno);
}

bool write_output(const std::string& path, const std::string& text, std::string_view command) {
  if (path.empty()) {
    // A large text fails in the middle of <<, not in the flush: errno is read after both.
    errno = 0;
    std::cout << text;
    std::cout.flush();
    return std::cout ? true : standard_output_failed(command, errno);
  }
  // What was printed goes first, should the file be standard output (--dot /dev/stdout).
  if (!flush_standard_output(command)) return false;
  try {
    io::write_file_atomically(path, text);
    return true;
  } catch (const std::system_error& e) {
    std::cerr << "ordo " << command << ": error: " << e.what() << '\n';
    return false;
  }
}

}  // namespace ordo::tools
