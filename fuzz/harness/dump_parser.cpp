// libFuzzer harness for the DAG dump reader, the validator and the writer. Any text must either
// be rejected with dag::DumpError or read as a job that the validator and the writer handle without
// fault; a job that validates must round-trip exactly: read_dump(write_dump(job)) == job, and
// writing that job again gives the same bytes (docs/dag-format.md, "Writing").
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "runtime/dag/dump_error.hpp"
#include "runtime/dag/dump_reader.hpp"
#include "runtime/dag/dump_writer.hpp"
#include "runtime/dag/validate.hpp"

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "dump_parser: %s\n%s\n", what, detail.c_str());
  std::abort();
}

void check(std::string_view text) {
  ordo::dag::Job job;
  try {
    job = ordo::dag::read_dump(text);
  } catch (const ordo::errors::InputError&) {
    return;
  }
  const bool valid = ordo::dag::validate(job).empty();
  // The reader resolved every reference by name, so every index is in range and the writer
  // must not throw, valid job or not.
  std::string once;
  try {
    once = ordo::dag::write_dump(job);
  } catch (const std::invalid_argument& e) {
    fail("the writer rejects a job the reader accepted", e.what());
  }
  if (!valid) return;
  ordo::dag::Job back;
  try {
    back = ordo::dag::read_dump(once);
  } catch (const ordo::errors::InputError& e) {
    fail("the dump of a valid job does not read back",
         e.where() + ": " + e.problem() + "\n" + once);
  }
  if (!(back == job)) fail("the dump of a valid job reads back as another job", once);
  const std::string twice = ordo::dag::write_dump(back);
  if (twice != once) fail("writing the job read back gives other bytes", once + "\n" + twice);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  check(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
