#include "tools/fuzz_campaign/record.hpp"

namespace ordo::fuzz_campaign {

std::string_view to_string(RecordKind kind) {
  switch (kind) {
    case RecordKind::finding:
      return "finding";
    case RecordKind::note:
      return "note";
    case RecordKind::disagreement:
      return "disagreement";
  }
  return "?";
}

}  // namespace ordo::fuzz_campaign
