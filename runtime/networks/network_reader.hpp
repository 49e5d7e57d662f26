// Network descriptions as files (format "ordo-network", docs/kvstore.md): the step-DAG builder's
// input, so that a user can describe a model's layers and check a design configuration on it
// (`ordo verify NET.json --design depcha`) before building anything.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "runtime/errors/input_error.hpp"
#include "runtime/networks/network.hpp"

namespace ordo::networks {

// Throws errors::InputError (where, problem, expected), and nothing else, for any text that is not
// a well-formed network description, check_network's findings included.
Network read_network(std::string_view text);
Network read_network_file(const std::filesystem::path& path);

// The description of `network` that read_network reads back equal.
std::string write_network(const Network& network);

}  // namespace ordo::networks
