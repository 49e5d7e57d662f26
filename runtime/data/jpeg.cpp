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

struct Header {
  JpegSize size;
  int colorspace = 0;
};

Header read_header(const Handle& h, std::string_view jpeg, std::string_view where,
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
  return {{static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height)}, colorspace};
}

// CMYK as Adobe's applications store it (inverted: 255 is no ink), converted to RGB as OpenCV
// converts it, so these images (ImageNet's training set has about twenty) get the pixels MXNet's
// OpenCV decoder gives them. TurboJPEG does no CMYK conversion itself.
void cmyk_to_rgb(const std::vector<std::uint8_t>& cmyk, std::vector<std::uint8_t>& rgb) {
  for (std::size_t p = 0, q = 0; p < cmyk.size(); p += 4, q += 3) {
    const int k = cmyk[p + 3];
    for (std::size_t c = 0; c < 3; ++c) {
      rgb[q + c] = static_cast<std::uint8_t>(k - ((255 - cmyk[p + c]) * k >> 8));
    }
  }
}

void decompress(const Handle& h, std::string_view jpeg, std::string_view where, std::uint8_t* out,
                const JpegSize& size, int pixel_format) {
  if (tjDecompress2(h.get(), bytes_of(jpeg), static_cast<unsigned long>(jpeg.size()), out,
                    static_cast<int>(size.width), 0, static_cast<int>(size.height), pixel_format,
                    TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS) != 0) {
    throw DataError(std::string(where), "the JPEG does not decode (" + h.error() + ")",
                    "a complete, uncorrupted JPEG image");
  }
}

}  // namespace

JpegSize jpeg_size(std::string_view jpeg, std::string_view where, std::uint64_t max_pixels) {
  const Handle h(tjInitDecompress());
  return read_header(h, jpeg, where, max_pixels).size;
}

RgbImage decode_jpeg(std::string_view jpeg, std::string_view where, std::uint64_t max_pixels) {
  const Handle h(tjInitDecompress());
  const Header header = read_header(h, jpeg, where, max_pixels);
  const JpegSize size = header.size;
  RgbImage image;
  image.width = size.width;
  image.height = size.height;
  const std::size_t pixels = std::size_t{size.width} * size.height;
  // Constructed, not resized: g++ 12 warns falsely (null dereference) on resize here.
  image.pixels = std::vector<std::uint8_t>(pixels * 3);
  if (header.colorspace == TJCS_CMYK || header.colorspace == TJCS_YCCK) {
    std::vector<std::uint8_t> cmyk(pixels * 4);
    decompress(h, jpeg, where, cmyk.data(), size, TJPF_CMYK);
    cmyk_to_rgb(cmyk, image.pixels);
  } else {
    decompress(h, jpeg, where, image.pixels.data(), size, TJPF_RGB);
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
