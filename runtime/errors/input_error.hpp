// The located error of any user input whose reader has no error type of its own: a JSON file
// (a trace, a hang dump, a network description, an MXNet symbol), an ONNX model. Readers whose
// input has more to say derive from it (dag::DumpError), so a caller that reads several kinds of
// input catches this one.
#pragma once

#include <string>
#include <utility>

#include "runtime/errors/located_error.hpp"

namespace ordo::errors {

class InputError : public LocatedError {
 public:
  // `where`: a path, a JSON pointer ("/programs/0/ops/3") or a text position ("line 12, column
  // 5"), with the file's path in front once the reader knows it.
  InputError(std::string where, std::string problem, std::string expected)
      : LocatedError(std::move(where), std::move(problem), std::move(expected)) {}
};

}  // namespace ordo::errors
