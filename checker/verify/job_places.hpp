// Where a part of a verified job is, for reports that point into it: an op or a main-thread
// action of a rank's program, as a JSON pointer into the dump ("/programs/1/ops/5"), as lines and
// columns in the dump's text, and as a name for a job that has no file (a design's step on a
// network). A violation names its parties as (rank, "main" or the op's name) and a witness its
// transitions by op id and main position; both are turned into parts here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checker/system/system.hpp"
#include "report/json_locate.hpp"
#include "report/sarif.hpp"
#include "runtime/dag/transition.hpp"

namespace ordo::checker {

// Where the verified job came from.
struct JobSource {
  std::string name;       // how reports name the job: the dump's path, or "depcha(...) on mlp"
  std::string dump_path;  // the dump as the user named it; empty: the job has no file
  std::string dump_text;  // the dump's text, to place regions in; empty: no regions
};

// An op of a rank's program, or one of its main-thread actions.
struct ProgramPart {
  dag::Rank rank = 0;
  std::optional<dag::OpId> op;          // an op, or
  std::optional<std::uint32_t> action;  // the index of a main-thread action
};

// The part each witness transition is in: its op, or for a main transition the action at the
// rank's main position then (each main transition takes one action).
std::vector<ProgramPart> witness_parts(const System& model,
                                       const std::vector<dag::Transition>& witness);

// The part that issued a violation's call: the op of that name, or for "main" the last
// collective action on `comm_name` the rank's main thread took in the witness (`witness` as
// witness_parts gives it). nullopt when neither is there.
std::optional<ProgramPart> party_part(const System& model, const std::vector<ProgramPart>& witness,
                                      dag::Rank rank, std::string_view party,
                                      std::string_view comm_name);

class JobPlaces {
 public:
  // `model` and `source` must outlive this.
  JobPlaces(const System& model, const JobSource& source);

  // The part's JSON pointer in a dump of the model's job: "/programs/P/ops/K" or
  // "/programs/P/main/K", P the index of the rank's program among the job's.
  std::string pointer(const ProgramPart& part) const;
  // The part as a SARIF location with `message`: in the dump (with the region of its JSON value
  // when the text has it) and by name ("<job>: program 'p', op 'o'") in any case.
  report::SarifLocation location(const ProgramPart& part, std::string message);

 private:
  const System& model_;
  const JobSource& source_;
  std::optional<report::JsonLocator> locator_;
};

}  // namespace ordo::checker
