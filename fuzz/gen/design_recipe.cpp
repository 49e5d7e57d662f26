#include "fuzz/gen/design_recipe.hpp"

#include "fuzz/gen/bounds.hpp"
#include "fuzz/gen/uniform.hpp"

namespace ordo::fuzz {

namespace {

constexpr std::uint32_t design_kinds = 9;

using designs::has_order_guard;

rc::Gen<std::uint32_t> threads() { return uniform<std::uint32_t>(1, bounds::threads_max + 1); }

designs::DesignConfig make_config(designs::DesignKind kind, designs::InitKind init,
                                  designs::BufferMode buffers, std::uint32_t compute,
                                  std::uint32_t copy, std::uint32_t comm, std::uint32_t ncomm,
                                  std::uint32_t outstanding) {
  designs::DesignConfig c;
  c.kind = kind;
  c.init = init;
  c.buffers = buffers;
  c.compute_threads = compute;
  c.copy_threads = copy;
  c.comm_threads = comm;
  c.ncomm = ncomm;
  c.outstanding = outstanding;
  return c;
}

}  // namespace

rc::Gen<DesignRecipe> design_recipes() {
  const auto configs = rc::gen::apply(
      make_config,
      rc::gen::element(designs::DesignKind::depcha, designs::DesignKind::funnel,
                       designs::DesignKind::concom, designs::DesignKind::naive,
                       designs::DesignKind::fused, designs::DesignKind::nonblocking,
                       designs::DesignKind::sharded, designs::DesignKind::hierarchical,
                       designs::DesignKind::priority),
      rc::gen::element(designs::InitKind::safe, designs::InitKind::fig4),
      rc::gen::element(designs::BufferMode::in_place, designs::BufferMode::copy), threads(),
      threads(), threads(), uniform<std::uint32_t>(1, bounds::ncomm_max + 1),
      uniform<std::uint32_t>(1, bounds::outstanding_max + 1));
  // Buckets of one key each, of a few keys, or of all of them; the guard left out now and then.
  const auto bucket_bytes = rc::gen::element<std::uint64_t>(1, 16, 64, 1024, 25u << 20);
  // priority: slices of one element up to whole keys, released one at a time or all at once.
  const auto slice_bytes = rc::gen::element<std::uint64_t>(4, 8, 16, 1u << 20);
  const auto credit_bytes = rc::gen::element<std::uint64_t>(4, 16, 1u << 20);
  const auto order_guard = rc::gen::weightedElement<bool>({{3, true}, {1, false}});
  // One step, or now and then two that run into each other (StepOptions::overlap).
  const auto overlapped = rc::gen::weightedElement<bool>({{4, false}, {1, true}});
  return rc::gen::apply(
      [](designs::DesignConfig config, std::uint64_t bucket, std::uint64_t slice,
         std::uint64_t credit, bool guard, bool include_init, bool overlap) {
        config.bucket_bytes = bucket;
        config.slice_bytes = slice;
        config.credit_bytes = credit;
        config.order_guard = guard || !has_order_guard(config.kind);
        designs::StepOptions step{include_init, overlap ? 2u : 1u, overlap};
        return DesignRecipe{config, step};
      },
      configs, bucket_bytes, slice_bytes, credit_bytes, order_guard, rc::gen::arbitrary<bool>(),
      overlapped);
}

rc::Gen<RankVariation> rank_variations() {
  // Mostly no departure, so that heterogeneous jobs are not all trivially unsafe.
  const auto some = rc::gen::build<RankVariation>(
      rc::gen::set(&RankVariation::design, uniform<std::uint32_t>(0, design_kinds + 1)),
      rc::gen::set(&RankVariation::comm_threads,
                   uniform<std::uint32_t>(0, bounds::threads_max + 1)),
      rc::gen::set(&RankVariation::compute_threads,
                   uniform<std::uint32_t>(0, bounds::threads_max + 1)),
      rc::gen::set(&RankVariation::flip_init,
                   rc::gen::weightedElement<bool>({{4, false}, {1, true}})),
      rc::gen::set(&RankVariation::count_delta,
                   rc::gen::weightedElement<std::uint64_t>({{4, 0}, {1, 1}})));
  return rc::gen::weightedOneOf<RankVariation>({{1, rc::gen::just(RankVariation{})}, {2, some}});
}

DesignRecipe vary(const DesignRecipe& base, const RankVariation& variation) {
  DesignRecipe r = base;
  if (variation.design > 0) {
    r.config.kind = static_cast<designs::DesignKind>((variation.design - 1) % design_kinds);
    if (!has_order_guard(r.config.kind)) r.config.order_guard = true;
  }
  if (variation.comm_threads > 0) r.config.comm_threads = variation.comm_threads;
  if (variation.compute_threads > 0) r.config.compute_threads = variation.compute_threads;
  if (variation.flip_init) r.step.include_init = !r.step.include_init;
  return r;
}

}  // namespace ordo::fuzz
