// How many threads one rank's tensor math uses. Ranks that share a machine share its cores, and
// libtorch's intra-op pool and OpenBLAS's own threads each default to every core, so N ranks on
// one machine would run N times as many threads as cores and slow each other down. PyTorch DDP
// recipes set one intra-op thread per rank for the same reason; the comparison bench does too.
#pragma once

#include <cstdint>

namespace ordo::train {

// The default: the machine's cores divided among the ranks on it (at least 1). `local_ranks` is
// how many ranks run on this machine.
std::uint32_t default_compute_threads(std::uint32_t local_ranks);

// Sets libtorch's intra-op threads and, where libtorch's BLAS is OpenBLAS with threads of its own
// (Debian's libopenblas0-pthread), OpenBLAS's too. Call before the first tensor operation.
void set_compute_threads(std::uint32_t threads);

}  // namespace ordo::train
