#include "runtime/data/file_bytes.hpp"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>

#include "runtime/data/data_error.hpp"
#include "runtime/io/input_file.hpp"

namespace ordo::data {

namespace {

// zlib's stream state, ended on every path out.
class Inflater {
 public:
  explicit Inflater(std::string_view source) : source_(source) {
    // 16 + MAX_WBITS: a gzip header and trailer, with their check of length and CRC.
    if (inflateInit2(&z_, 16 + MAX_WBITS) != Z_OK) {
      throw DataError(std::string(source_), "zlib could not start", "memory for zlib's state");
    }
  }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  ~Inflater() { inflateEnd(&z_); }
  z_stream& z() { return z_; }

 private:
  std::string_view source_;
  z_stream z_{};
};

}  // namespace

bool is_gzip(std::string_view bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

namespace {

// Inflates every member of `bytes` into at most `limit` bytes; `more` tells whether the stream
// holds more than that (it is inflated one byte past `limit` to know, and no further).
std::string inflate_upto(std::string_view bytes, std::string_view source, std::size_t limit,
                         bool& more) {
  std::string out;
  more = false;
  std::size_t at = 0;  // where the current member starts
  while (at < bytes.size()) {
    Inflater inflater(source);
    z_stream& z = inflater.z();
    const std::string_view member = bytes.substr(at);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(member.data()));
    z.avail_in =
        static_cast<uInt>(std::min<std::size_t>(member.size(), std::numeric_limits<uInt>::max()));
    int status = Z_OK;
    while (status != Z_STREAM_END) {
      const std::size_t chunk = std::min<std::size_t>(limit + 1 - out.size(), std::size_t{1} << 20);
      const std::size_t before = out.size();
      out.resize(before + chunk);
      z.next_out = reinterpret_cast<Bytef*>(out.data() + before);
      z.avail_out = static_cast<uInt>(chunk);
      status = inflate(&z, Z_NO_FLUSH);
      out.resize(before + (chunk - z.avail_out));
      if (out.size() > limit) {
        out.resize(limit);
        more = true;
        return out;
      }
      if (status == Z_STREAM_END) break;
      if (status == Z_BUF_ERROR && z.avail_in == 0) {
        throw DataError(std::string(source) + ": byte " + std::to_string(bytes.size()),
                        "the gzip stream is truncated", "a complete gzip member");
      }
      if (status != Z_OK && status != Z_BUF_ERROR) {
        throw DataError(std::string(source) + ": byte " + std::to_string(at + z.total_in),
                        std::string("the gzip stream is corrupt (") +
                            (z.msg != nullptr ? z.msg : "zlib error " + std::to_string(status)) +
                            ")",
                        "a valid gzip stream");
      }
    }
    at += z.total_in;
    // Members may follow one another; anything else after the first is not gzip.
    if (at < bytes.size() && !is_gzip(bytes.substr(at))) {
      throw DataError(std::string(source) + ": byte " + std::to_string(at),
                      "bytes after the gzip stream that start no gzip member",
                      "the end of the file or another gzip member");
    }
  }
  return out;
}

}  // namespace

std::string gunzip(std::string_view bytes, std::string_view source, std::size_t max,
                   std::string_view bound) {
  bool more = false;
  std::string out = inflate_upto(bytes, source, max, more);
  if (more) {
    throw DataError(std::string(source), "inflates to more than " + std::to_string(max) + " bytes",
                    bound.empty() ? "a data file of at most that size" : std::string(bound));
  }
  return out;
}

std::string gunzip_prefix(std::string_view bytes, std::string_view source, std::size_t n) {
  bool more = false;
  return inflate_upto(bytes, source, n, more);
}

std::string read_stored_bytes(const std::string& path, std::size_t max) {
  // A FIFO would wait for a writer for ever, a directory tell a size of 2^63 - 1.
  if (std::optional<io::InputProblem> problem = io::input_file_problem(path, "data file")) {
    throw DataError(path, problem->problem, problem->expected);
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw DataError(path, std::string("cannot open: ") + std::strerror(errno),
                    "a readable data file");
  }
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  in.seekg(0, std::ios::beg);
  if (size < 0) throw DataError(path, "cannot tell its size", "a regular file");
  if (static_cast<std::uint64_t>(size) > max) {
    throw DataError(path, "is " + std::to_string(size) + " bytes",
                    "a data file of at most " + std::to_string(max) + " bytes");
  }
  std::string bytes(static_cast<std::size_t>(size), '\0');
  if (!in.read(bytes.data(), size)) throw DataError(path, "a read failed", "a readable file");
  return bytes;
}

std::string read_file_bytes(const std::string& path, std::size_t max) {
  std::string bytes = read_stored_bytes(path, max);
  if (is_gzip(bytes)) return gunzip(bytes, path, max);
  return bytes;
}

}  // namespace ordo::data
