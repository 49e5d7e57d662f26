// The one exception the dump reader and validator throw (errors/located_error.hpp: where, what,
// what was expected): an input error of the dump, so a caller that reads several kinds of input
// catches errors::InputError for all of them.
#pragma once

#include <string>

#include "runtime/errors/input_error.hpp"

namespace ordo::dag {

class DumpError : public errors::InputError {
 public:
  // `where` is a JSON pointer into the dump ("/programs/0/ops/3/reads/1", "/" for the whole
  // document) or a text position ("line 12, column 5") for syntax errors; read_dump_file puts
  // the file's path in front ("step.json: /programs/0").
  DumpError(std::string where, std::string problem, std::string expected);
  // The JSON library's error (syntax, a field's type, the file's size) as the dump's.
  explicit DumpError(const errors::InputError& error);
};

}  // namespace ordo::dag
