#include "runtime/train/job/job_messages.hpp"

#include <string>

#include "runtime/io/message_line.hpp"

namespace ordo::train {

void say_error(std::string_view what) { io::write_line("ordo train: error: " + std::string(what)); }

void say_rank_error(dag::Rank rank, std::string_view what) {
  say_rank(rank, "error: " + std::string(what));
}

void say_rank(dag::Rank rank, std::string_view what) {
  io::write_line("ordo train: rank " + std::to_string(rank) + ": " + std::string(what));
}

}  // namespace ordo::train
