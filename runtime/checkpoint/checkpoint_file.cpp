#include "runtime/checkpoint/checkpoint_file.hpp"

#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "runtime/checkpoint/checkpoint_error.hpp"
#include "runtime/io/atomic_file.hpp"
#include "runtime/io/input_file.hpp"

namespace ordo::checkpoint {

static_assert(std::endian::native == std::endian::little,
              "the checkpoint format is little-endian and is read by copying");

namespace {

constexpr std::string_view magic = "ORDOCKPT";
constexpr std::size_t prefix_bytes = 8 + 4 + 8;  // magic, version, header length
constexpr std::size_t crc_bytes = 4;
// A model that does not fit this does not fit a training job's memory either.
constexpr std::uint64_t file_bytes_max = std::uint64_t{1} << 38;

bool known_group(const std::string& g) { return g == "weight" || g == "momentum" || g == "buffer"; }

template <typename T>
void put(std::string& out, T value) {
  char raw[sizeof(T)];
  std::memcpy(raw, &value, sizeof(T));
  out.append(raw, sizeof(T));
}

template <typename T>
T get(std::string_view bytes, std::size_t at) {
  T value;
  std::memcpy(&value, bytes.data() + at, sizeof(T));
  return value;
}

std::uint32_t crc_of(std::string_view bytes) {
  uLong crc = crc32(0L, Z_NULL, 0);
  // zlib takes lengths as uInt: feed it in pieces.
  constexpr std::size_t piece = std::size_t{1} << 30;
  for (std::size_t at = 0; at < bytes.size(); at += piece) {
    const std::size_t n = std::min(piece, bytes.size() - at);
    crc = crc32(crc, reinterpret_cast<const Bytef*>(bytes.data() + at), static_cast<uInt>(n));
  }
  return static_cast<std::uint32_t>(crc);
}

// The element count of a shape, or nullopt when a dimension is negative or the count exceeds
// `max`.
std::optional<std::uint64_t> elements(const std::vector<std::int64_t>& shape, std::uint64_t max) {
  std::uint64_t n = 1;
  for (std::int64_t d : shape) {
    if (d < 0) return std::nullopt;
    const auto u = static_cast<std::uint64_t>(d);
    if (u != 0 && n > max / u) return std::nullopt;
    n *= u;
  }
  return n <= max ? std::optional(n) : std::nullopt;
}

class Decoder {
 public:
  Decoder(std::string_view bytes, const std::string& source) : bytes_(bytes), source_(source) {}

  Checkpoint run() {
    if (bytes_.size() < prefix_bytes + crc_bytes) {
      fail(0, "the file has " + std::to_string(bytes_.size()) + " bytes",
           "at least " + std::to_string(prefix_bytes + crc_bytes) + " (a checkpoint's frame)");
    }
    if (bytes_.substr(0, magic.size()) != magic) {
      fail(0, "the file does not start with \"ORDOCKPT\"", "an ordo checkpoint");
    }
    const auto version = get<std::uint32_t>(bytes_, 8);
    if (version != format_version) {
      fail(8, "format version " + std::to_string(version),
           "version " + std::to_string(format_version));
    }
    const auto header_bytes = get<std::uint64_t>(bytes_, 12);
    const std::size_t body_end = bytes_.size() - crc_bytes;
    if (header_bytes > body_end - prefix_bytes) {
      fail(12, "a header of " + std::to_string(header_bytes) + " bytes",
           "at most the " + std::to_string(body_end - prefix_bytes) + " bytes the file holds");
    }
    const auto stored = get<std::uint32_t>(bytes_, body_end);
    if (crc_of(bytes_.substr(0, body_end)) != stored) {
      fail(body_end, "the CRC-32 does not match the contents (the file is torn or altered)",
           "the checksum the writer stored");
    }
    const std::size_t header_at = prefix_bytes;
    nlohmann::json h;
    try {
      h = nlohmann::json::parse(bytes_.substr(header_at, header_bytes));
    } catch (const nlohmann::json::exception& e) {
      fail(header_at, std::string("the header is not JSON (") + e.what() + ")", "a JSON object");
    }
    Checkpoint c;
    try {
      if (!h.is_object()) fail(header_at, "the header is not an object", "a JSON object");
      c.network = h.at("network").get<std::string>();
      c.design = h.at("design").get<std::string>();
      c.world_size = h.at("world_size").get<std::uint32_t>();
      c.rank = h.at("rank").get<std::uint32_t>();
      c.seed = h.at("seed").get<std::uint64_t>();
      c.batch = h.at("batch").get<std::uint32_t>();
      c.step = h.at("step").get<std::uint64_t>();
      c.epoch = h.at("epoch").get<std::uint32_t>();
      c.step_in_epoch = h.at("step_in_epoch").get<std::uint32_t>();
      const nlohmann::json& sums = h.at("epoch_sums");
      c.epoch_sums.loss = std::bit_cast<double>(sums.at("loss_bits").get<std::uint64_t>());
      c.epoch_sums.correct = sums.at("correct").get<std::uint64_t>();
      c.epoch_sums.images = sums.at("images").get<std::uint64_t>();
      if (c.epoch_sums.correct > c.epoch_sums.images) {
        fail(header_at,
             "epoch sums of " + std::to_string(c.epoch_sums.correct) + " right answers in " +
                 std::to_string(c.epoch_sums.images) + " images",
             "at most one right answer per image");
      }
      if (c.world_size == 0 || c.rank >= c.world_size) {
        fail(header_at, "rank " + std::to_string(c.rank) + " of " + std::to_string(c.world_size),
             "a rank below a world size of at least 1");
      }
      std::size_t at = header_at + header_bytes;
      const nlohmann::json& arrays = h.at("arrays");
      if (!arrays.is_array()) fail(header_at, "\"arrays\" is not a list", "a list of arrays");
      for (std::size_t i = 0; i < arrays.size(); ++i) {
        Array a;
        a.name = arrays[i].at("name").get<std::string>();
        a.group = arrays[i].at("group").get<std::string>();
        a.shape = arrays[i].at("shape").get<std::vector<std::int64_t>>();
        const std::string what = "array " + std::to_string(i) + " ('" + a.name + "')";
        if (!known_group(a.group)) {
          fail(header_at, what + " has group '" + a.group + "'", "weight, momentum or buffer");
        }
        const std::optional<std::uint64_t> n = elements(a.shape, (body_end - at) / sizeof(float));
        if (!n) {
          fail(at,
               what + "'s shape does not fit the " + std::to_string(body_end - at) + " bytes left",
               "non-negative dimensions whose values the file holds");
        }
        a.values.resize(*n);
        // memcpy's pointers must not be null even for no bytes, and an empty vector's may be.
        if (*n != 0) std::memcpy(a.values.data(), bytes_.data() + at, *n * sizeof(float));
        at += *n * sizeof(float);
        c.arrays.push_back(std::move(a));
      }
      if (at != body_end) {
        fail(at, std::to_string(body_end - at) + " bytes after the last array",
             "the checksum right after the values");
      }
    } catch (const nlohmann::json::exception& e) {
      fail(header_at, std::string("a header field is missing or mistyped (") + e.what() + ")",
           "network, design, world_size, rank, seed, batch, step, epoch, step_in_epoch, "
           "epoch_sums (loss_bits, correct, images), arrays");
    }
    return c;
  }

