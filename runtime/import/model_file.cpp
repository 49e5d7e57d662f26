#include "runtime/import/model_file.hpp"

#include <array>
#include <charconv>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <system_error>

#include "runtime/errors/input_error.hpp"
#include "runtime/import/mxnet_import.hpp"
#include "runtime/import/mxnet_symbol.hpp"
#include "runtime/import/onnx_import.hpp"
#include "runtime/io/input_file.hpp"
#include "runtime/json/quote.hpp"

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

// The file's bytes, at most model_bytes_max of them (a device or a pipe is read no further).
std::string read_model_bytes(const std::filesystem::path& path, const std::string& shown) {
  if (std::optional<io::InputProblem> problem = io::input_file_problem(path, "model file")) {
    throw errors::InputError(shown, std::move(problem->problem), std::move(problem->expected));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw errors::InputError(shown, "cannot be opened", "a readable model file");
  std::string bytes;
  std::array<char, 1 << 16> chunk{};
  while (in.read(chunk.data(), chunk.size()) || in.gcount() > 0) {
    bytes.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
    if (bytes.size() > model_bytes_max) {
      throw errors::InputError(shown,
                               "is larger than " + std::to_string(model_bytes_max >> 20) + " MiB",
                               "a model file of at most that size");
    }
  }
  if (in.bad()) throw errors::InputError(shown, "could not be read", "a readable model file");
  return bytes;
}

bool looks_like_json(const std::string& bytes) {
  for (const char c : bytes) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    return c == '{';
  }
  return false;
}

}  // namespace

ImportedModel import_model(const std::filesystem::path& path, const ModelOptions& options) {
  const std::string shown = json::escaped(path.string(), path_display_bytes_max);
  const std::string bytes = read_model_bytes(path, shown);
  ImportedModel model;
  try {
    if (!looks_like_json(bytes)) {
      if (!options.data_shape.empty()) {
        throw errors::InputError("/", "a data shape given for an ONNX model",
                                 "no --data-shape: an ONNX model declares its input's shape");
      }
      model = import_onnx_model(bytes, model_name(path));
    } else {
      MxImportOptions mx;
      mx.name = model_name(path);
      mx.data_shape = options.data_shape;
      model = import_mxnet_model(read_mxnet_symbol(bytes), mx);
    }
  } catch (const errors::InputError& e) {
    throw errors::InputError(shown + ": " + e.where(), e.problem(), e.expected());
  }
  if (!model.trainable()) model.untrainable_at = shown + ": " + model.untrainable_at;
  return model;
}

networks::Network import_model_file(const std::filesystem::path& path,
                                    const ModelOptions& options) {
  return import_model(path, options).network;
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
    if (shape.size() > 4) {
      throw std::invalid_argument("data shape '" + text + "': more than 4 dimensions");
    }
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return shape;
}

}  // namespace ordo::import
