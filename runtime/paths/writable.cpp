#include "runtime/paths/writable.hpp"

#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <system_error>

namespace ordo::paths {

namespace {

namespace fs = std::filesystem;

std::string errno_text() { return std::error_code(errno, std::generic_category()).message(); }

std::optional<std::string> file_problem(const PathUse& use) {
  const std::string named = use.option + " " + quoted(use.path);
  std::error_code error;
  const fs::file_status status = fs::status(use.path, error);
  if (fs::is_directory(status)) return named + " is a directory; expected a file to write";
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    // A device or a pipe is written in place (io/atomic_file.hpp).
    if (::access(use.path.c_str(), W_OK) != 0) return named + " cannot be written: " + errno_text();
    return std::nullopt;
  }
  fs::path dir = fs::path(use.path).parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::is_directory(dir, error)) {
    return named + ": the directory " + quoted(dir.string()) + " does not exist";
  }
  // The new file is made beside the old one and renamed over it: the directory must be
  // writable even when the file is.
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    return named + ": cannot write in the directory " + quoted(dir.string()) + ": " + errno_text();
  }
  return std::nullopt;
}

std::optional<std::string> folder_problem(const PathUse& use) {
  const std::string named = use.option + " " + quoted(use.path);
  std::error_code error;
  const fs::file_status status = fs::status(use.path, error);
  if (fs::exists(status)) {
    if (!fs::is_directory(status))
      return named + " is not a directory; expected a folder to write in";
    if (::access(use.path.c_str(), W_OK | X_OK) != 0) {
      return named + ": cannot write in the folder: " + errno_text();
    }
    return std::nullopt;
  }
  // Made with the folders above it that are missing: the nearest one that exists decides.
  fs::path above = fs::absolute(use.path, error).lexically_normal();
  if (!above.has_filename()) above = above.parent_path();
  do {
    above = above.parent_path();
  } while (!fs::exists(above, error) && above != above.root_path());
  if (!fs::is_directory(above, error)) {
    return named + ": " + quoted(above.string()) +
           " is not a directory; expected a folder to make it in";
  }
  if (::access(above.c_str(), W_OK | X_OK) != 0) {
    return named + ": cannot make the folder in " + quoted(above.string()) + ": " + errno_text();
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> unwritable(const PathUse& use) {
  if (use.path.empty()) return std::nullopt;
  switch (use.role) {
    case Role::output_file:
      return file_problem(use);
    case Role::output_folder:
      return folder_problem(use);
    case Role::input_file:
    case Role::input_folder:
      break;
  }
  return std::nullopt;
}

}  // namespace ordo::paths
