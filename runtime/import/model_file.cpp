#include "runtime/import/model_file.hpp"

#include <charconv>
#include <stdexcept>

#include "runtime/dag/detail/quote.hpp"
#include "runtime/dag/dump_error.hpp"
#include "runtime/dag/json_file.hpp"
#include "runtime/import/mxnet_import.hpp"
#include "runtime/import/mxnet_symbol.hpp"

namespace ordo::import {
namespace {

constexpr std::size_t path_display_bytes_max = 256;

// The model's name: the file's stem without MXNet's "-symbol" suffix.
std::string model_name(const std::filesystem::path& path) {
  std::string stem = path.stem().string();
  const std::string suffix = "-symbol";
  if (stem.size() > suffix.size() && stem.ends_with(suffix))
    stem.resize(stem.size() - suffix.size());
  return stem.empty() ? "model" : stem;
}

}  // namespace

networks::Network import_model_file(const std::filesystem::path& path,
                                    const ModelOptions& options) {
  const std::string shown = dag::detail::escaped(path.string(), path_display_bytes_max);
  const std::string text = dag::read_json_file(path, "model", model_bytes_max);
  try {
    MxImportOptions mx;
    mx.name = model_name(path);
    mx.data_shape = options.data_shape;
    return import_mxnet(read_mxnet_symbol(text), mx);
  } catch (const dag::DumpError& e) {
    throw dag::DumpError(shown + ": " + e.where(), e.problem(), e.expected());
  }
}

std::vector<std::uint64_t> parse_data_shape(const std::string& text) {
  std::vector<std::uint64_t> shape;
  std::string_view rest = text;
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view part = rest.substr(0, comma);
    std::uint64_t d = 0;
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), d);
    if (part.empty() || ec != std::errc() || end != part.data() + part.size() || d == 0 ||
        d > (std::uint64_t{1} << 31)) {
      throw std::invalid_argument("data shape '" + text +
                                  "': expected positive whole numbers separated by commas, "
                                  "e.g. 3,224,224");
    }
    shape.push_back(d);
    if (shape.size() > 4)
      throw std::invalid_argument("data shape '" + text + "': more than 4 dimensions");
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return shape;
}

}  // namespace ordo::import
