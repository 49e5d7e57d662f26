#include "runtime/paths/place.hpp"

#include <sys/stat.h>

#include <system_error>

namespace ordo::paths {

namespace fs = std::filesystem;

Place place_of(const std::string& path) {
  Place place;
  std::error_code error;
  place.resolved = fs::weakly_canonical(fs::absolute(path, error), error);
  if (error) place.resolved = fs::absolute(path, error).lexically_normal();
  // "dir/" is the folder "dir", as the file system takes it.
  if (!place.resolved.has_filename() && place.resolved.has_parent_path() &&
      place.resolved != place.resolved.root_path()) {
    place.resolved = place.resolved.parent_path();
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    place.id = FileId{st.st_dev, st.st_ino};
    place.links = static_cast<std::uint64_t>(st.st_nlink);
    place.directory = S_ISDIR(st.st_mode);
  }
  return place;
}

bool within(const fs::path& inner, const fs::path& outer) {
  auto i = inner.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
    if (o->empty()) continue;  // the empty last part of a path that ends in a separator
    if (i == inner.end() || *i != *o) return false;
  }
  return true;
}

bool folder_holds(const fs::path& folder, const FileId& id, std::uint64_t entries) {
  std::error_code error;
  fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied, error);
  for (std::uint64_t seen = 0; !error && it != fs::recursive_directory_iterator() && seen < entries;
       it.increment(error), ++seen) {
    struct stat st {};
    if (::stat(it->path().c_str(), &st) == 0 && FileId{st.st_dev, st.st_ino} == id) return true;
  }
  return false;
}

}  // namespace ordo::paths
