// Verifies a DAG dump in-process through the installed library: the answer `ordo verify` gives,
// as a team's own tool or test would ask for it.
//   verify_dump DUMP [RANKS]
// Exits 0 safe, 1 unsafe, 2 bad input, 3 unknown, as `ordo verify` does.
#include <exception>
#include <iostream>
#include <string>

#include "checker/verify/verify.hpp"
#include "runtime/dag/dump_error.hpp"
#include "runtime/dag/dump_reader.hpp"

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: verify_dump DUMP [RANKS]\n";
    return 2;
  }
  try {
    const ordo::dag::Job job = ordo::dag::read_dump_file(argv[1]);
    const auto ranks = argc == 3 ? static_cast<std::uint32_t>(std::stoul(argv[2]))
                                 : job.ranks.value_or(2);
    const ordo::checker::System model(job, ranks);
    ordo::checker::VerifyOptions options;
    options.limits.seconds_max = 30.0;
    const ordo::checker::Verification v = ordo::checker::verify(model, options);
    std::cout << ordo::checker::human_report(model, v);
    switch (v.result.verdict) {
      case ordo::checker::Verdict::safe:
        return 0;
      case ordo::checker::Verdict::unsafe:
        return 1;
      case ordo::checker::Verdict::unknown:
        return 3;
    }
  } catch (const std::exception& e) {
    std::cerr << "verify_dump: " << e.what() << '\n';
    return 2;
  }
  return 3;
}
