#include "runtime/data/jpeg.hpp"

#include <turbojpeg.h>

#include <limits>
#include <stdexcept>

#include "runtime/data/data_error.hpp"

namespace ordo::data {

namespace {

// A TurboJPEG handle, destroyed on every path out; its error text is per handle.
class Handle {
 public:
  explicit Handle(tjhandle h) : h_(h) {
    if (h_ == nullptr) throw std::runtime_error("TurboJPEG: cannot create a handle");
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { tjDestroy(h_); }
  tjhandle get() const { return h_; }
  std::string error() const { return tjGetErrorStr2(h_); }

 private:
  tjhandle h_;
};

const unsigned char* bytes_of(std::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

JpegSize read_header(const Handle& h, std::string_view jpeg, std::string_view where,
                     std::uint64_t max_pixels) {
  // TurboJPEG takes an unsigned long size; a record is below 2^29 bytes anyway.
  if (jpeg.size() > std::numeric_limits<unsigned long>::max()) {
    throw DataError(std::string(where), "the image is too large", "a JPEG below 4 GiB");
  }
  int width = 0, height = 0, subsamp = 0, colorspace = 0;
  if (tjDecompressHeader3(h.get(), bytes_of(jpeg), static_cast<unsigned long>(jpeg.size()), &width,
                          &height, &subsamp, &colorspace) != 0) {
    throw DataError(std::string(where), "not a readable JPEG (" + h.error() + ")",
                    "a JPEG image (im2rec's default encoding)");
  }
  const std::uint64_t pixels = std::uint64_t(width) * std::uint64_t(height);
  if (width <= 0 || height <= 0 || pixels > max_pixels) {
    throw DataError(
        std::string(where),
        "the JPEG declares " + std::to_string(width) + "x" + std::to_string(height) + " pixels",
        "at most " + std::to_string(max_pixels) + " pixels");
  }
  return {static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height)};
}

}  // namespace

JpegSize jpeg_size(std::string_view jpeg, std::string_view where, std::uint64_t max_pixels) {
  const Handle h(tjInitDecompress());
  return read_header(h, jpeg, where, max_pixels);
}

RgbImage decode_jpeg(std::string_view jpeg, std::string_view where, std::uint64_t max_pixels) {
  const Handle h(tjInitDecompress());
  const JpegSize size = read_header(h, jpeg, where, max_pixels);
  RgbImage image;
  image.width = size.width;
  image.height = size.height;
  // Constructed, not resized: g++ 12 warns falsely (null dereference) on resize here.
  image.pixels = std::vector<std::uint8_t>(std::size_t{size.width} * size.height * 3);
  if (tjDecompress2(h.get(), bytes_of(jpeg), static_cast<unsigned long>(jpeg.size()),
                    image.pixels.data(), static_cast<int>(size.width), 0,
                    static_cast<int>(size.height), TJPF_RGB,
                    TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS) != 0) {
    throw DataError(std::string(where), "the JPEG does not decode (" + h.error() + ")",
                    "a complete, uncorrupted JPEG image");
  }
  return image;
}

std::string encode_jpeg(const RgbImage& image, int quality) {
  if (image.width == 0 || image.height == 0 ||
      image.pixels.size() != std::size_t{image.width} * image.height * 3 || quality < 1 ||
      quality > 100) {
    throw std::invalid_argument(
        "encode_jpeg: an empty image, pixels not width*height*3, or a "
        "quality outside 1-100");
  }
  const Handle h(tjInitCompress());
  unsigned char* out = nullptr;
  unsigned long out_size = 0;
  const int status = tjCompress2(h.get(), image.pixels.data(), static_cast<int>(image.width), 0,
                                 static_cast<int>(image.height), TJPF_RGB, &out, &out_size,
                                 TJSAMP_420, quality, TJFLAG_ACCURATEDCT);
  if (status != 0) {
    if (out != nullptr) tjFree(out);
    throw std::runtime_error("TurboJPEG could not encode: " + h.error());
  }
  std::string jpeg(reinterpret_cast<const char*>(out), out_size);
  tjFree(out);
  return jpeg;
}

}  // namespace ordo::data
