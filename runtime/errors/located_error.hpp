// The shape of every input error ordo reports, as a compiler diagnostic: where the problem is,
// what is wrong, and what was expected there, so a user can fix the input from the message
// alone. Each reader throws its own subclass (errors::InputError and what derives from it,
// dag::DumpError; data::DataError), so a caller catches the errors of the input it read.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace ordo::errors {

class LocatedError : public std::runtime_error {
 public:
  const std::string& where() const noexcept { return where_; }
  const std::string& problem() const noexcept { return problem_; }
  const std::string& expected() const noexcept { return expected_; }

 protected:
  LocatedError(std::string where, std::string problem, std::string expected)
      : std::runtime_error(where + ": " + problem + "; expected " + expected),
        where_(std::move(where)),
        problem_(std::move(problem)),
        expected_(std::move(expected)) {}

 private:
  std::string where_;
  std::string problem_;
  std::string expected_;
};

}  // namespace ordo::errors
