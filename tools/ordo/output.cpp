#include "tools/ordo/output.hpp"

#include <iostream>
#include <system_error>

#include "runtime/io/atomic_file.hpp"

namespace ordo::tools {

bool write_output(const std::string& path, const std::string& text, std::string_view command) {
  if (path.empty()) {
    std::cout << text;
    return true;
  }
  try {
    io::write_file_atomically(path, text);
    return true;
  } catch (const std::system_error& e) {
    std::cerr << "ordo " << command << ": " << e.what() << '\n';
    return false;
  }
}

}  // namespace ordo::tools
