#include "checker/promela/spin_run.hpp"

#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace ordo::checker::promela {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// The shell's exit status of `command`, or -1 when it could not run.
int shell(const std::string& command) {
  const int status = std::system(command.c_str());
  if (status == -1 || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

std::string quoted(const fs::path& path) {
  std::string out = "'";
  for (const char c : path.string()) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out.push_back(c);
    }
  }
  return out + "'";
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void require_tool(const std::string& tool, const std::string& package) {
  if (shell("command -v " + tool + " > /dev/null 2>&1") != 0) {
    throw SpinError("'" + tool + "' is not on the PATH; install the Debian package " + package +
                    " (scripts/setup.sh does)");
  }
}

// A directory of its own under the system's temporary directory, removed on scope exit.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "ordo-spin-XXXXXX").string();
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (mkdtemp(buffer.data()) == nullptr) {
      throw SpinError("cannot create a temporary directory from " + pattern);
    }
    path_ = buffer.data();
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

double seconds_since(Clock::time_point begin) {
  return std::chrono::duration<double>(Clock::now() - begin).count();
}

// Runs `command` in `dir` with its output in `log`; throws SpinError with the log on failure.
double run_step(const TempDir& dir, const std::string& what, const std::string& command,
                const std::string& log) {
  const Clock::time_point begin = Clock::now();
  const int code = shell("cd " + quoted(dir.path()) + " && " + command + " > " + log + " 2>&1");
  const double seconds = seconds_since(begin);
  if (code != 0) {
    throw SpinError(what + " failed (exit " + std::to_string(code) + "):\n" +
                    read_text(dir.path() / log));
  }
  return seconds;
}

std::optional<std::string> capture(const std::string& text, const std::regex& pattern) {
  std::smatch match;
  if (!std::regex_search(text, match, pattern)) return std::nullopt;
  return match[1].str();
}

}  // namespace

std::string_view to_string(SpinVerdict verdict) {
  switch (verdict) {
    case SpinVerdict::safe:
      return "safe";
    case SpinVerdict::assertion:
      return "assertion violated";
    case SpinVerdict::invalid_end_state:
      return "invalid end state";
    case SpinVerdict::incomplete:
      return "incomplete";
    case SpinVerdict::model_error:
      return "model error";
  }
  return "?";
}

SpinResult parse_pan_output(const std::string& output, bool killed) {
  SpinResult r;
  r.pan_output = output;
  static const std::regex errors(R"(errors: (\d+))");
  static const std::regex stored(R"(([0-9.e+]+) states, stored)");
  static const std::regex transitions(R"(([0-9.e+]+) transitions \()");
  static const std::regex depth(R"(depth reached (\d+))");
  static const std::regex assertion(R"(assertion violated \(?([A-Za-z_0-9]+))");
  if (const auto v = capture(output, errors)) r.errors = std::stoull(*v);
  if (const auto v = capture(output, stored)) r.states_stored = std::stod(*v);
  if (const auto v = capture(output, transitions)) r.transitions = std::stod(*v);
  if (const auto v = capture(output, depth)) r.depth_reached = std::stoull(*v);
  const bool found_error = capture(output, errors).has_value();
  if (r.errors > 0) {
    if (const auto v = capture(output, assertion)) {
      r.verdict = SpinVerdict::assertion;
      r.assertion = *v;
    } else if (output.find("invalid end state") != std::string::npos) {
      r.verdict = SpinVerdict::invalid_end_state;
    } else {
      r.verdict = SpinVerdict::model_error;
    }
    return r;
  }
  if (killed) {
    r.incomplete_why = "the time limit";
  } else if (output.find("max search depth too small") != std::string::npos) {
    r.incomplete_why = "the search depth (-m)";
  } else if (output.find("MEMLIM") != std::string::npos ||
             output.find("out of memory") != std::string::npos) {
    r.incomplete_why = "the memory limit (-DMEMLIM)";
  } else if (!found_error) {
    r.incomplete_why = "pan ended without a verdict";
  }
  r.verdict = r.incomplete_why.empty() ? SpinVerdict::safe : SpinVerdict::incomplete;
  return r;
}

SpinResult run_spin(const std::string& promela, const SpinHints& hints,
                    const SpinOptions& options) {
  require_tool("spin", "spin");
  require_tool(options.compiler, "gcc");
  if (options.seconds_max > 0) require_tool("timeout", "coreutils");
  const TempDir dir;
  {
    std::ofstream out(dir.path() / "model.pml");
    out << promela;
    if (!out) throw SpinError("cannot write " + (dir.path() / "model.pml").string());
  }
  std::string spin = "spin";
  if (!options.report_p1) spin += " -DORDO_REPORT_P1=0";
  if (!options.report_p2) spin += " -DORDO_REPORT_P2=0";
  const double generate = run_step(dir, "spin -a", spin + " -a model.pml", "spin.log");
  const std::string cc = options.compiler + " " + options.optimization +
                         " -DSAFETY -DVECTORSZ=" + std::to_string(hints.vector_bytes) +
                         " -DMEMLIM=" + std::to_string(options.memory_mb) + " -o pan pan.c";
  const double compile = run_step(dir, "compiling pan.c", cc, "cc.log");
  std::string pan =
      "./pan -m" + std::to_string(hints.depth_max) + " -w" + std::to_string(options.hash_bits);
  if (!options.report_deadlocks) pan += " -E";
  if (options.seconds_max > 0) {
    // At most some 30 years: a longer bound never falls either, and the cast stays defined.
    const auto whole = static_cast<long long>(std::ceil(std::min(options.seconds_max, 1e9)));
    pan = "timeout --signal=KILL " + std::to_string(whole) + " " + pan;
  }
  const Clock::time_point begin = Clock::now();
  const int code = shell("cd " + quoted(dir.path()) + " && " + pan + " > pan.log 2>&1");
  const double search = seconds_since(begin);
  // timeout(1) exits 137 for a search it killed; pan itself exits 0 whatever it found.
  SpinResult r = parse_pan_output(read_text(dir.path() / "pan.log"), code == 137);
  r.generate_seconds = generate;
  r.compile_seconds = compile;
  r.search_seconds = search;
  return r;
}

}  // namespace ordo::checker::promela
