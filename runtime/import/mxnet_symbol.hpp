// An MXNet symbol file (`*-symbol.json`, what `Symbol.save` and `HybridBlock.export` write) read
// as a graph, before any meaning is given to its operators: its nodes in the file's order, each
// with its operator ("null" for a variable: data, label, parameter or auxiliary state), name,
// attributes as the strings MXNet stores, and the (node, output) entries it reads. Both layouts
// are read: attributes under "attrs" (MXNet 1.x), or under "param" and "attr" (0.x).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ordo::import {

struct MxEntry {
  std::uint32_t node = 0;
  std::uint32_t output = 0;
};

struct MxNode {
  std::string op;
  std::string name;
  std::map<std::string, std::string> attrs;
  std::vector<MxEntry> inputs;
};

struct MxSymbol {
  std::vector<MxNode> nodes;
  std::vector<MxEntry> heads;
};

inline constexpr std::size_t mx_nodes_max = std::size_t{1} << 18;
inline constexpr std::size_t mx_inputs_max = 1024;
inline constexpr std::size_t mx_attrs_max = 256;

// Throws errors::InputError at a JSON pointer for text that is not a symbol: no "nodes", a node
// without a string op or name, an input that is not an earlier node (MXNet lists a symbol's nodes
// in topological order, so an input at or after its reader is a cycle or a dangling reference),
// an attribute that is not a string, or more than the bounds above.
MxSymbol read_mxnet_symbol(std::string_view text);

}  // namespace ordo::import
