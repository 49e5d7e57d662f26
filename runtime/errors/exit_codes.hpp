// The exit codes of every ordo command and job, each with one meaning everywhere, so that a CI
// step or a job scheduler can act on the number alone (docs/checker.md, docs/diagnostics.md).
#pragma once

namespace ordo::exit_codes {

inline constexpr int ok = 0;
// verify: a property fails (with a witness); replay: the run did not end as the trace says;
// train: the target accuracy was not reached.
inline constexpr int unsafe = 1;
inline constexpr int bad_input = 2;  // every command: the input, an option or an output is bad
inline constexpr int unknown = 3;    // a bound was hit before an answer
// fuzz: the checker and the runtime contradict each other (a bug in ordo, or in the job's model).
inline constexpr int disagreement = 4;
// A job that fingerprint mode ended: its ranks' collectives diverged before one was issued.
inline constexpr int collective_mismatch = 5;
// A job that its watchdog ended: a rank waited in a collective past --hang-timeout.
inline constexpr int hang = 6;

}  // namespace ordo::exit_codes
