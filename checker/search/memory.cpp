#include "checker/search/memory.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>

namespace ordo::checker {

// Read with plain system calls rather than a stream: a search reads it every few thousand
// transitions and once before it starts, where a stream's setup would cost more than a small
// search.
std::uint64_t resident_bytes() {
  const int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char text[128];
  const ssize_t got = ::read(fd, text, sizeof text - 1);
  ::close(fd);
  if (got <= 0) return 0;
  text[got] = '\0';
  // "total resident shared ...", in pages.
  char* end = nullptr;
  std::strtoull(text, &end, 10);
  if (end == text) return 0;
  const char* resident_at = end;
  const unsigned long long resident_pages = std::strtoull(resident_at, &end, 10);
  if (end == resident_at) return 0;
  const long page = sysconf(_SC_PAGESIZE);
  return page > 0 ? static_cast<std::uint64_t>(resident_pages) * static_cast<std::uint64_t>(page)
                  : 0;
}

}  // namespace ordo::checker
