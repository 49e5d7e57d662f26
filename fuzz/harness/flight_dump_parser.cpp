// libFuzzer harness for the hang dump reader and `ordo analyze` (runtime/diag/). Any text must be
// refused with DumpError or read as a dump that writes back to text reading as the same dump;
// a dump that reads is then analyzed alone and beside a copy of itself as the next rank (which
// the analysis may refuse with AnalysisInputError, never anything else), and every report is
// rendered, since `ordo analyze` runs all of this on files a crashed job left behind.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "runtime/dag/dump_error.hpp"
#include "runtime/diag/analysis.hpp"
#include "runtime/diag/rank_dump_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ordo::diag::RankDump dump;
  try {
    dump = ordo::diag::read_rank_dump(text);
  } catch (const ordo::errors::InputError&) {
    return 0;
  }
  const std::string written = ordo::diag::write_rank_dump(dump);
  if (ordo::diag::write_rank_dump(ordo::diag::read_rank_dump(written)) != written) {
    std::fprintf(stderr, "flight_dump_parser: a dump does not read back as itself\n");
    std::abort();
  }
  std::vector<ordo::diag::RankDump> dumps{dump};
  for (int round = 0; round < 2; ++round) {
    try {
      const ordo::diag::Analysis a = ordo::diag::analyze(dumps);
      (void)ordo::diag::human_report(a);
      (void)ordo::diag::json_report(a);
      (void)ordo::diag::dot_report(a);
    } catch (const ordo::diag::AnalysisInputError&) {
    }
    ordo::diag::RankDump next = dump;
    next.rank = (dump.rank + 1) % dump.world_size;
    dumps.push_back(next);
  }
  return 0;
}
