#include "runtime/train/job/progress.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <ostream>

namespace ordo::train {

namespace {

constexpr double redraw_seconds = 0.2;
constexpr int bar_width = 24;

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

bool output_is_terminal() {
  if (std::getenv("OMPI_COMM_WORLD_SIZE") == nullptr) return ::isatty(STDOUT_FILENO) == 1;
  std::error_code ec;
  const std::filesystem::path out = std::filesystem::read_symlink(
      "/proc/" + std::to_string(::getppid()) + "/fd/" + std::to_string(STDOUT_FILENO), ec);
  if (ec) return false;
  const std::string name = out.string();
  return name.starts_with("/dev/pts/") || name.starts_with("/dev/tty");
}

std::string clock_text(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  const auto s = static_cast<std::uint64_t>(std::llround(seconds));
  char buf[64];
  if (s >= 3600) {
    std::snprintf(buf, sizeof buf, "%llu:%02llu:%02llu", static_cast<unsigned long long>(s / 3600),
                  static_cast<unsigned long long>(s / 60 % 60),
                  static_cast<unsigned long long>(s % 60));
  } else {
    std::snprintf(buf, sizeof buf, "%llu:%02llu", static_cast<unsigned long long>(s / 60),
                  static_cast<unsigned long long>(s % 60));
  }
  return buf;
}

TrainProgress::TrainProgress(std::ostream& out, bool terminal, std::uint32_t ranks,
                             std::uint32_t epochs)
    : out_(out), terminal_(terminal), ranks_(ranks), epochs_(epochs) {}

void TrainProgress::step(const StepReport& r) {
  if (!started_) {
    first_step_ = r.step - 1;
    started_ = true;
  }
  const std::uint64_t done = r.step - first_step_;
  const double rate = r.seconds > 0 ? static_cast<double>(r.images) * ranks_ / r.seconds : 0.0;
  const double eta = done == 0 ? NAN
                               : r.seconds / static_cast<double>(done) *
                                     static_cast<double>(r.steps_total - r.step);
  const bool last = r.step_in_epoch == r.steps_per_epoch || r.step == r.steps_total;
  const std::string head = "epoch " + std::to_string(r.epoch + 1) + "/" + std::to_string(epochs_);
  if (terminal_) {
    if (!last && r.seconds - last_draw_ < redraw_seconds) return;
    last_draw_ = r.seconds;
    const int filled = static_cast<int>(bar_width * static_cast<double>(r.step_in_epoch) /
                                        static_cast<double>(r.steps_per_epoch));
    out_ << '\r' << head << " [" << std::string(static_cast<std::size_t>(filled), '#')
         << std::string(static_cast<std::size_t>(bar_width - filled), '.') << "] "
         << r.step_in_epoch << '/' << r.steps_per_epoch << "  " << fixed(rate, 0)
         << " images/s  loss " << fixed(r.loss, 4) << "  ETA " << clock_text(eta) << "   "
         << std::flush;
    return;
  }
  const std::uint32_t every = std::max<std::uint32_t>(1, r.steps_per_epoch / 10);
  if (r.step_in_epoch % every != 0 && !last) return;
  out_ << head << " step " << r.step_in_epoch << '/' << r.steps_per_epoch << ": " << fixed(rate, 0)
       << " images/s, loss " << fixed(r.loss, 4) << ", ETA " << clock_text(eta) << '\n'
       << std::flush;
}

void TrainProgress::epoch(const EpochReport& r) {
  if (terminal_) out_ << '\n';
  out_ << "epoch " << r.epoch + 1 << "/" << epochs_ << ": train loss " << fixed(r.train_loss, 4)
       << ", train accuracy " << fixed(100 * r.train_accuracy, 2) << "%";
  if (r.test_accuracy) out_ << ", test accuracy " << fixed(100 * *r.test_accuracy, 2) << "%";
  out_ << " (" << fixed(r.seconds, 1) << " s)\n" << std::flush;
  last_draw_ = -1.0;
}

}  // namespace ordo::train
