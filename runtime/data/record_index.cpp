#include "runtime/data/record_index.hpp"

#include <charconv>
#include <unordered_set>

#include "runtime/data/data_error.hpp"
#include "runtime/data/file_bytes.hpp"

namespace ordo::data {

namespace {

std::string at_line(std::string_view source, std::size_t line) {
  return std::string(source) + ": line " + std::to_string(line);
}

// A decimal number that is the whole field: from_chars alone would accept "12abc" as 12.
bool parse_u64(std::string_view field, std::uint64_t& out) {
  if (field.empty() || field.size() > 20) return false;
  for (char c : field) {
    if (c < '0' || c > '9') return false;
  }
  const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), out);
  return ec == std::errc() && end == field.data() + field.size();
}

}  // namespace

std::vector<IndexEntry> parse_record_index(std::string_view text, std::string_view source) {
  std::vector<IndexEntry> entries;
  std::unordered_set<std::uint64_t> keys;
  std::size_t line_no = 0;
  while (!text.empty()) {
    ++line_no;
    const std::size_t newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::size_t tab = line.find('\t');
    IndexEntry entry;
    if (tab == std::string_view::npos || !parse_u64(line.substr(0, tab), entry.key) ||
        !parse_u64(line.substr(tab + 1), entry.offset)) {
      throw DataError(at_line(source, line_no),
                      "\"" + std::string(line.substr(0, 60)) + "\" is no index line",
                      "a key and a byte offset, decimal, separated by one tab");
    }
    if (!keys.insert(entry.key).second) {
      throw DataError(at_line(source, line_no), "key " + std::to_string(entry.key) + " again",
                      "each key once");
    }
    entries.push_back(entry);
  }
  return entries;
}

std::vector<IndexEntry> read_record_index(const std::string& path, std::size_t max) {
  const std::string text = read_file_bytes(path, max);
  return parse_record_index(text, path);
}

std::string write_record_index(const std::vector<IndexEntry>& entries) {
  std::string out;
  for (const IndexEntry& e : entries) {
    out += std::to_string(e.key);
    out += '\t';
    out += std::to_string(e.offset);
    out += '\n';
  }
  return out;
}

}  // namespace ordo::data
