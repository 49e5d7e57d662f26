#include "tests/dag/sample_jobs.hpp"

namespace ordo::dag::testing {
namespace {

Collective allreduce(CommId comm, std::int64_t key, std::uint64_t count, DType dtype,
                     Reduction reduction) {
  return Collective{.kind = CollectiveKind::allreduce,
                    .comm = comm,
                    .key = key,
                    .count = count,
                    .dtype = dtype,
                    .reduction = reduction,
                    .root = std::nullopt};
}

Program rank0_program() {
  Program program{.name = "rank0", .ranks = std::vector<Rank>{0}};
  program.pools = {{.name = "compute", .threads = 2, .kind = PoolKind::fifo},
                   {.name = "comm", .threads = 1, .kind = PoolKind::priority}};
  program.vars = {{.name = "x", .kind = VarKind::tensor, .bytes = 64, .dtype = DType::f32},
                  {.name = "g0", .kind = VarKind::tensor, .bytes = 4096, .dtype = DType::f32},
                  {.name = "buf0", .kind = VarKind::buffer, .bytes = 4096, .dtype = DType::f32},
                  {.name = "tok", .kind = VarKind::token, .bytes = 0, .dtype = DType::u8}};
  program.ops = {
      {.name = "fwd",
       .reads = {0},
       .writes = {1},
       .pool = 0,
       .priority = -3,
       .kind = OpKind::compute,
       .cost_us = 12.5},
      {.name = "cp", .reads = {1}, .writes = {2}, .pool = 0, .kind = OpKind::copy, .cost_us = 0.1},
      {.name = "ar",
       .writes = {2},
       .pool = 1,
       .priority = 2147483647,
       .kind = OpKind::collective,
       .collective = allreduce(0, -7, 1024, DType::f32, Reduction::sum)},
      {.name = "bc",
       .writes = {0, 3},
       .pool = 1,
       .kind = OpKind::async_collective,
       .cost_us = 1e-300,
       .collective = Collective{.kind = CollectiveKind::bcast,
                                .comm = 1,
                                .key = 1,
                                .count = 16,
                                .dtype = DType::f32,
                                .reduction = Reduction::none,
                                .root = 1}}};
  program.main = {
      SubmitAction{0},
      SubmitAction{1},
      WaitToReadAction{2},
      SubmitAction{2},
      SubmitAction{3},
      CollectiveAction{Collective{.kind = CollectiveKind::barrier, .comm = 0, .key = 99},
                       std::nullopt},
      WaitForAllAction{}};
  return program;
}

Program rank12_program() {
  Program program{.name = "ranks 1 and 2: \"é\"", .ranks = std::vector<Rank>{2, 1}};
  program.pools = {{.name = "comm", .threads = 4096, .kind = PoolKind::fifo}};
  program.vars = {{.name = "d_f64", .kind = VarKind::buffer, .bytes = 64, .dtype = DType::f64},
                  {.name = "d_f16", .bytes = 2, .dtype = DType::f16},
                  {.name = "d_bf16", .bytes = 2, .dtype = DType::bf16},
                  {.name = "d_i8", .bytes = 1, .dtype = DType::i8},
                  {.name = "d_u8", .bytes = 1, .dtype = DType::u8},
                  {.name = "d_i32", .bytes = 4, .dtype = DType::i32},
                  {.name = "d_i64", .kind = VarKind::buffer, .bytes = 8, .dtype = DType::i64}};
  program.ops = {{.name = "prod",
                  .reads = {3, 4},
                  .writes = {1},
                  .pool = 0,
                  .kind = OpKind::collective,
                  .cost_us = 12345.678901234567,
                  .collective = allreduce(2, 1, 1, DType::f16, Reduction::prod)},
                 {.name = "min",
                  .writes = {2},
                  .pool = 0,
                  .kind = OpKind::collective,
                  .collective = allreduce(2, 2, 1, DType::bf16, Reduction::min)},
                 {.name = "max",
                  .reads = {5},
                  .writes = {6},
                  .pool = 0,
                  .priority = -2147483647 - 1,
                  .kind = OpKind::async_collective,
                  .collective = allreduce(0, 9223372036854775807, 1, DType::i64, Reduction::max)}};
  program.main = {
      SubmitAction{2}, SubmitAction{0}, SubmitAction{1}, WaitToReadAction{6},
      CollectiveAction{allreduce(0, -9223372036854775807 - 1, 8, DType::f64, Reduction::sum),
                       VarId{0}}};
  return program;
}

}  // namespace

Job every_construct_job() {
  Job job{.ranks = 3};
  job.comms = {{.name = "world"},
               {.name = "c01", .members = std::vector<Rank>{0, 1}},
               {.name = "c21", .members = std::vector<Rank>{2, 1}}};
  job.programs = {rank0_program(), rank12_program()};
  return job;
}

Job spmd_job() {
  Job job;
  job.comms = {{.name = "world"}};
  Program program{.name = "step"};
  program.pools = {{.name = "compute", .threads = 2}, {.name = "comm", .threads = 1}};
  program.vars = {{.name = "g0", .bytes = 4096},
                  {.name = "buf0", .kind = VarKind::buffer, .bytes = 4096}};
  program.ops = {{.name = "bwd0", .writes = {0}, .pool = 0},
                 {.name = "ar0",
                  .reads = {0},
                  .writes = {1},
                  .pool = 1,
                  .kind = OpKind::collective,
                  .collective = allreduce(0, 0, 1024, DType::f32, Reduction::sum)}};
  program.main = {SubmitAction{0}, SubmitAction{1}, WaitForAllAction{}};
  job.programs = {program};
  return job;
}

Job small_valid_job() {
  Job job{.ranks = 2};
  job.comms = {{.name = "world"}, {.name = "pair", .members = std::vector<Rank>{0, 1}}};
  Program program{.name = "step"};
  program.pools = {{.name = "compute", .threads = 2}, {.name = "comm", .threads = 1}};
  program.vars = {{.name = "g0", .bytes = 4096},
                  {.name = "buf0", .kind = VarKind::buffer, .bytes = 4096},
                  {.name = "tok", .kind = VarKind::token}};
  program.ops = {{.name = "bwd0", .writes = {0}, .pool = 0},
                 {.name = "cp0", .reads = {0}, .writes = {1}, .pool = 0, .kind = OpKind::copy},
                 {.name = "ar0",
                  .writes = {1},
                  .pool = 1,
                  .kind = OpKind::collective,
                  .collective = allreduce(1, 0, 1024, DType::f32, Reduction::sum)}};
  program.main = {
      SubmitAction{0},
      SubmitAction{1},
      WaitToReadAction{1},
      SubmitAction{2},
      CollectiveAction{Collective{.kind = CollectiveKind::barrier, .comm = 0}, std::nullopt},
      WaitForAllAction{}};
  job.programs = {program};
  return job;
}

}  // namespace ordo::dag::testing
