#include "report/tool_version.hpp"

// Set for this file alone (checker/CMakeLists.txt), so that a new version rebuilds one file.
#ifndef ORDO_VERSION
#error "ORDO_VERSION is the project's version, defined by the build"
#endif

namespace ordo::report {

std::string_view tool_version() { return ORDO_VERSION; }

}  // namespace ordo::report
