// Format versions: version 2 spells the submit action "submit", version 1 spelt it "push";
// version 3 adds the collective kinds reduce, reduce_scatter and allgather; version 4 a
// collective's offset into its buffer; version 5 the kinds gather, scatter, alltoall, scan and
// exscan; version 6 the point-to-point kinds send and recv with their peer and tag. The reader
// reads all six, so dumps kept from before still verify, and refuses a dump
// that mixes the spellings or names a kind its version lacks rather than guess which version was
// meant.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "runtime/dag/dump_format.hpp"
#include "runtime/dag/dump_reader.hpp"
#include "runtime/dag/dump_writer.hpp"
#include "tests/dag/sample_jobs.hpp"
#include "tests/dag/test_support.hpp"

namespace ordo::dag {
namespace {

using nlohmann::json;
using testing::contains;

// small_valid_job() as written today, its version and its submit actions' spelling replaced.
json document_of_version(std::uint64_t version, std::string_view submit_spelling) {
  json document = json::parse(write_dump(testing::small_valid_job()));
  document["version"] = version;
  for (json& action : document["programs"][0]["main"]) {
    if (action["action"] == "submit") action["action"] = submit_spelling;
  }
  return document;
}

DumpError reader_version_error(const json& document) {
  return testing::error_reading(document.dump());
}

TEST(DagReaderVersion, TheWriterWritesTheCurrentVersion) {
  const json document = json::parse(write_dump(testing::small_valid_job()));
  EXPECT_EQ(document["version"], 6);
  EXPECT_EQ(document["programs"][0]["main"][0]["action"], "submit");
}

TEST(DagReaderVersion, AVersion1DumpReadsAsTheJobItDescribes) {
  const Job job = read_dump(document_of_version(1, "push").dump());
  EXPECT_EQ(job, testing::small_valid_job());
}

// A version-1 file as users keep them: the concom example before the submit action was renamed.
// It reads as the same job as today's example, and writes back as version 6.
TEST(DagReaderVersion, AVersion1FileReadsAsTheSameJobAsItsVersion2Twin) {
  const Job old_job =
      read_dump_file(std::filesystem::path(ORDO_DAG_VERSION_1_DIR) / "concom_barrier.json");
  const Job job =
      read_dump_file(std::filesystem::path(ORDO_DAG_EXAMPLES_DIR) / "concom_barrier.json");
  EXPECT_EQ(old_job, job);
  const std::string rewritten = write_dump(old_job);
  EXPECT_TRUE(contains(rewritten, "\"version\": 6,")) << rewritten;
  EXPECT_FALSE(contains(rewritten, "\"push\"")) << rewritten;
}

TEST(DagReaderVersion, PushInAVersion2DumpIsRefused) {
  const DumpError error = reader_version_error(document_of_version(2, "push"));
  EXPECT_EQ(error.where(), "/programs/0/main/0/action");
  EXPECT_EQ(error.problem(),
            "action 'push' in a version 2 dump ('push' is version 1's spelling of 'submit')");
  EXPECT_EQ(error.expected(), "action, one of: submit, wait_to_read, wait_for_all, collective");
}

TEST(DagReaderVersion, SubmitInAVersion1DumpIsRefused) {
  const DumpError error = reader_version_error(document_of_version(1, "submit"));
  EXPECT_EQ(error.where(), "/programs/0/main/0/action");
  EXPECT_EQ(error.problem(),
            "action 'submit' in a version 1 dump ('submit' is version 2's spelling of 'push')");
  EXPECT_EQ(error.expected(), "action, one of: push, wait_to_read, wait_for_all, collective");
}

TEST(DagReaderVersion, Version1PushActionsKeepTheirFields) {
  json document = document_of_version(1, "push");
  document["programs"][0]["main"][0]["var"] = "g0";
  const DumpError error = reader_version_error(document);
  EXPECT_EQ(error.where(), "/programs/0/main/0/var");
  EXPECT_EQ(error.problem(), "unknown field 'var' in a push action");
}

TEST(DagReaderVersion, Version2And3ReadTheSameJob) {
  EXPECT_EQ(read_dump(document_of_version(2, "submit").dump()), testing::small_valid_job());
  EXPECT_EQ(read_dump(document_of_version(3, "submit").dump()), testing::small_valid_job());
}

// Version 3 added reduce, reduce_scatter and allgather; an older dump naming one is refused at
// the kind, in an op's spec and in a main-thread call's alike.
TEST(DagReaderVersion, TheNewCollectiveKindsNeedVersion3) {
  for (const std::uint64_t version : {std::uint64_t{1}, std::uint64_t{2}}) {
    json document = document_of_version(version, version == 1 ? "push" : "submit");
    document["programs"][0]["ops"][2]["collective"]["kind"] = "reduce_scatter";
    const DumpError error = reader_version_error(document);
    EXPECT_EQ(error.where(), "/programs/0/ops/2/collective/kind");
    EXPECT_EQ(error.problem(), "collective kind 'reduce_scatter' in a version " +
                                   std::to_string(version) + " dump (it exists from version 3)");
    EXPECT_EQ(error.expected(), "allreduce, bcast or barrier, or version 3");
  }
  json document = document_of_version(2, "submit");
  document["programs"][0]["main"][4]["collective"]["kind"] = "allgather";
  EXPECT_EQ(reader_version_error(document).where(), "/programs/0/main/4/collective/kind");
  document["version"] = 3;
  EXPECT_NO_THROW(read_dump(document.dump())) << "version 3 reads the kind (validation is apart)";
}

// Version 4 added a collective's offset; an older dump with one is refused at the offset, and an
// offset of 0 is not written, so a job without slices writes what version 3 wrote but the number.
TEST(DagReaderVersion, AnOffsetNeedsVersion4) {
  json document = document_of_version(3, "submit");
  document["programs"][0]["ops"][2]["collective"]["offset"] = 1;
  const DumpError error = reader_version_error(document);
  EXPECT_EQ(error.where(), "/programs/0/ops/2/collective/offset");
  EXPECT_EQ(error.problem(),
            "a collective's offset in a version 3 dump (it exists from version 4)");
  EXPECT_EQ(error.expected(), "no offset, or version 4");
  document["version"] = 4;
  EXPECT_EQ(read_dump(document.dump()).programs[0].ops[2].collective->offset, 1u);
  EXPECT_FALSE(contains(write_dump(testing::small_valid_job()), "offset"));
  Job sliced = testing::small_valid_job();
  sliced.programs[0].ops[2].collective->offset = 7;
  EXPECT_EQ(read_dump(write_dump(sliced)), sliced);
}

TEST(DagReaderVersion, Version3And4ReadTheSameJob) {
  EXPECT_EQ(read_dump(document_of_version(4, "submit").dump()), testing::small_valid_job());
  EXPECT_EQ(read_dump(document_of_version(5, "submit").dump()), testing::small_valid_job());
  EXPECT_EQ(read_dump(document_of_version(6, "submit").dump()), testing::small_valid_job());
}

TEST(DagReaderVersion, OnlyVersions1To6AreRead) {
  for (const std::uint64_t version : {std::uint64_t{0}, dump_format_version + 1}) {
    const DumpError error = reader_version_error(document_of_version(version, "submit"));
    EXPECT_EQ(error.where(), "/version");
    EXPECT_EQ(error.problem(), "unsupported version " + std::to_string(version));
    EXPECT_EQ(error.expected(), "a version from 1 to 6");
  }
}

}  // namespace
}  // namespace ordo::dag

