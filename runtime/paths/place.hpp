// Where a path leads, so that two names of one file are known as one: the absolute path with
// every symbolic link resolved as far as the path exists, and for what exists the file itself
// (device and inode), which a hard link shares.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace ordo::paths {

struct FileId {
  dev_t device = 0;
  ino_t inode = 0;
  bool operator==(const FileId&) const = default;
};

struct Place {
  std::filesystem::path resolved;  // absolute and normal; links resolved where it exists
  std::optional<FileId> id;        // when it exists (through symbolic links)
  std::uint64_t links = 0;         // its hard links, when it exists
  bool directory = false;
};

Place place_of(const std::string& path);

// Whether `inner` is `outer` or lies below it, both resolved.
bool within(const std::filesystem::path& inner, const std::filesystem::path& outer);

// The file `id` among the files below `folder`, at most `entries` of them looked at: for a file
// of several hard links, which a folder can hold under another name. Unreadable folders are
// passed over.
bool folder_holds(const std::filesystem::path& folder, const FileId& id, std::uint64_t entries);

}  // namespace ordo::paths
