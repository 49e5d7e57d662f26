#include "runtime/io/message_line.hpp"

#include <unistd.h>

#include <cerrno>
#include <string>

namespace ordo::io {

void write_line(std::string_view text, int fd) {
  std::string line(text);
  line.push_back('\n');
  std::size_t done = 0;
  // Only a write cut short (a message longer than the pipe takes at once) takes a second call.
  while (done < line.size()) {
    const ssize_t n = ::write(fd, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace ordo::io
