// Where the trainer computes: the CPU, or a CUDA GPU through libtorch. Whether a GPU can be used
// depends on two things this process cannot change, the libtorch it was built against (Debian's
// is CPU-only) and the GPUs it sees, so asking is separate from training: `ordo train --device
// cuda` asks before it starts anything and refuses with the reason and the remedy.
#pragma once

#include <c10/core/Device.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ordo::train {

// "cpu" or "cuda"; nullopt for anything else.
std::optional<c10::DeviceType> parse_device_type(std::string_view name);

// Why training cannot use `type` here (what is missing, why, what to do), or nullopt when it
// can. The CPU always can.
std::optional<std::string> device_unusable(c10::DeviceType type);

// The device a rank trains on: the CPU, or the GPU of index `local_rank` modulo the GPUs visible,
// so that the ranks of a node spread over its GPUs. Call after device_unusable said yes.
c10::Device training_device(c10::DeviceType type, std::uint32_t local_rank);

// Blocks until the work this thread gave `device`'s current stream has run (nothing to wait for
// on the CPU): what libtorch wrote is then there for work on another stream, a collective's.
void wait_for_stream(const c10::Device& device);
// Whether this thread's current stream of `device` is the device's default stream (libtorch's
// unless a program makes another current), the one the trainer's compute queue marks behind.
// Always true on the CPU.
bool on_default_stream(const c10::Device& device);

}  // namespace ordo::train
