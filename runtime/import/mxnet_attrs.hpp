// An MXNet node's attributes as the importer reads them: MXNet writes every attribute as a string
// ("(3, 3)", "True", "1e-05"). Each throws std::invalid_argument naming the attribute for text
// MXNet would refuse or a number above 2^31.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/import/mxnet_symbol.hpp"

namespace ordo::import::mx_detail {

const std::string* attr(const MxNode& node, const std::string& key);  // null where absent
std::uint64_t attr_uint(const MxNode& node, const std::string& key,
                        std::optional<std::uint64_t> fallback);
// "(3, 3)", "[3,3]", "(3,)" or "3".
std::vector<std::uint64_t> attr_tuple(const MxNode& node, const std::string& key,
                                      std::vector<std::uint64_t> fallback);
bool attr_bool(const MxNode& node, const std::string& key, bool fallback);
std::string attr_string(const MxNode& node, const std::string& key, const std::string& fallback);
double attr_double(const MxNode& node, const std::string& key, double fallback);
// A 2-D window attribute (kernel, stride, pad, dilate): two entries, or the fallback.
std::array<std::uint64_t, 2> window(const MxNode& node, const std::string& key,
                                    std::uint64_t fallback, bool required);

}  // namespace ordo::import::mx_detail
