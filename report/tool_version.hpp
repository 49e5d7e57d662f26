// The version reports give for the tool that wrote them (SARIF's tool.driver.version): the
// project's own, as CMake's project() states it, so that it is stated in one place.
#pragma once

#include <string_view>

namespace ordo::report {

std::string_view tool_version();  // "0.1.0"

}  // namespace ordo::report
