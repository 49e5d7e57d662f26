#include "checker/verify/undecided.hpp"

namespace ordo::checker {

std::string_view option_of(Bound bound) {
  switch (bound) {
    case Bound::states_max:
      return "--states-max";
    case Bound::seconds_max:
      return "--timeout";
    case Bound::bytes_max:
      return "--memory-max";
  }
  return "the bound";
}

std::string undecided_words(const Verification& v) {
  std::string words = "not decided at " + std::to_string(v.result.ranks) + " rank(s)";
  if (v.result.bound) {
    words += ": bound " + std::string(to_string(*v.result.bound)) +
             " reached before the search ended; raise " + std::string(option_of(*v.result.bound));
  }
  return words;
}

}  // namespace ordo::checker
