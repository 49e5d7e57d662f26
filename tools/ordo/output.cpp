#include "tools/ordo/output.hpp"

#include <fstream>
#include <iostream>

namespace ordo::tools {

bool write_output(const std::string& path, const std::string& text, std::string_view command) {
  if (path.empty()) {
    std::cout << text;
    return true;
  }
  std::ofstream out(path);
  out << text;
  if (out) return true;
  std::cerr << "ordo " << command << ": cannot write " << path << '\n';
  return false;
}

}  // namespace ordo::tools
