// The one exception the dump reader throws. It is shaped like a compiler diagnostic: where the
// problem is, what is wrong, and what was expected there, so a user can fix a dump from the
// message alone.
#pragma once

#include <stdexcept>
#include <string>

namespace ordo::dag {

class DumpError : public std::runtime_error {
 public:
  // `where` is a JSON pointer into the dump ("/programs/0/ops/3/reads/1", "/" for the whole
  // document) or a text position ("line 12, column 5") for syntax errors; read_dump_file puts
  // the file's path in front ("step.json: /programs/0").
  DumpError(std::string where, std::string problem, std::string expected);

  const std::string& where() const noexcept { return where_; }
  const std::string& problem() const noexcept { return problem_; }
  const std::string& expected() const noexcept { return expected_; }

 private:
  std::string where_;
  std::string problem_;
  std::string expected_;
};

}  // namespace ordo::dag
