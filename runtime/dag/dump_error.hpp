// The one exception the dump reader throws (errors/located_error.hpp: where, what, what was
// expected).
#pragma once

#include <string>

#include "runtime/errors/located_error.hpp"

namespace ordo::dag {

class DumpError : public errors::LocatedError {
 public:
  // `where` is a JSON pointer into the dump ("/programs/0/ops/3/reads/1", "/" for the whole
  // document) or a text position ("line 12, column 5") for syntax errors; read_dump_file puts
  // the file's path in front ("step.json: /programs/0").
  DumpError(std::string where, std::string problem, std::string expected);
};

}  // namespace ordo::dag
