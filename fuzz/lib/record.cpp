#include "fuzz/lib/record.hpp"

namespace ordo::fuzz {

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

std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  if (!line.empty() && line.back() == ':') line.pop_back();
  return line;
}

}  // namespace ordo::fuzz
