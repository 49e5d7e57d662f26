// Building the JSON pointers (RFC 6901) that locate problems in a dump.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ordo::json {

// One reference token: '~' and '/' escaped as "~0" and "~1", and anything unprintable escaped
// for display (see quote.hpp), since pointers end up in messages.
std::string pointer_token(std::string_view key);

std::string pointer_child(const std::string& pointer, std::string_view key);
std::string pointer_child(const std::string& pointer, std::size_t index);

// How a pointer is shown: the whole document (the empty pointer) reads as "/".
std::string pointer_display(const std::string& pointer);

}  // namespace ordo::json
