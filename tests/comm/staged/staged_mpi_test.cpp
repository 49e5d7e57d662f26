// The staged pipeline on a real MPI job (run under mpirun at 2 and 4 ranks): StagedCommunicator
// over the MPI backend, its "device" buffers host memory copied by HostStager's thread. Every
// kind and dtype, many buffer and chunk sizes (zero and one element, counts no chunk divides,
// chunks of one element and chunks larger than the buffer), blocking, started and with
// callbacks, bitwise against the local reference on every rank.
#include <gtest/gtest.h>

#include <future>
#include <memory>
#include <string>
#include <vector>

#include "expected.hpp"
#include "runtime/comm/staged/host_stager.hpp"
#include "runtime/comm/staged/staged_communicator.hpp"
#include "runtime/dag/names.hpp"
#include "tests/comm/mpi_env.hpp"

namespace ordo::comm::test {
namespace {

using dag::CollectiveKind;
using dag::DType;
using dag::Reduction;

enum class Form { blocking, started, callback };

void run(StagedCommunicator& staged, const Call& call, std::vector<std::byte>& buffer, Form form) {
  switch (form) {
    case Form::blocking:
      staged.call(call, buffer.data());
      return;
    case Form::started:
      staged.start(call, buffer.data())->wait();
      return;
    case Form::callback: {
      std::promise<std::exception_ptr> ended;
      staged.start_then(call, buffer.data(),
                        [&ended](std::exception_ptr e) { ended.set_value(e); });
      if (const std::exception_ptr error = ended.get_future().get()) std::rethrow_exception(error);
      return;
    }
  }
}

void expect_staged(const Call& call, std::size_t chunk_bytes, Form form = Form::blocking) {
  StagedCommunicator staged(world_comm(), std::make_unique<HostStager>(),
                            StagedOptions{chunk_bytes});
  const Expected e = expected(call, world().size(), world().rank());
  std::vector<std::byte> buffer = e.before;
  run(staged, call, buffer, form);
  EXPECT_EQ(check(buffer, e, call, world().rank()), "") << label(call, chunk_bytes);
}

Call make_call(CollectiveKind kind, std::uint64_t count, DType dtype, Reduction reduction,
               std::optional<dag::Rank> root = std::nullopt) {
  return Call{kind, 9, count, dtype, reduction, root};
}

class StagedAllreduce : public ::testing::TestWithParam<DType> {};

TEST_P(StagedAllreduce, SumsBitwiseAtEveryBufferAndChunkSize) {
  const DType dtype = GetParam();
  for (const StagedSize s : staged_sizes(dtype, (1u << 20) / dag::dtype_bytes(dtype), 2000)) {
    expect_staged(make_call(CollectiveKind::allreduce, s.count, dtype, Reduction::sum),
                  s.chunk_bytes);
  }
}

INSTANTIATE_TEST_SUITE_P(AllDTypes, StagedAllreduce,
                         ::testing::Values(DType::f32, DType::f64, DType::f16, DType::bf16,
                                           DType::i8, DType::u8, DType::i32, DType::i64),
                         [](const ::testing::TestParamInfo<DType>& p) {
                           return std::string(dag::to_string(p.param));
                         });

TEST(Staged, EveryReductionInEveryForm) {
  for (const Reduction reduction : {Reduction::prod, Reduction::min, Reduction::max}) {
    for (const Form form : {Form::blocking, Form::started, Form::callback}) {
      expect_staged(make_call(CollectiveKind::allreduce, 4097, DType::f32, reduction), 1000, form);
      expect_staged(make_call(CollectiveKind::allreduce, 99, DType::i64, reduction), 8, form);
    }
  }
}

TEST(Staged, ADefaultChunkedSixtyFourMebibytes) {
  expect_staged(make_call(CollectiveKind::allreduce, (64u << 20) / 4, DType::f32, Reduction::sum),
                StagedOptions{}.chunk_bytes, Form::started);
}

TEST(Staged, BcastAndReduceFromEveryRoot) {
  for (dag::Rank root = 0; root < world().size(); ++root) {
    for (const StagedSize s : staged_sizes(DType::f16, 100000, 500)) {
      expect_staged(make_call(CollectiveKind::bcast, s.count, DType::f16, Reduction::none, root),
                    s.chunk_bytes);
      expect_staged(make_call(CollectiveKind::reduce, s.count, DType::i32, Reduction::sum, root),
                    s.chunk_bytes, Form::started);
    }
  }
}

TEST(Staged, ReduceScatterAndAllgather) {
  const std::uint32_t size = world().size();
  for (const StagedSize s : staged_sizes(DType::f32, 100000, 100000, size)) {
    expect_staged(make_call(CollectiveKind::reduce_scatter, s.count, DType::f32, Reduction::sum),
                  s.chunk_bytes);
    expect_staged(make_call(CollectiveKind::allgather, s.count, DType::bf16, Reduction::none),
                  s.chunk_bytes, Form::callback);
  }
}

TEST(Staged, Barrier) {
  expect_staged(make_call(CollectiveKind::barrier, 0, DType::f32, Reduction::none), 64);
  expect_staged(make_call(CollectiveKind::barrier, 0, DType::f32, Reduction::none), 64,
                Form::started);
}

}  // namespace
}  // namespace ordo::comm::test
