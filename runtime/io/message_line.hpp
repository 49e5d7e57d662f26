// A message as one line in one write(2): the ranks of a job share a terminal or a log through
// mpirun, which forwards what each rank writes as it arrives, so a message written in pieces (as
// std::cerr writes each << on its own) can be cut in the middle by another rank's.
#pragma once

#include <string_view>

namespace ordo::io {

// Writes `text` and a newline to `fd` (standard error by default) in one call; a pipe takes a
// write of up to PIPE_BUF (4 KiB) bytes whole. A failed write is not reported: there is nowhere
// left to report it.
void write_line(std::string_view text, int fd = 2);

}  // namespace ordo::io
