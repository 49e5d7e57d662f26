// The one exception the training data readers throw, shaped like the dump reader's: which file
// and where in it (a byte offset or a record), what is wrong, and what was expected there.
#pragma once

#include <stdexcept>
#include <string>

namespace ordo::data {

class DataError : public std::runtime_error {
 public:
  DataError(std::string where, std::string problem, std::string expected);

  const std::string& where() const noexcept { return where_; }
  const std::string& problem() const noexcept { return problem_; }
  const std::string& expected() const noexcept { return expected_; }

 private:
  std::string where_;
  std::string problem_;
  std::string expected_;
};

}  // namespace ordo::data
