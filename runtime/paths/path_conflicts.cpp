#include "runtime/paths/path_conflicts.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <system_error>

#include "runtime/paths/place.hpp"
#include "runtime/paths/writable.hpp"

namespace ordo::paths {

bool is_output(Role role) { return role == Role::output_file || role == Role::output_folder; }

bool is_folder(Role role) { return role == Role::input_folder || role == Role::output_folder; }

std::string quoted(const std::string& path) { return "'" + path + "'"; }

namespace {

namespace fs = std::filesystem;

// What one use takes in of the file system: its file, the files it writes beside it, or its
// folder (whole, or the entries that names match).
struct Extent {
  enum class Kind : std::uint8_t { file, beside, folder };
  const PathUse* use = nullptr;
  Kind kind = Kind::file;
  fs::path root;  // the folder; for a file and what it writes beside it, the file's folder
  bool whole = false;
  std::vector<NamePattern> names;  // entries of `root`, each with everything below it
  std::optional<FileId> id;        // a file that exists
  std::uint64_t links = 0;
};

std::vector<Extent> extents_of(const PathUse& use) {
  const Place place = place_of(use.path);
  if (is_folder(use.role)) {
    return {{&use, Extent::Kind::folder, place.resolved, use.names.empty(), use.names, {}, 0}};
  }
  std::vector<Extent> out{{&use,
                           Extent::Kind::file,
                           place.resolved.parent_path(),
                           false,
                           {NamePattern::exact(place.resolved.filename().string())},
                           place.id,
                           place.links}};
  if (!use.names.empty()) {
    // Beside the path as given: the target of a link has other neighbours.
    const fs::path parent = fs::path(use.path).parent_path();
    out.push_back({&use,
                   Extent::Kind::beside,
                   place_of(parent.empty() ? "." : parent.string()).resolved,
                   false,
                   use.names,
                   {},
                   0});
  }
  return out;
}

// The path that stands for the extent: the file itself, or the folder.
fs::path anchor(const Extent& e) {
  return e.kind == Extent::Kind::file ? e.root / e.names.front().example(0) : e.root;
}

// Whether `path` (resolved) lies in what `e` takes in.
bool takes_in(const Extent& e, const fs::path& path) {
  if (!within(path, e.root)) return false;
  if (e.whole) return true;
  const fs::path rel = path.lexically_relative(e.root);
  if (rel.empty() || rel == ".") return false;  // the folder itself is none of its entries
  const std::string first = rel.begin()->string();
  return std::any_of(e.names.begin(), e.names.end(),
                     [&](const NamePattern& n) { return n.matches(first); });
}

// Whether the file `id` is among what `e` takes in under another name (a hard link).
bool holds_link(const Extent& e, const FileId& id) {
  if (e.whole) return folder_holds(e.root, id, hard_link_search_max);
  std::error_code error;
  fs::directory_iterator it(e.root, error);
  for (std::uint64_t seen = 0;
       !error && it != fs::directory_iterator() && seen < hard_link_search_max;
       it.increment(error), ++seen) {
    const std::string name = it->path().filename().string();
    if (std::none_of(e.names.begin(), e.names.end(),
                     [&](const NamePattern& n) { return n.matches(name); })) {
      continue;
    }
    struct stat st {};
    if (::stat(it->path().c_str(), &st) != 0) continue;
    if (FileId{st.st_dev, st.st_ino} == id) return true;
    if (S_ISDIR(st.st_mode) && folder_holds(it->path(), id, hard_link_search_max)) return true;
  }
  return false;
}

enum class Relation : std::uint8_t { none, same, first_in_second, second_in_first };

Relation relation(const Extent& a, const Extent& b) {
  const bool a_file = a.kind == Extent::Kind::file;
  const bool b_file = b.kind == Extent::Kind::file;
  if (a_file && b_file) {
    if (a.id && b.id) return *a.id == *b.id ? Relation::same : Relation::none;
    return anchor(a) == anchor(b) ? Relation::same : Relation::none;
  }
  if (!a.whole && !b.whole && a.root == b.root) {
    // Entries of one folder: the file among the other's names, or two families that share one.
    for (const NamePattern& x : a.names) {
      for (const NamePattern& y : b.names) {
        if (overlap(x, y)) return b_file ? Relation::second_in_first : Relation::first_in_second;
      }
    }
  } else if (takes_in(b, anchor(a))) {
    return Relation::first_in_second;
  } else if (takes_in(a, anchor(b))) {
    return Relation::second_in_first;
  }
  // A file of several hard links can be in a folder under another name.
  if (a_file && a.id && a.links > 1 && holds_link(b, *a.id)) return Relation::first_in_second;
  if (b_file && b.id && b.links > 1 && holds_link(a, *b.id)) return Relation::second_in_first;
  return Relation::none;
}

std::string names_text(const std::vector<NamePattern>& names) {
  std::string out;
  for (const NamePattern& n : names) out += (out.empty() ? "" : ", ") + n.words();
  return out;
}

const char* kind_word(const PathUse& use) { return is_output(use.role) ? "output" : "input"; }

// The extent as the subject of a sentence.
std::string subject(const Extent& e) {
  const PathUse& u = *e.use;
  const std::string named = u.option + " " + quoted(u.path);
  switch (e.kind) {
    case Extent::Kind::file:
      return is_output(u.role) ? named : "the input " + named;
    case Extent::Kind::beside:
      return "the files " + named + " writes beside it (" + names_text(e.names) + ")";
    case Extent::Kind::folder:
      return std::string("the ") + kind_word(u) + " folder " + named;
  }
  return named;
}

// Where the extent is, after "is".
std::string place_words(const Extent& e) {
  const PathUse& u = *e.use;
  const std::string named = u.option + " " + quoted(u.path);
  if (e.kind == Extent::Kind::beside) {
    return "among the files " + named + " writes beside it (" + names_text(e.names) + ")";
  }
  if (e.whole) return std::string("inside the ") + kind_word(u) + " folder " + named;
  return std::string("among the entries the ") + kind_word(u) + " folder " + named +
         (is_output(u.role) ? " writes" : " reads") + " (" + names_text(e.names) + ")";
}

// `inner` lies in `outer`; one of the two is written.
std::string inside_message(const Extent& inner, const Extent& outer) {
  return subject(inner) + " is " + place_words(outer) + "; expected a path outside " +
         (outer.whole ? "it" : "them") +
         (is_output(outer.use->role) ? " (the command writes there)"
                                     : " (writing there would change what the command reads)");
}

std::string same_message(const PathUse& a, const PathUse& b) {
  if (is_output(a.role) && is_output(b.role)) {
    // In the order of the words, whichever option the command registered first.
    std::string first = a.option;
    std::string second = b.option;
    if (second < first) std::swap(first, second);
    return first + " and " + second + " name the same file " + quoted(a.path) +
           (a.path == b.path ? "" : " (" + quoted(b.path) + ")") + "; expected a file for each";
  }
  const PathUse& out = is_output(a.role) ? a : b;
  const PathUse& in = is_output(a.role) ? b : a;
  return out.option + " " + quoted(out.path) + " is the input file " +
         (in.path == out.path ? "" : quoted(in.path) + " ") + "(" + in.option +
         "); expected another path (writing it would replace the input)";
}

std::optional<std::string> conflict(const PathUse& a, const PathUse& b) {
  const std::vector<Extent> as = extents_of(a);
  const std::vector<Extent> bs = extents_of(b);
  for (const Extent& x : as) {
    for (const Extent& y : bs) {
      switch (relation(x, y)) {
        case Relation::none:
          break;
        case Relation::same:
          return same_message(a, b);
        case Relation::first_in_second:
          return inside_message(x, y);
        case Relation::second_in_first:
          return inside_message(y, x);
      }
    }
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::string> path_conflicts(const std::vector<PathUse>& uses) {
  std::vector<std::string> problems;
  for (const PathUse& use : uses) {
    if (std::optional<std::string> problem = unwritable(use)) problems.push_back(*problem);
  }
  for (std::size_t i = 0; i < uses.size(); ++i) {
    for (std::size_t j = i + 1; j < uses.size(); ++j) {
      const PathUse& a = uses[i];
      const PathUse& b = uses[j];
      if (a.path.empty() || b.path.empty()) continue;
      if (!is_output(a.role) && !is_output(b.role)) continue;
      if (std::optional<std::string> problem = conflict(a, b)) problems.push_back(*problem);
    }
  }
  return problems;
}

}  // namespace ordo::paths