namespace ordo::dag {
namespace {

// Version 5's kinds in a version-4 dump are refused at the kind, naming the version they need.
TEST(ReaderVersion, Version5KindsNeedVersion5) {
  for (const char* kind : {"gather", "scatter", "alltoall", "scan", "exscan"}) {
    json document = document_of_version(4, "submit");
    document["programs"][0]["main"][4]["collective"]["kind"] = kind;
    const DumpError error = reader_version_error(document);
    EXPECT_EQ(error.where(), "/programs/0/main/4/collective/kind");
    EXPECT_EQ(error.problem(), "collective kind '" + std::string(kind) +
                                   "' in a version 4 dump (it exists from version 5)");
    EXPECT_EQ(error.expected(), "a kind of version 4, or version 5");
  }
}

}  // namespace
}  // namespace ordo::dag

namespace ordo::dag {
namespace {

json with_message(std::uint64_t version, const json& spec) {
  json document = document_of_version(version, "submit");
  document["programs"][0]["main"][4]["collective"] = spec;
  return document;
}

json send_spec() {
  return json::parse(R"({"kind": "send", "comm": "world", "key": 1, "count": 0, "dtype": "f32",
                         "reduction": "none", "peer": 1, "tag": 7})");
}

// Version 6's send and recv, and a peer or tag in an older dump, are refused where they stand.
TEST(ReaderVersion, MessagesNeedVersion6) {
  const DumpError kind = reader_version_error(with_message(5, send_spec()));
  EXPECT_EQ(kind.where(), "/programs/0/main/4/collective/kind");
  EXPECT_EQ(kind.problem(),
            "collective kind 'send' in a version 5 dump (it exists from version 6)");
  json peer_only = with_message(5, send_spec());
  peer_only["programs"][0]["main"][4]["collective"]["kind"] = "bcast";
  peer_only["programs"][0]["main"][4]["collective"]["root"] = 0;
  peer_only["programs"][0]["main"][4]["collective"].erase("tag");
  const DumpError peer = reader_version_error(peer_only);
  EXPECT_EQ(peer.where(), "/programs/0/main/4/collective/peer");
  EXPECT_EQ(peer.problem(), "a peer in a version 5 dump (it exists from version 6)");
}

TEST(ReaderVersion, APeerIsARankOrAny) {
  json spec = send_spec();
  spec["kind"] = "recv";
  spec["peer"] = "any";
  const Job job = read_dump(with_message(6, spec).dump());
  const auto& call = std::get<CollectiveAction>(job.programs[0].main[4]).collective;
  EXPECT_EQ(call.kind, CollectiveKind::recv);
  EXPECT_EQ(call.peer, any_source);
  EXPECT_EQ(call.tag, 7u);
  spec["peer"] = "anyone";
  const DumpError error = reader_version_error(with_message(6, spec));
  EXPECT_EQ(error.where(), "/programs/0/main/4/collective/peer");
  EXPECT_EQ(error.problem(), "peer 'anyone'");
  spec["peer"] = 1;
  spec["tag"] = 32768;
  EXPECT_EQ(reader_version_error(with_message(6, spec)).where(),
            "/programs/0/main/4/collective/tag");
}

TEST(ReaderVersion, AMessageWritesBackAsItWasRead) {
  json spec = send_spec();
  const Job job = read_dump(with_message(6, spec).dump());
  EXPECT_EQ(read_dump(write_dump(job)), job);
  spec["kind"] = "recv";
  spec["peer"] = "any";
  const Job any = read_dump(with_message(6, spec).dump());
  EXPECT_TRUE(contains(write_dump(any), "\"peer\": \"any\"")) << write_dump(any);
  EXPECT_EQ(read_dump(write_dump(any)), any);
}

}  // namespace
}  // namespace ordo::dag
