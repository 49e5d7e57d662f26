#include "runtime/checkpoint/checkpoint_dir.hpp"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "runtime/checkpoint/checkpoint_error.hpp"
#include "runtime/io/atomic_file.hpp"
#include "runtime/io/input_file.hpp"

namespace ordo::checkpoint {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view step_prefix = "step-";

std::optional<std::uint64_t> parse_step(std::string_view text) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

}  // namespace

std::string step_dir(const std::string& dir, std::uint64_t step) {
  return (fs::path(dir) / (std::string(step_prefix) + std::to_string(step))).string();
}

std::string latest_path(const std::string& dir) { return (fs::path(dir) / "latest").string(); }

std::string rank_file(const std::string& dir, std::uint64_t step, std::uint32_t rank) {
  return (fs::path(step_dir(dir, step)) / ("rank-" + std::to_string(rank) + ".ckpt")).string();
}

void prepare_step(const std::string& dir, std::uint64_t step) {
  fs::create_directories(step_dir(dir, step));
}

void commit(const std::string& dir, std::uint64_t step) {
  const std::optional<std::uint64_t> previous = latest(dir);
  const std::string latest = latest_path(dir);
  io::write_file_atomically(latest, std::to_string(step) + "\n");
  // A commit killed between writing and renaming its temporary left it beside `latest`, where
  // no later rename replaces it: rank 0 alone writes `latest`, so a dead process's is stale.
  io::remove_stale_temporaries(latest);
  std::vector<fs::path> stale;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (!e.is_directory() || !name.starts_with(step_prefix)) continue;
    const std::optional<std::uint64_t> s = parse_step(std::string_view(name).substr(5));
    if (!s || *s == step || (previous && *s == *previous)) continue;
    stale.push_back(e.path());
  }
  for (const fs::path& p : stale) fs::remove_all(p);
  io::sync_directory(dir);
}

std::optional<std::uint64_t> latest(const std::string& dir) {
  const fs::path path = latest_path(dir);
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (!fs::exists(status)) return std::nullopt;
  // Opening a FIFO would wait for a writer for ever; a directory reads as nothing.
  if (std::optional<io::InputProblem> problem =
          io::input_file_problem(path, "file holding one step number (what commit writes)")) {
    throw CheckpointError(path.string(), problem->problem, problem->expected);
  }
  std::ifstream in(path);
  std::string text;
  // A step number is short; reading a bounded prefix keeps a hostile file from filling memory.
  text.resize(32);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (!text.empty() && text.back() == '\n') text.pop_back();
  const std::optional<std::uint64_t> step = parse_step(text);
  if (!step) {
    throw CheckpointError(path.string(), "it holds '" + text + "'",
                          "one step number (what commit writes)");
  }
  return step;
}

}  // namespace ordo::checkpoint
