// How the ranks of a job commit one checkpoint together, so that a resume never mixes steps:
// every rank writes DIR/step-<N>/rank-<R>.ckpt (each file atomically), the ranks meet at a
// barrier, and only then rank 0 replaces DIR/latest, which names N, atomically. A crash before
// that rename leaves `latest` at the previous step, whose files are all whole. Committing step N
// removes every step directory but N's and the one `latest` named before, so the previous
// checkpoint is kept while the new one is the latest.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ordo::checkpoint {

std::string step_dir(const std::string& dir, std::uint64_t step);
// "DIR/latest".
std::string latest_path(const std::string& dir);
std::string rank_file(const std::string& dir, std::uint64_t step, std::uint32_t rank);

// Creates the step's directory (and DIR) if needed. Throws std::system_error or
// std::filesystem::filesystem_error naming the path.
void prepare_step(const std::string& dir, std::uint64_t step);

// Rank 0, after every rank's file of `step` is written: points DIR/latest at it, removes the
// step directories older than the previous latest and the temporaries of `latest` that an
// earlier commit, killed half way, left (io::remove_stale_temporaries). Throws what the writes
// throw.
void commit(const std::string& dir, std::uint64_t step);

// The step DIR/latest names; nullopt when there is none. Throws CheckpointError for a `latest`
// that is a directory or another file that is not regular, or that does not hold one decimal
// step number.
std::optional<std::uint64_t> latest(const std::string& dir);

}  // namespace ordo::checkpoint
