#include "checker/verify/property_rules.hpp"

#include <array>

namespace ordo::checker {

namespace {

// docs/semantics.md, §5, in its words: a change there is a change here.
constexpr std::array<PropertyText, 5> texts = {{
    {"P1", "OrderConsistency",
     "The calls that match on every communicator agree on every field, blocking included.",
     "P1 Order consistency. The calls that match on every communicator agree on every field "
     "(C2), blocking included. Broken by an issue whose call disagrees with a call already "
     "present at its sequence number (a mismatch)."},
    {"P2", "ThreadRule",
     "A rank never issues a call on a communicator while one of its blocking calls there is in "
     "flight.",
     "P2 Thread rule. A rank never issues a call on a communicator while one of its blocking "
     "calls there is in flight (C3). Broken by the issue of the second call."},
    {"P3", "DeadlockFreedom", "No execution gets stuck while some call is issued and unmatched.",
     "P3 Deadlock freedom. No execution gets stuck (S5) while some call is issued and unmatched: "
     "no rank waits forever on a collective, whether its main thread is blocked in a call, an "
     "op's thread is held by one, or work queued behind them never starts."},
    {"P4", "Termination", "No execution gets stuck with no call in flight.",
     "P4 Termination. No execution gets stuck with no call in flight. A rank alone can always "
     "move under §2 (docs/symbolic.md, Lemma 3), so for a valid job P4 never fails; a P4 verdict "
     "would point at a fault the validator let through."},
    {"P5", "BufferSafety",
     "No party of a rank touches bytes of a var that a call still in flight uses, one of them "
     "writing.",
     "P5 Buffer safety. No party of a rank starts to touch bytes of a var while another party's "
     "touch of overlapping bytes has not ended, one of the two writing (B1-B3): in particular no "
     "op reads or writes a buffer while a call on it is in flight, and no call uses a buffer an "
     "op is touching. Broken by the start of the second touch (a buffer race)."},
}};

}  // namespace

const PropertyText& property_text(Property property) {
  return texts.at(static_cast<std::size_t>(property));
}

std::vector<report::SarifRule> property_rules() {
  std::vector<report::SarifRule> rules;
  for (const PropertyText& t : texts) {
    rules.push_back({std::string(t.id), std::string(t.name), std::string(t.summary),
                     std::string(t.definition), "error"});
  }
  return rules;
}

}  // namespace ordo::checker
