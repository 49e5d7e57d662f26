#include "checker/search/memory.hpp"

#include <unistd.h>

#include <fstream>

namespace ordo::checker {

std::uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t total_pages = 0;
  std::uint64_t resident_pages = 0;
  if (!(statm >> total_pages >> resident_pages)) return 0;
  const long page = sysconf(_SC_PAGESIZE);
  return page > 0 ? resident_pages * static_cast<std::uint64_t>(page) : 0;
}

}  // namespace ordo::checker
