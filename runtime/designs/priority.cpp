// priority (ByteScheduler, P3): a key is allreduced in slices of at most slice_bytes (calls with
// an offset into its buffer), and the slices go out earliest layer first. Backward produces the
// last layer's gradient first, but the next forward needs the first layer's weights first: once
// communication falls behind, a key of an earlier layer should overtake what is still waiting.
//
// The order must be the same on every rank, so it is fixed when the program is written, not by
// what happens to be ready: every slice op writes the chain token, so the engine issues them in
// submit order, as depcha issues its keys. What the design chooses is that submit order. At each
// push the new key's slices join the waiting ones, and slices are released, highest priority
// (lowest key, then lowest offset) first, until credit_bytes went out in this push; the rest
// wait for a later push, where a key of an earlier layer, pushed later, goes ahead of them. The
// end of backward releases everything left, earliest layer first, which is the order the next
// forward reads the weights in. Every rank makes the same pushes, so every rank releases the
// same slices at the same push: the choice depends on the program only.
//
// A key's sum is formed once its last slice is released; push returns it then, so its update
// follows its last slice, which may be many pushes later.
//
// Without the order guard the design is ByteScheduler as a hurried implementer would write it
// into a dependency engine: every slice is submitted at its key's push, without the chain, with
// its layer's priority, and the comm pool's priority queue picks the most urgent ready slice.
// What is ready when a thread frees differs between ranks, so the ranks issue different orders.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "runtime/designs/makers.hpp"

namespace ordo::designs {

namespace {

struct Slice {
  KeyVars key;
  std::uint64_t offset = 0;  // elements
  std::uint64_t count = 0;
  std::uint32_t index = 0;
  bool last = false;  // the key's last slice: its sum is formed once this one is released
};

// Higher runs first in a priority pool: earlier layers (lower keys) first.
std::int32_t slice_priority(const KeyVars& k) {
  constexpr std::int64_t lowest = std::numeric_limits<std::int32_t>::min() + 1;
  return static_cast<std::int32_t>(std::max(lowest, -k.key));
}

class Priority final : public Design {
 public:
  using Design::Design;

  std::vector<KeyVars> push(const KeyVars& k) override {
    std::vector<KeyVars> summed;
    // Pushed again while slices of its last push still wait: those go first, before this push
    // writes the buffer they read.
    if (waits(k)) summed = release_all();
    push_into_buffer(k, /*main_waits=*/false);
    std::vector<Slice> slices = slices_of(k);
    if (!config().order_guard) {
      for (const Slice& s : slices) submit(s);
      return {k};
    }
    waiting_.insert(waiting_.end(), slices.begin(), slices.end());
    std::stable_sort(waiting_.begin(), waiting_.end(), [](const Slice& a, const Slice& b) {
      return a.key.key != b.key.key ? a.key.key < b.key.key : a.offset < b.offset;
    });
    std::uint64_t released = 0;
    std::size_t n = 0;
    while (n < waiting_.size() && released < config().credit_bytes) {
      released += bytes(waiting_[n]);
      if (submit(waiting_[n])) summed.push_back(waiting_[n].key);
      ++n;
    }
    waiting_.erase(waiting_.begin(), waiting_.begin() + static_cast<std::ptrdiff_t>(n));
    return summed;
  }

  void pull(const KeyVars& k) override {
    if (waits(k)) release_all();
    Design::pull(k);
  }

  std::vector<KeyVars> flush() override { return release_all(); }

 private:
  bool waits(const KeyVars& k) const {
    return std::any_of(waiting_.begin(), waiting_.end(),
                       [&](const Slice& s) { return s.key.key == k.key; });
  }

  std::vector<KeyVars> release_all() {
    std::vector<KeyVars> summed;
    for (const Slice& s : waiting_) {
      if (submit(s)) summed.push_back(s.key);
    }
    waiting_.clear();
    return summed;
  }

  std::vector<Slice> slices_of(const KeyVars& k) const {
    const std::uint64_t element = dag::dtype_bytes(k.dtype);
    const std::uint64_t per_slice = std::max<std::uint64_t>(1, config().slice_bytes / element);
    std::vector<Slice> slices;
    std::uint64_t offset = 0;
    do {
      const std::uint64_t count = std::min(per_slice, k.count - offset);
      slices.push_back({k, offset, count, static_cast<std::uint32_t>(slices.size()), false});
      offset += count;
    } while (offset < k.count);
    slices.back().last = true;
    return slices;
  }

  static std::uint64_t bytes(const Slice& s) { return s.count * dag::dtype_bytes(s.key.dtype); }

  // Submits the slice's allreduce; returns whether it was its key's last.
  bool submit(const Slice& s) {
    dag::Collective c = allreduce(s.key, world_comm);
    c.count = s.count;
    c.offset = s.offset;
    const bool whole = s.last && s.index == 0;
    const std::string what = whole ? "allreduce" : "allreduce_slice" + std::to_string(s.index);
    std::vector<dag::VarId> writes{s.key.buf};
    if (config().order_guard) writes.push_back(chain());
    dag::Op op = collective_op(op_name(what.c_str(), s.key), c, {}, writes);
    op.priority = slice_priority(s.key);
    main().submit(op);
    return s.last;
  }

  dag::VarId chain() {
    if (!chain_) chain_ = add_token("allreduce.chain");
    return *chain_;
  }

  std::vector<Slice> waiting_;  // released at a later push or at the end of backward
  std::optional<dag::VarId> chain_;
};

}  // namespace

std::unique_ptr<Design> make_priority(const DesignConfig& config, dag::ProgramSink& main,
                                      dag::Rank rank) {
  return std::make_unique<Priority>(config, main, rank);
}

}  // namespace ordo::designs
