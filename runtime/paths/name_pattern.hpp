// The names of the entries a command reads or writes directly inside a folder, so that its own
// entries can be told from the rest of the folder: one name (program.json, latest) or a family
// numbered by a decimal number (rank-K.json, step-K, FILE.rank-K.json).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace ordo::paths {

class NamePattern {
 public:
  // Exactly this name.
  static NamePattern exact(std::string name);
  // PREFIX, a decimal number, SUFFIX.
  static NamePattern numbered(std::string prefix, std::string suffix);
  // The family `name_of` gives (diag::rank_dump_path's file names, say), read off its names for
  // 0 and 1: what they share in front and behind is fixed, the rest is the number. So the names
  // stay written once, in the library that writes the files. Throws std::logic_error when the
  // two names do not differ in the number alone.
  static NamePattern numbered_as(const std::function<std::string(std::uint64_t)>& name_of);

  bool matches(std::string_view name) const;
  // "program.json", "rank-K.json"
  std::string words() const;
  // A few names of the pattern, for comparing two numbered families (overlap()).
  std::string example(std::uint64_t number) const;
  bool is_numbered() const { return numbered_; }

 private:
  NamePattern(std::string prefix, std::string suffix, bool numbered)
      : prefix_(std::move(prefix)), suffix_(std::move(suffix)), numbered_(numbered) {}

  std::string prefix_;  // the whole name when not numbered
  std::string suffix_;
  bool numbered_ = false;
};

// Whether some name matches both. Two numbered families are compared on names with numbers of
// one to three digits: the families of one command differ in their fixed parts, which those
// names show.
bool overlap(const NamePattern& a, const NamePattern& b);

}  // namespace ordo::paths
