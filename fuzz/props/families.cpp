#include "fuzz/props/families.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "fuzz/lib/draws.hpp"
#include "fuzz/lib/message_jobs.hpp"
#include "fuzz/lib/racy_jobs.hpp"
#include "fuzz/lib/raw_program.hpp"
#include "runtime/dag/dump_writer.hpp"

namespace ordo::fuzz {

namespace {

using Tape = std::vector<std::uint64_t>;
using Draw = Instance (*)(Draws&);

const GeneratorSettings& space() {
  static const GeneratorSettings s = property_space();
  return s;
}

Instance design_job(Draws& draws) { return draw_design_job(draws, space()); }
Instance heterogeneous_job(Draws& draws) { return draw_heterogeneous_job(draws, space()); }

// The part of `tape` that `draw` reads: choices past it shrink nothing.
Tape read_part(Tape tape, Draw draw) {
  TapeDraws draws(tape);
  draw(draws);
  tape.resize(std::min(tape.size(), draws.used()));
  return tape;
}

// Shorter tapes first (runs of choices left out), then each choice towards 0.
rc::Shrinkable<Tape> shrinkable_tape(Tape tape, Draw draw) {
  return rc::shrinkable::shrinkRecur(std::move(tape), [draw](const Tape& t) {
    return rc::seq::map(rc::seq::concat(rc::shrink::removeChunks(t),
                                        rc::shrink::eachElement(
                                            t,
                                            [](std::uint64_t choice) {
                                              return rc::shrink::towards<std::uint64_t>(choice, 0);
                                            })),
                        [draw](Tape&& shrunk) { return read_part(std::move(shrunk), draw); });
  });
}

// A family over a plain generator: the tape is recorded from RapidCheck's random numbers as the
// generator draws, so a first instance is as likely as a seeded one; RapidCheck's size is not
// used, so early instances are as large as late ones.
rc::Gen<Instance> drawn(Draw draw) {
  return [draw](const rc::Random& random, int /*size*/) {
    rc::Random source = random;
    Tape tape;
    TapeDraws recording(tape, [&source] { return source.next(); });
    draw(recording);
    return rc::shrinkable::map(shrinkable_tape(std::move(tape), draw), [draw](const Tape& t) {
      TapeDraws draws(t);
      return draw(draws);
    });
  };
}

}  // namespace

GeneratorSettings property_space() {
  GeneratorSettings s;
  s.designs = {designs::DesignKind::depcha,  designs::DesignKind::funnel,
               designs::DesignKind::concom,  designs::DesignKind::naive,
               designs::DesignKind::fused,   designs::DesignKind::nonblocking,
               designs::DesignKind::sharded, designs::DesignKind::hierarchical,
               designs::DesignKind::priority};
  s.ranks = {2, 2, 2, 3};
  s.keys_max_past_two_ranks = 1;
  s.order_guard = GuardChoice::both;
  s.init = true;
  s.fig4_init = true;
  s.copy_buffers = true;
  s.overlap = true;
  return s;
}

rc::Gen<Instance> design_jobs() { return drawn(design_job); }
rc::Gen<Instance> heterogeneous_jobs() { return drawn(heterogeneous_job); }
rc::Gen<Instance> raw_jobs() { return drawn(draw_raw_job); }
rc::Gen<Instance> racy_jobs() { return drawn(draw_racy_job); }
rc::Gen<Instance> message_jobs() { return drawn(draw_message_job); }

rc::Gen<Instance> on_streams(rc::Gen<Instance> family) {
  return rc::gen::map(std::move(family), [](Instance instance) {
    instance.backend = comm::Backend::nccl;
    instance.origin += " on nccl streams";
    return instance;
  });
}

void showValue(const Instance& instance, std::ostream& os) {
  os << instance.origin << " at " << instance.ranks << " ranks under "
     << comm::to_string(instance.backend) << "\n"
     << dag::write_dump(instance.job);
}

}  // namespace ordo::fuzz
