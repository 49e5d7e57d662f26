#include "fuzz/lib/case_files.hpp"

#include <filesystem>

#include "checker/witness/trace_io.hpp"
#include "runtime/dag/dump_writer.hpp"

namespace ordo::fuzz {

namespace {

// A path as a shell reads it back: as it is when it holds nothing a shell would split or expand.
std::string shell_word(const std::string& word) {
  const bool plain = !word.empty() && word.find_first_not_of(
                                          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                          "0123456789_./-+=:,@%") == std::string::npos;
  if (plain) return word;
  std::string quoted = "'";
  for (const char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

CaseFiles write_case_files(const std::string& out_dir, const FuzzCase& fuzz_case,
                           const checker::System& model,
                           const std::optional<checker::Result>& witness, const FileWriter& write) {
  CaseFiles files;
  const std::filesystem::path dir(out_dir);
  files.dump_path = (dir / (fuzz_case.name + ".dump.json")).string();
  if (witness) files.trace_path = (dir / (fuzz_case.name + ".trace.json")).string();
  files.dump_text = dag::write_dump(fuzz_case.job);
  if (write) {
    files.written = write(files.dump_path, files.dump_text);
    if (witness) {
      files.written =
          write(files.trace_path, checker::write_trace(model, *witness)) && files.written;
    }
  }
  // The dump of a job that fixes no rank count is checked at 2 ranks unless told otherwise; the
  // trace carries its own rank count and backend.
  std::string verify = "ordo verify " + shell_word(files.dump_path);
  if (!fuzz_case.job.ranks) verify += " --ranks " + std::to_string(fuzz_case.ranks);
  if (model.backend() != comm::Backend::mpi) {
    verify += " --backend " + std::string(comm::to_string(model.backend()));
  }
  files.reproduce.push_back(verify);
  if (witness) {
    files.reproduce.push_back("ordo replay " + shell_word(files.dump_path) + " --trace " +
                              shell_word(files.trace_path));
  }
  return files;
}

std::vector<std::string> witness_lines(const checker::System& model,
                                       const checker::Result& result) {
  std::vector<std::string> lines;
  const std::vector<checker::WitnessStep> steps = checker::witness_steps(model, result.witness);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    lines.push_back(std::to_string(i + 1) + ". " + steps[i].what);
  }
  return lines;
}

}  // namespace ordo::fuzz
