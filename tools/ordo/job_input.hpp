// Where `ordo verify` and `ordo replay` get their job: a DAG dump, or a network description
// (a file in the "ordo-network" format, or a built-in: mlp, resnet50) turned into one training
// step of a KVStore design by the step-DAG builder, so a design configuration can be checked
// before anything is built.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/dag/program.hpp"
#include "runtime/designs/design_config.hpp"
#include "runtime/designs/step_builder.hpp"
#include "runtime/errors/input_error.hpp"
#include "runtime/networks/network.hpp"
#include "tools/ordo/cli11.hpp"
#include "tools/ordo/path_options.hpp"

namespace ordo::tools {

// verify's and fuzz's rank count where neither --ranks nor the job fixes one, and so the shards
// of sharded without --ranks or --shards: the smallest count at which collectives can mismatch.
inline constexpr std::uint32_t default_ranks = 2;

struct JobInput {
  std::string path;        // the dump, or with --design the network description
  std::string design;      // empty: `path` is a dump
  std::string network;     // with --design: mlp, resnet50 or a description file (default: path)
  std::string model;       // with --design: a model file from another framework (docs/import.md)
  std::string data_shape;  // the model's example shape, e.g. "3,224,224"
  std::string init = "safe";
  std::uint32_t layers = 4;
  designs::DesignConfig config;
  designs::StepOptions step;
  // The job's rank count where the command has one (verify's and fuzz's --ranks, the trace's in
  // replay, each count in simulate); 0: none. A design written for its rank count is fitted to
  // it (designs::fit_to_ranks); without one, to the count its knobs fix, else to default_ranks.
  std::uint32_t ranks = 0;

  // Registers the positional input and the design options on `sub`, the files among them on
  // `paths`.
  void add_options(CLI::App* sub, PathOptions& paths, const std::string& what);
  // With --design: the design's configuration, fitted to `ranks`. Throws std::invalid_argument
  // for an unknown design or init, or a --shards, --nodes or --node-ranks the rank count
  // contradicts.
  designs::DesignConfig design_config() const;
  // Throws errors::InputError for a bad file or a network the step builder refuses (naming the
  // network) and std::invalid_argument for bad options.
  dag::Job load() const;
  // `name` (the input or --network) as a file the job is read from: none for a built-in
  // network's name with --design.
  std::vector<paths::PathUse> file_use(const std::string& option, const std::string& name) const;
  // How reports name the input: the path, or "depcha on resnet50".
  std::string name() const;
};

// "mlp" and "resnet50" are built in; anything else is read as a description file.
networks::Network pick_network(const std::string& name, std::uint32_t layers);

}  // namespace ordo::tools
