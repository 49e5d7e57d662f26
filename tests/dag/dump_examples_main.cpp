// dag_dump_examples OUT_DIR [EXAMPLES_DIR]: writes writer outputs for the schema test: the
// sample jobs, and every example dump as the writer rewrites it.
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "runtime/dag/dump_reader.hpp"
#include "runtime/dag/dump_writer.hpp"
#include "tests/dag/sample_jobs.hpp"

namespace {

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) {
    throw std::runtime_error("cannot write " + path.string());
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: dag_dump_examples OUT_DIR [EXAMPLES_DIR]\n";
    return 2;
  }
  namespace dag = ordo::dag;
  try {
    const std::filesystem::path out_dir = argv[1];
    std::filesystem::create_directories(out_dir);
    write_file(out_dir / "every_construct.json",
               dag::write_dump(dag::testing::every_construct_job()));
    write_file(out_dir / "spmd.json", dag::write_dump(dag::testing::spmd_job()));
    write_file(out_dir / "small_valid.json", dag::write_dump(dag::testing::small_valid_job()));
    if (argc == 3) {
      for (const auto& entry : std::filesystem::directory_iterator(argv[2])) {
        if (entry.path().extension() == ".json") {
          const dag::Job job = dag::read_dump_file(entry.path());
          write_file(out_dir / ("rewritten_" + entry.path().filename().string()),
                     dag::write_dump(job));
        }
      }
    }
  } catch (const std::exception& error) {
    std::cerr << "dag_dump_examples: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
