#include "runtime/train/job/metrics_file.hpp"

#include <stdexcept>
#include <system_error>

namespace ordo::train {

io::LineFile MetricsFile::open(const std::string& path, bool append) {
  try {
    return io::LineFile(path, append);
  } catch (const std::system_error& e) {
    throw std::runtime_error("cannot open metrics file '" + path + "': " + e.code().message());
  }
}

MetricsFile::MetricsFile(const std::string& path, bool append) : file_(open(path, append)) {}

void MetricsFile::write(const nlohmann::json& event) {
  try {
    file_.write(event.dump());
  } catch (const std::system_error& e) {
    throw std::runtime_error("cannot write metrics file '" + file_.path() +
                             "': " + e.code().message());
  }
}

nlohmann::json step_event(const StepReport& r, std::uint32_t ranks) {
  return {
      {"event", "step"},
      {"epoch", r.epoch + 1},
      {"step", r.step},
      {"step_in_epoch", r.step_in_epoch},
      {"loss", r.loss},
      {"seconds", r.seconds},
      {"images_per_s", r.seconds > 0 ? static_cast<double>(r.images) * ranks / r.seconds : 0.0}};
}

nlohmann::json epoch_event(const EpochReport& r) {
  nlohmann::json e = {{"event", "epoch"},
                      {"epoch", r.epoch + 1},
                      {"train_loss", r.train_loss},
                      {"train_accuracy", r.train_accuracy},
                      {"seconds", r.seconds}};
  e["test_accuracy"] = r.test_accuracy ? nlohmann::json(*r.test_accuracy) : nlohmann::json();
  return e;
}

}  // namespace ordo::train
