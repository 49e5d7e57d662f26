// Fingerprint records: every call survives the exchange's bytes, garbage is refused rather than
// read as a call, and the grouping decides agreement exactly as comm::matches does.
#include "runtime/comm/rules/fingerprint.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

namespace ordo::comm {
namespace {

using dag::CollectiveKind;
using dag::DType;
using dag::Reduction;

Fingerprint allreduce(std::int64_t key, std::uint64_t count = 4, bool blocks = true) {
  return Fingerprint{
      Call{CollectiveKind::allreduce, key, count, DType::f32, Reduction::sum, std::nullopt},
      blocks};
}

Fingerprint barrier(std::int64_t key, DType dtype) {
  return Fingerprint{Call{CollectiveKind::barrier, key, 0, dtype, Reduction::none, std::nullopt},
                     true};
}

TEST(Fingerprint, EveryFieldSurvivesTheRecord) {
  const std::vector<Fingerprint> prints = {
      allreduce(0),
      allreduce(-1, 0, false),
      allreduce(std::numeric_limits<std::int64_t>::min(),
                std::numeric_limits<std::uint64_t>::max()),
      Fingerprint{Call{CollectiveKind::bcast, 42, 9, DType::bf16, Reduction::none, 0}, false},
      Fingerprint{Call{CollectiveKind::bcast, 42, 9, DType::i64, Reduction::none,
                       std::numeric_limits<dag::Rank>::max()},
                  true},
      barrier(-1, DType::u8),
      Fingerprint{Call{CollectiveKind::allreduce, 3, 1, DType::f64, Reduction::max, std::nullopt},
                  true},
      Fingerprint{Call{CollectiveKind::reduce, 5, 6, DType::f32, Reduction::prod, 3}, false},
      Fingerprint{
          Call{CollectiveKind::reduce_scatter, 6, 12, DType::i32, Reduction::sum, std::nullopt},
          true},
      Fingerprint{Call{CollectiveKind::allgather, 7, 12, DType::f16, Reduction::none, std::nullopt},
                  false},
      Fingerprint{Call{CollectiveKind::allreduce, 8, 4, DType::f32, Reduction::sum, std::nullopt,
                       std::numeric_limits<std::uint64_t>::max()},
                  true}};
  for (const Fingerprint& p : prints) {
    const FingerprintRecord record = encode(p);
    EXPECT_EQ(decode(record), p) << describe(p, "c");
  }
}

TEST(Fingerprint, TheRecordIsTheSameBytesForTheSameCall) {
  EXPECT_EQ(encode(allreduce(5)), encode(allreduce(5)));
  EXPECT_NE(encode(allreduce(5)), encode(allreduce(5, 4, false)));
  EXPECT_NE(encode(allreduce(5)), encode(allreduce(6)));
  Fingerprint sliced = allreduce(5);
  sliced.call.offset = 4;
  EXPECT_NE(encode(allreduce(5)), encode(sliced));
}

// Two slices of one key at different offsets combine different elements: they do not agree,
// in the record's comparison as in every other (docs/semantics.md, C2).
TEST(Fingerprint, SlicesAtDifferentOffsetsDisagree) {
  Fingerprint first = allreduce(5);
  Fingerprint second = allreduce(5);
  second.call.offset = 4;
  const std::vector<Fingerprint> prints = {first, second};
  EXPECT_EQ(group_by_call(prints).size(), 2u);
  EXPECT_NE(describe(second, "c").find("from element 4"), std::string::npos)
      << describe(second, "c");
}

TEST(Fingerprint, GarbageIsRefused) {
  FingerprintRecord kind = encode(allreduce(1));
  kind[0] = std::byte{200};
  EXPECT_THROW(decode(kind), std::invalid_argument);
  FingerprintRecord dtype = encode(allreduce(1));
  dtype[1] = std::byte{99};
  EXPECT_THROW(decode(dtype), std::invalid_argument);
  FingerprintRecord flags = encode(allreduce(1));
  flags[3] = std::byte{0x80};
  EXPECT_THROW(decode(flags), std::invalid_argument);
  FingerprintRecord padding = encode(allreduce(1));
  padding[5] = std::byte{1};
  EXPECT_THROW(decode(padding), std::invalid_argument);
  FingerprintRecord root = encode(allreduce(1));
  root[24] = std::byte{3};  // a root value without the flag that says there is one
  EXPECT_THROW(decode(root), std::invalid_argument);
}

TEST(Fingerprint, GroupsFollowTheAgreementRule) {
  // Barriers agree whatever their labels; blocking never agrees with non-blocking.
  const std::vector<Fingerprint> barriers = {barrier(1, DType::f32), barrier(2, DType::i8)};
  EXPECT_EQ(group_by_call(barriers).size(), 1u);
  const std::vector<Fingerprint> forms = {allreduce(1), allreduce(1, 4, false), allreduce(1)};
  const std::vector<FingerprintGroup> groups = group_by_call(forms);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].ranks, (std::vector<std::uint32_t>{0, 2}));
  EXPECT_EQ(groups[1].ranks, (std::vector<std::uint32_t>{1}));
  EXPECT_EQ(describe_divergence(groups, "grads"),
            "ranks 0,2 issued allreduce of 4 x f32 (sum) on 'grads', key 1, blocking; rank 1 "
            "issued allreduce of 4 x f32 (sum) on 'grads', key 1, non-blocking");
}

TEST(Fingerprint, GroupingAgreesWithMatchesOnEveryPair) {
  const auto reduce = [](dag::Rank root) {
    return Fingerprint{Call{CollectiveKind::reduce, 1, 4, DType::f32, Reduction::sum, root}, true};
  };
  const auto block_kind = [](CollectiveKind kind, Reduction reduction) {
    return Fingerprint{Call{kind, 1, 4, DType::f32, reduction, std::nullopt}, true};
  };
  const std::vector<Fingerprint> all = {allreduce(1),
                                        allreduce(2),
                                        allreduce(1, 8),
                                        allreduce(1, 4, false),
                                        barrier(1, DType::f32),
                                        barrier(9, DType::f64),
                                        reduce(0),
                                        reduce(1),
                                        block_kind(CollectiveKind::reduce_scatter, Reduction::sum),
                                        block_kind(CollectiveKind::reduce_scatter, Reduction::max),
                                        block_kind(CollectiveKind::allgather, Reduction::none)};
  for (const Fingerprint& a : all) {
    for (const Fingerprint& b : all) {
      const std::vector<Fingerprint> pair = {a, b};
      EXPECT_EQ(group_by_call(pair).size() == 1, matches(a.call, a.blocks, b.call, b.blocks))
          << describe(a, "c") << " / " << describe(b, "c");
    }
  }
}

}  // namespace
}  // namespace ordo::comm