 private:
  [[noreturn]] void fail(std::size_t offset, const std::string& problem,
                         const std::string& expected) const {
    throw CheckpointError(source_ + ": byte " + std::to_string(offset), problem, expected);
  }

  std::string_view bytes_;
  const std::string& source_;
};

}  // namespace

std::string encode(const Checkpoint& c) {
  nlohmann::json h;
  h["network"] = c.network;
  h["design"] = c.design;
  h["world_size"] = c.world_size;
  h["rank"] = c.rank;
  h["seed"] = c.seed;
  h["batch"] = c.batch;
  h["step"] = c.step;
  h["epoch"] = c.epoch;
  h["step_in_epoch"] = c.step_in_epoch;
  // The loss as its IEEE-754 bits: they come back exact, and JSON has no NaN or infinity for a
  // run whose loss diverged.
  h["epoch_sums"] = {{"loss_bits", std::bit_cast<std::uint64_t>(c.epoch_sums.loss)},
                     {"correct", c.epoch_sums.correct},
                     {"images", c.epoch_sums.images}};
  h["arrays"] = nlohmann::json::array();
  std::uint64_t values = 0;
  for (const Array& a : c.arrays) {
    const std::optional<std::uint64_t> n =
        elements(a.shape, std::numeric_limits<std::uint64_t>::max());
    if (!n || *n != a.values.size()) {
      throw std::invalid_argument("checkpoint array '" + a.name + "' has " +
                                  std::to_string(a.values.size()) +
                                  " values, not what its shape holds");
    }
    if (!known_group(a.group)) {
      throw std::invalid_argument("checkpoint array '" + a.name + "' has group '" + a.group + "'");
    }
    h["arrays"].push_back({{"name", a.name}, {"group", a.group}, {"shape", a.shape}});
    values += *n;
  }
  const std::string header = h.dump();
  std::string out;
  out.reserve(prefix_bytes + header.size() + values * sizeof(float) + crc_bytes);
  out.append(magic);
  put<std::uint32_t>(out, format_version);
  put<std::uint64_t>(out, header.size());
  out.append(header);
  for (const Array& a : c.arrays) {
    if (!a.values.empty()) {
      out.append(reinterpret_cast<const char*>(a.values.data()), a.values.size() * sizeof(float));
    }
  }
  put<std::uint32_t>(out, crc_of(out));
  return out;
}

Checkpoint decode(std::string_view bytes, const std::string& source) {
  return Decoder(bytes, source).run();
}

void write(const std::string& path, const Checkpoint& checkpoint) {
  io::write_file_atomically(path, encode(checkpoint));
}

Checkpoint read(const std::string& path) {
  // A directory opens and tells a size of its own; a FIFO would wait for a writer for ever.
  if (std::optional<io::InputProblem> problem = io::input_file_problem(path, "checkpoint file")) {
    throw CheckpointError(path, problem->problem, problem->expected);
  }
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw CheckpointError(path, "cannot be opened", "a readable checkpoint file");
  const std::streamoff size = in.tellg();
  if (size < 0 || static_cast<std::uint64_t>(size) > file_bytes_max) {
    throw CheckpointError(path, "a size of " + std::to_string(size) + " bytes",
                          "a readable file of at most 256 GiB");
  }
  std::string bytes(static_cast<std::size_t>(size), '\0');
  in.seekg(0);
  if (!in.read(bytes.data(), size)) {
    throw CheckpointError(path, "cannot be read to its end", "a readable checkpoint file");
  }
  return decode(bytes, path);
}

}  // namespace ordo::checkpoint
