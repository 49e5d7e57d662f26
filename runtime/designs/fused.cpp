// fused (PyTorch DDP's buckets, Horovod's fusion buffer): keys are packed, in push order, into
// buckets of about bucket_bytes, and each bucket is summed by one allreduce instead of one per key.
// A bucket is closed when it is full, before a key of another dtype or one that fills a bucket
// by itself, at a pull of one of its keys and at the end of the step. Then a copy op packs its
// keys' buffers (their gradients, in place) into the bucket, as soon as the last is written; an
// engine op allreduces the bucket, writing the chain token that orders the buckets' allreduces in
// submit order on every rank, as depcha orders keys; and a copy op unpacks the sum into the keys'
// buffers. A bucket of one key skips the copies: its key is reduced in its own buffer, so keys of
// bucket_bytes or more cost what they cost in depcha. Without the order guard (no chain) two closed
// buckets may be issued in either order by a comm pool of several threads.
#include <algorithm>
#include <map>
#include <optional>
#include <vector>

#include "runtime/designs/makers.hpp"

namespace ordo::designs {

namespace {

class Fused final : public Design {
 public:
  using Design::Design;

  std::vector<KeyVars> push(const KeyVars& k) override {
    std::vector<KeyVars> summed;
    // A key pushed again before its bucket closed: the earlier push's bucket goes first, before
    // this push's copy could overwrite the buffer it packs.
    if (holds(k)) summed = close();
    // With copy buffers the key's gradient is copied at its push, not when its bucket closes: a
    // KVStore user may write the gradient again before the pull, and the sum is of the value
    // pushed. In place there is nothing to copy; the sum is formed in the pushed var itself.
    push_into_buffer(k, /*main_waits=*/false);
    const std::uint64_t bytes = k.count * dag::dtype_bytes(k.dtype);
    // A key that fills a bucket by itself goes alone, behind the keys before it.
    if (!open_.empty() && (open_.front().dtype != k.dtype || bytes >= config().bucket_bytes)) {
      append(summed, close());
    }
    open_.push_back(k);
    open_bytes_ += bytes;
    if (open_bytes_ >= config().bucket_bytes) append(summed, close());
    return summed;
  }

  void pull(const KeyVars& k) override {
    if (holds(k)) close();
    Design::pull(k);
  }

  bool holds(const KeyVars& k) const {
    return std::any_of(open_.begin(), open_.end(),
                       [&](const KeyVars& o) { return o.key == k.key; });
  }

  static void append(std::vector<KeyVars>& to, const std::vector<KeyVars>& more) {
    to.insert(to.end(), more.begin(), more.end());
  }

  std::vector<KeyVars> flush() override { return close(); }

  std::vector<KeyVars> end_step() override {
    std::vector<KeyVars> summed = close();
    ordinal_ = 0;
    return summed;
  }

 private:
  // Submits the open bucket's pack, allreduce and unpack; returns its keys.
  std::vector<KeyVars> close() {
    if (open_.empty()) return {};
    if (open_.size() == 1) return close_alone();
    const dag::VarId bucket = bucket_var();
    const std::string name = "bucket" + std::to_string(ordinal_++);
    dag::Op pack;
    pack.name = op_prefix() + "pack." + name;
    pack.kind = dag::OpKind::copy;
    pack.pool = copy_pool;
    for (const KeyVars& k : open_) pack.reads.push_back(k.buf);
    pack.writes = {bucket};
    main().submit(pack);

    std::uint64_t count = 0;
    for (const KeyVars& k : open_) count += k.count;
    const dag::Collective sum{dag::CollectiveKind::allreduce,
                              world_comm,
                              open_.front().key,
                              count,
                              open_.front().dtype,
                              dag::Reduction::sum,
                              std::nullopt};
    main().submit(collective_op(op_prefix() + "allreduce." + name, sum, {}, chained(bucket)));

    dag::Op unpack;
    unpack.name = op_prefix() + "unpack." + name;
    unpack.kind = dag::OpKind::copy;
    unpack.pool = copy_pool;
    unpack.reads = {bucket};
    for (const KeyVars& k : open_) unpack.writes.push_back(k.buf);
    main().submit(unpack);

    std::vector<KeyVars> summed = std::move(open_);
    open_.clear();
    open_bytes_ = 0;
    return summed;
  }

  // A bucket of one key (a key of bucket_bytes or more, or the last one left) has nothing to
  // pack: the key's own buffer is reduced, in its place in the chain, as depcha reduces it.
  std::vector<KeyVars> close_alone() {
    const KeyVars k = open_.front();
    ++ordinal_;
    main().submit(
        collective_op(op_name("allreduce", k), allreduce(k, world_comm), {}, chained(k.buf)));
    open_.clear();
    open_bytes_ = 0;
    return {k};
  }

  // `var` and, with the order guard, the chain token: what a bucket's allreduce writes.
  std::vector<dag::VarId> chained(dag::VarId var) {
    std::vector<dag::VarId> writes{var};
    if (config().order_guard) {
      if (!chain_) chain_ = add_token("allreduce.chain");
      writes.push_back(*chain_);
    }
    return writes;
  }

  // The bucket var of the open keys: one per set of keys, so every step packs into the same vars.
  dag::VarId bucket_var() {
    std::vector<std::int64_t> ids;
    for (const KeyVars& k : open_) ids.push_back(k.key);
    auto it = buckets_.find(ids);
    if (it != buckets_.end()) return it->second;
    const dag::VarId var =
        main().add_var(dag::Var{"bucket." + std::to_string(buckets_.size()), dag::VarKind::buffer,
                                open_bytes_, open_.front().dtype});
    buckets_.emplace(std::move(ids), var);
    return var;
  }

  std::vector<KeyVars> open_;
  std::uint64_t open_bytes_ = 0;
  std::uint32_t ordinal_ = 0;  // buckets closed in this step, for op names
  std::map<std::vector<std::int64_t>, dag::VarId> buckets_;
  std::optional<dag::VarId> chain_;
};

}  // namespace

std::unique_ptr<Design> make_fused(const DesignConfig& config, dag::ProgramSink& main,
                                   dag::Rank rank) {
  return std::make_unique<Fused>(config, main, rank);
}

}  // namespace ordo::designs
