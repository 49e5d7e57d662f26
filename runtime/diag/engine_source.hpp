// The engine side of a flight recorder's dump: the engine's state and the main thread's position,
// read from a live engine and executor, attached for as long as they run.
#pragma once

#include <string>

#include "runtime/diag/flight_recorder.hpp"
#include "runtime/engine/engine.hpp"
#include "runtime/exec/executor.hpp"

namespace ordo::diag {

// Both must outlive the source's attachment.
StateSource engine_source(engine::Engine& engine, exec::Executor& executor, std::string program);

// Attaches `source` to `recorder` (when not null) and detaches it on destruction, before the
// engine and executor it reads go.
class AttachedSource {
 public:
  AttachedSource(FlightRecorder* recorder, StateSource source);
  ~AttachedSource();
  AttachedSource(const AttachedSource&) = delete;
  AttachedSource& operator=(const AttachedSource&) = delete;

 private:
  FlightRecorder* recorder_;
};

}  // namespace ordo::diag
