// A model file from another framework as ordo's network description: what `ordo import` and every
// `--model FILE` option read (docs/import.md). The format is told by the content, not the name:
// an MXNet symbol is a JSON object with "nodes", anything else is read as an ONNX model.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "runtime/errors/input_error.hpp"
#include "runtime/import/imported_model.hpp"
#include "runtime/networks/network.hpp"

namespace ordo::import {

struct ModelOptions {
  // One example's shape, e.g. {3, 224, 224}: MXNet symbols carry none.
  std::vector<std::uint64_t> data_shape;
};

inline constexpr std::uint64_t model_bytes_max = std::uint64_t{64} << 20;

// Throws errors::InputError whose where() starts with the file's path: a file that cannot be read,
// is larger than model_bytes_max, is not a model format the importer reads, or is a model it
// cannot import (the node, its operator and why).
networks::Network import_model_file(const std::filesystem::path& path, const ModelOptions& options);
// The same, with what the trainer needs (imported_model.hpp); untrainable_at starts with the
// file's path.
ImportedModel import_model(const std::filesystem::path& path, const ModelOptions& options);

// "3,224,224" as a shape; throws std::invalid_argument naming what is wrong.
std::vector<std::uint64_t> parse_data_shape(const std::string& text);

}  // namespace ordo::import
