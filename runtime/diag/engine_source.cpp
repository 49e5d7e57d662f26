#include "runtime/diag/engine_source.hpp"

#include <chrono>
#include <utility>

namespace ordo::diag {

StateSource engine_source(engine::Engine& engine, exec::Executor& executor, std::string program) {
  StateSource source;
  source.program = std::move(program);
  source.main = [&executor] {
    const exec::MainPosition p = executor.main_position();
    return MainView{p.state, p.what, p.since};
  };
  // A second is plenty: the engine's lock is held for microseconds at a time.
  source.engine = [&engine] { return engine.snapshot(std::chrono::seconds(1)); };
  return source;
}

AttachedSource::AttachedSource(FlightRecorder* recorder, StateSource source) : recorder_(recorder) {
  if (recorder_ != nullptr) recorder_->attach(std::move(source));
}

AttachedSource::~AttachedSource() {
  if (recorder_ != nullptr) recorder_->detach();
}

}  // namespace ordo::diag
