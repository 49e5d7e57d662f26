#include "runtime/data/recordio.hpp"

#include <cstdio>

#include "runtime/data/data_error.hpp"

namespace ordo::data {

namespace {

std::uint32_t padded(std::uint32_t length) { return (length + 3u) & ~3u; }

void put_le32(std::string& out, std::uint32_t v) {
  for (int shift = 0; shift < 32; shift += 8) out.push_back(static_cast<char>(v >> shift & 0xff));
}

std::uint32_t get_le32(const char* p) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = v << 8 | static_cast<std::uint8_t>(p[i]);
  return v;
}

std::string hex32(std::uint32_t v) {
  char s[11];
  std::snprintf(s, sizeof s, "0x%08x", v);
  return s;
}

void put_part(std::string& out, RecordPart part, std::string_view data) {
  put_le32(out, recordio_magic);
  put_le32(out, recordio_lrec(part, static_cast<std::uint32_t>(data.size())));
  out.append(data);
  out.append(padded(static_cast<std::uint32_t>(data.size())) - data.size(), '\0');
}

std::string at(std::string_view source, std::uint64_t record, std::uint64_t byte) {
  return std::string(source) + ": record " + std::to_string(record) + ", byte " +
         std::to_string(byte);
}

}  // namespace

std::string encode_record(std::string_view payload) {
  if (payload.size() > recordio_length_max) {
    throw DataError("a record of " + std::to_string(payload.size()) + " bytes",
                    "is too long for RecordIO",
                    "at most " + std::to_string(recordio_length_max) + " bytes (29-bit lengths)");
  }
  std::string out;
  out.reserve(payload.size() + 2 * recordio_header_bytes);
  // Only whole, aligned words are compared: the magic can sit at an aligned position in the file
  // only there, since the data starts aligned. A cut always falls on a word boundary, so every
  // part but the last has a length that is a multiple of 4 and needs no padding.
  std::size_t start = 0;
  const std::size_t words_end = payload.size() & ~std::size_t{3};
  for (std::size_t i = 0; i < words_end; i += 4) {
    if (get_le32(payload.data() + i) != recordio_magic) continue;
    put_part(out, start == 0 ? RecordPart::first : RecordPart::middle,
             payload.substr(start, i - start));
    start = i + 4;
  }
  put_part(out, start == 0 ? RecordPart::whole : RecordPart::last, payload.substr(start));
  return out;
}

std::uint64_t RecordWriter::append(std::string_view payload) {
  const std::string bytes = encode_record(payload);
  const std::uint64_t offset = offset_;
  sink_(bytes);
  offset_ += bytes.size();
  ++records_;
  return offset;
}

Record read_record_at(const ByteRange& bytes, std::uint64_t offset, std::string_view source,
                      std::uint64_t record) {
  const std::uint64_t size = bytes.size();
  if (offset % 4 != 0) {
    throw DataError(at(source, record, offset), "the offset is not a multiple of 4",
                    "a record start (records are 4-byte aligned)");
  }
  Record out;
  out.offset = offset;
  std::uint64_t pos = offset;
  for (bool first = true;; first = false) {
    if (pos > size || size - pos < recordio_header_bytes) {
      throw DataError(at(source, record, pos),
                      pos >= size ? "the file ends (" + std::to_string(size) + " bytes) here"
                                  : "the file ends inside a record header",
                      first ? "an 8-byte record header: magic 0xced7230a, then the length word"
                            : "the next part of a multi-part record");
    }
    char header[recordio_header_bytes];
    bytes.read(pos, sizeof header, header);
    const std::uint32_t magic = get_le32(header);
    if (magic != recordio_magic) {
      throw DataError(at(source, record, pos), "the magic is " + hex32(magic),
                      "0xced7230a, the RecordIO magic, at the start of every record and part");
    }
    const std::uint32_t lrec = get_le32(header + 4);
    const std::uint32_t flag = lrec >> recordio_length_bits;
    const std::uint32_t length = lrec & recordio_length_max;
    if (flag > static_cast<std::uint32_t>(RecordPart::last)) {
      throw DataError(at(source, record, pos + 4), "continuation flag " + std::to_string(flag),
                      "0 (whole), 1 (first part), 2 (middle part) or 3 (last part)");
    }
    const auto part = static_cast<RecordPart>(flag);
    if (first && (part == RecordPart::middle || part == RecordPart::last)) {
      throw DataError(at(source, record, pos + 4),
                      "a record starts with a " +
                          std::string(part == RecordPart::middle ? "middle" : "last") + " part",
                      "a whole record (flag 0) or the first part of one (flag 1)");
    }
    if (!first && (part == RecordPart::whole || part == RecordPart::first)) {
      throw DataError(at(source, record, pos + 4),
                      "a multi-part record is followed by a new record before its last part",
                      "a middle part (flag 2) or the last part (flag 3)");
    }
    if ((part == RecordPart::first || part == RecordPart::middle) && length % 4 != 0) {
      throw DataError(at(source, record, pos + 4),
                      "a part before the last is " + std::to_string(length) + " bytes long",
                      "a multiple of 4: writers cut payloads only at aligned magic words");
    }
    const std::uint64_t body = pos + recordio_header_bytes;
    if (padded(length) > size - body) {
      throw DataError(at(source, record, pos + 4),
                      "the length " + std::to_string(length) + " runs past the end of the file (" +
                          std::to_string(size - body) + " bytes remain)",
                      "a length that fits in the file");
    }
    const std::size_t before = out.payload.size();
    out.payload.resize(before + length);
    if (length != 0) bytes.read(body, length, out.payload.data() + before);
    pos = body + padded(length);
    if (part == RecordPart::whole || part == RecordPart::last) break;
    // The writer dropped a magic word here.
    put_le32(out.payload, recordio_magic);
  }
  out.end = pos;
  return out;
}

bool RecordScanner::next(Record& out) {
  if (offset_ == bytes_.size()) return false;
  out = read_record_at(bytes_, offset_, source_, records_);
  offset_ = out.end;
  ++records_;
  return true;
}

}  // namespace ordo::data
