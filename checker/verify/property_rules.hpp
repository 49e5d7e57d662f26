// The properties P1-P5 (docs/semantics.md, §5) as the rules of a SARIF log: one per property, in
// the order of checker::Property, with the section's words as their descriptions. Every command
// that reports violations of P1-P5 (ordo verify, ordo fuzz) gives the same rules.
#pragma once

#include <string_view>
#include <vector>

#include "checker/search/verdict.hpp"
#include "report/sarif.hpp"

namespace ordo::checker {

struct PropertyText {
  std::string_view id;          // "P1"
  std::string_view name;        // "OrderConsistency"
  std::string_view summary;     // one sentence
  std::string_view definition;  // §5's paragraph
};

const PropertyText& property_text(Property property);

// P1, P2, P3, P4: a result's ruleIndex is its property's value.
std::vector<report::SarifRule> property_rules();

}  // namespace ordo::checker
