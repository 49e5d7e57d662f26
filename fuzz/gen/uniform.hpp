// Generator building blocks whose distribution does not depend on RapidCheck's size parameter.
// rc::gen::inRange scales its range by the size (at size 2 of 100, [0, 8) yields only 0), and
// both the size ramp of a property run and rc::gen::resize, which bounds a container's length,
// would otherwise pin every field of small containers to its lower bound. The jobs are bounded
// by fuzz/gen/bounds.hpp instead; shrinking still moves every value towards its lower bound.
#pragma once

#include <rapidcheck.h>

#include <vector>

namespace ordo::fuzz {

// Uniform in [min, max) at every size.
template <class T>
rc::Gen<T> uniform(T min, T max) {
  return rc::gen::resize(rc::kNominalSize, rc::gen::inRange<T>(min, max));
}

// From 0 to `max` elements (uniformly many), shrinking by dropping elements; each element is
// generated at the nominal size.
template <class T>
rc::Gen<std::vector<T>> up_to(int max, rc::Gen<T> element) {
  return rc::gen::resize(max, rc::gen::container<std::vector<T>>(
                                  rc::gen::resize(rc::kNominalSize, std::move(element))));
}

}  // namespace ordo::fuzz
