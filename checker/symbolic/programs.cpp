#include "checker/symbolic/programs.hpp"

namespace ordo::checker::symbolic {

namespace {

bool same_program(const dag::Program& a, const dag::Program& b) {
  return &a == &b || (a.vars == b.vars && a.pools == b.pools && a.ops == b.ops && a.main == b.main);
}

}  // namespace

Programs::Programs(const System& model) {
  for (dag::Rank r = 0; r < model.ranks(); ++r) {
    const dag::Program& p = model.program(r);
    std::uint32_t found = size();
    for (std::uint32_t i = 0; i < size(); ++i) {
      if (same_program(*programs_[i], p)) {
        found = i;
        break;
      }
    }
    if (found == size()) {
      programs_.push_back(&p);
      graphs_.push_back(std::make_unique<HappensBefore>(p));
    }
    of_rank_.push_back(found);
    hb_of_rank_.push_back(graphs_[found].get());
  }
}

std::vector<dag::Rank> Programs::ranks_of(std::uint32_t p) const {
  std::vector<dag::Rank> out;
  for (dag::Rank r = 0; r < of_rank_.size(); ++r) {
    if (of_rank_[r] == p) out.push_back(r);
  }
  return out;
}

}  // namespace ordo::checker::symbolic
