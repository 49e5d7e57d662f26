#include "tools/ordo/output.hpp"

#include <unistd.h>

#include <cerrno>
#include <iostream>
#include <system_error>

#include "runtime/io/atomic_file.hpp"

namespace ordo::tools {

namespace {

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
