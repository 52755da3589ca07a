#include "src/core/image_formats.h"

// Formats handled here, exactly as read and written:
//
// Netpbm (P5 gray, P6 colour): "P5"|"P6", then width, height, maxval as decimal ASCII fields
//   separated by whitespace, where '#' starts a comment running to the end of the line; then
//   exactly one whitespace byte and the raster, top row first. maxval 1..255 means one byte per
//   sample, 256..65535 two bytes, most significant first. Samples are taken as stored (an 8-bit
//   file with maxval 100 keeps values 0..100; nothing is rescaled). Written files use maxval 255
//   (8-bit) or 65535 (16-bit) and no comments.
// PFM: "Pf" (1 channel) or "PF" (3 channels, read as the first), width, height, scale as ASCII
//   fields separated by whitespace, one whitespace byte, then IEEE-754 floats, rows bottom-up.
//   A negative scale means little-endian samples, a positive one big-endian; |scale| is ignored.
//   Written files are "Pf\n<w> <h>\n-1\n" and little-endian.
//
// Readers take only regular files (input_file.h), parse the header from the first
// kMaxHeaderBytes and then read exactly the raster it announces: trailing data (Netpbm allows
// several images in one file) costs nothing, and a truncated raster is reported with the byte
// counts.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <vector>

#include "src/core/error.h"
#include "src/core/high_bit_depth.h"
#include "src/core/input_file.h"

namespace sv {
namespace {

// Guards against absurd headers before allocating (2^28 pixels = 1 GiB of floats).
constexpr long long kMaxPixels = 1LL << 28;
// Comments aside, a header is a few dozen bytes; no real one comes near this.
constexpr size_t kMaxHeaderBytes = size_t{1} << 20;

// An image file opened for reading: its first bytes for the header parser, then the raster.
class ImageFile {
 public:
  explicit ImageFile(const std::string& path)
      : path_(path), size_(require_regular_file(path, "image")), in_(path, std::ios::binary) {
    if (!in_) throw InputError(path + ": cannot open file for reading (permission denied?)");
    head_.resize(static_cast<size_t>(std::min<uint64_t>(size_, kMaxHeaderBytes)));
    in_.read(head_.data(), static_cast<std::streamsize>(head_.size()));
    if (static_cast<size_t>(in_.gcount()) != head_.size()) throw InputError(path + ": read error");
  }

  const std::string& head() const { return head_; }
  // True when the header may go on past the bytes read (a header longer than kMaxHeaderBytes).
  bool head_is_cut() const { return head_.size() < size_; }

  // `count` bytes from `offset`; InputError with both byte counts when the file is shorter.
  std::vector<unsigned char> raster(size_t offset, size_t count) {
    const uint64_t available = size_ > offset ? size_ - offset : 0;
    if (available < count) {
      throw InputError(path_ + ": truncated pixel data (expected " + std::to_string(count) +
                       " bytes, got " + std::to_string(available) + ")");
    }
    std::vector<unsigned char> bytes(count);
    in_.clear();
    in_.seekg(static_cast<std::streamoff>(offset));
    in_.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(count));
    if (static_cast<size_t>(in_.gcount()) != count) throw InputError(path_ + ": read error");
    return bytes;
  }

 private:
  std::string path_;
  uint64_t size_;
  std::ifstream in_;
  std::string head_;
};

// Walks the ASCII header of a Netpbm or PFM file.
class HeaderParser {
 public:
  HeaderParser(const std::string& path, const ImageFile& file)
      : path_(path), bytes_(file.head()), cut_(file.head_is_cut()) {}

  std::string magic() {
    if (bytes_.size() < 2) throw InputError(path_ + ": file too short for an image header");
    pos_ = 2;
    return bytes_.substr(0, 2);
  }

  // Next whitespace-separated field, skipping '#' comments (Netpbm only; PFM has none, and a
  // '#' there would be malformed anyway).
  std::string field(const char* what) {
    skip_space_and_comments();
    const size_t start = pos_;
    while (pos_ < bytes_.size() && !is_space(bytes_[pos_]) && bytes_[pos_] != '#') ++pos_;
    if (pos_ == start || (cut_ && pos_ == bytes_.size())) {
      throw InputError(path_ + (cut_ ? ": header longer than " + std::to_string(kMaxHeaderBytes) +
                                           " bytes (missing " + what + ")"
                                     : ": truncated header (missing " + std::string(what) + ")"));
    }
    return bytes_.substr(start, pos_ - start);
  }

  long long integer_field(const char* what, long long min_value, long long max_value) {
    const std::string text = field(what);
    long long value = 0;
    for (char c : text) {
      if (c < '0' || c > '9' || value > max_value) {
        throw InputError(path_ + ": bad " + what + " '" + text + "' in header");
      }
      value = value * 10 + (c - '0');
    }
    if (value < min_value || value > max_value) {
      throw InputError(path_ + ": " + what + " " + text + " out of range [" +
                       std::to_string(min_value) + ", " + std::to_string(max_value) + "]");
    }
    return value;
  }

  double float_field(const char* what) {
    const std::string text = field(what);
    std::istringstream in(text);
    in.imbue(std::locale::classic());
    double value = 0.0;
    in >> value;
    if (!in || in.peek() != std::char_traits<char>::eof()) {
      throw InputError(path_ + ": bad " + what + " '" + text + "' in header");
    }
    return value;
  }

  // The single whitespace byte that ends every header; returns the raster's offset.
  size_t end_of_header() {
    if (pos_ >= bytes_.size() || !is_space(bytes_[pos_])) {
      throw InputError(path_ + (cut_ && pos_ >= bytes_.size()
                                    ? ": header longer than " + std::to_string(kMaxHeaderBytes) + " bytes"
                                    : ": truncated header (no whitespace before pixel data)"));
    }
    return pos_ + 1;
  }

 private:
  static bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
  }

  void skip_space_and_comments() {
    while (pos_ < bytes_.size()) {
      if (is_space(bytes_[pos_])) {
        ++pos_;
      } else if (bytes_[pos_] == '#') {
        while (pos_ < bytes_.size() && bytes_[pos_] != '\n' && bytes_[pos_] != '\r') ++pos_;
      } else {
        break;
      }
    }
  }

  const std::string& path_;
  const std::string& bytes_;
  bool cut_;
  size_t pos_ = 0;
};

void check_pixel_count(const std::string& path, long long width, long long height) {
  if (width * height > kMaxPixels) {
    throw InputError(path + ": image " + std::to_string(width) + "x" + std::to_string(height) +
                     " is too large");
  }
}

// A parsed Netpbm file: samples widened to 16 bits, `channels` per pixel, top row first.
struct NetpbmRaster {
  int width = 0;
  int height = 0;
  int channels = 1;
  bool sixteen_bit = false;
  std::vector<uint16_t> samples;
};

NetpbmRaster read_netpbm(const std::string& path, bool accept_p5, bool accept_p6) {
  ImageFile file(path);
  HeaderParser header(path, file);
  const std::string magic = header.magic();
  NetpbmRaster raster;
  if (magic == "P5" && accept_p5) {
    raster.channels = 1;
  } else if (magic == "P6" && accept_p6) {
    raster.channels = 3;
  } else {
    const std::string expected = accept_p5 && accept_p6 ? "P5 or P6" : (accept_p5 ? "P5" : "P6");
    throw InputError(path + ": bad magic '" + magic + "' (expected binary Netpbm " + expected +
                     ")");
  }
  const long long width = header.integer_field("width", 1, std::numeric_limits<int>::max());
  const long long height = header.integer_field("height", 1, std::numeric_limits<int>::max());
  const long long maxval = header.integer_field("maxval", 1, 65535);
  check_pixel_count(path, width, height);
  const size_t offset = header.end_of_header();

  raster.width = static_cast<int>(width);
  raster.height = static_cast<int>(height);
  raster.sixteen_bit = maxval > 255;
  const size_t sample_count = static_cast<size_t>(width * height) * raster.channels;
  const size_t bytes_per_sample = raster.sixteen_bit ? 2 : 1;
  const std::vector<unsigned char> bytes = file.raster(offset, sample_count * bytes_per_sample);

  raster.samples.resize(sample_count);
  const unsigned char* data = bytes.data();
  for (size_t i = 0; i < sample_count; ++i) {
    raster.samples[i] =
        raster.sixteen_bit ? static_cast<uint16_t>((data[2 * i] << 8) | data[2 * i + 1]) : data[i];
  }
  return raster;
}

// The 8-bit colour image of a raster: 16-bit samples give their high byte (eight_bit_value), gray
// is replicated into r, g, b.
ImageRgb8 colour_view(const NetpbmRaster& raster) {
  ImageRgb8 image(raster.width, raster.height);
  for (size_t i = 0; i < image.size(); ++i) {
    const size_t s = i * raster.channels;
    const auto channel = [&](int c) {
      const uint16_t sample = raster.samples[s + (raster.channels == 3 ? c : 0)];
      return raster.sixteen_bit ? eight_bit_value(sample) : static_cast<uint8_t>(sample);
    };
    image.data()[i] = Rgb8{channel(0), channel(1), channel(2)};
  }
  return image;
}

std::ofstream open_for_writing(const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw RuntimeError(path + ": cannot open file for writing");
  return out;
}

void finish_writing(const std::string& path, std::ofstream& out) {
  out.flush();
  if (!out) throw RuntimeError(path + ": write failed");
  out.close();
  if (out.fail()) throw RuntimeError(path + ": write failed on close");
}

bool host_is_little_endian() {
  const uint32_t probe = 1;
  unsigned char first = 0;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}

}  // namespace

ImageF32 read_pfm(const std::string& path) {
  ImageFile file(path);
  HeaderParser header(path, file);
  const std::string magic = header.magic();
  int channels = 0;
  if (magic == "Pf") {
    channels = 1;
  } else if (magic == "PF") {
    channels = 3;
  } else {
    throw InputError(path + ": bad magic '" + magic + "' (expected PFM 'Pf' or 'PF')");
  }
  const long long width = header.integer_field("width", 1, std::numeric_limits<int>::max());
  const long long height = header.integer_field("height", 1, std::numeric_limits<int>::max());
  const double scale = header.float_field("scale");
  if (scale == 0.0 || !std::isfinite(scale)) {
    throw InputError(path + ": bad PFM scale (must be a non-zero number)");
  }
  check_pixel_count(path, width, height);
  const size_t offset = header.end_of_header();
  const bool little_endian = scale < 0.0;

  const size_t row_floats = static_cast<size_t>(width) * channels;
  const std::vector<unsigned char> bytes =
      file.raster(offset, row_floats * static_cast<size_t>(height) * 4);

  ImageF32 image(static_cast<int>(width), static_cast<int>(height));
  const unsigned char* data = bytes.data();
  for (int y = 0; y < image.height(); ++y) {
    // File row 0 is the bottom image row.
    const unsigned char* file_row =
        data + static_cast<size_t>(image.height() - 1 - y) * row_floats * 4;
    float* out = image.row(y);
    for (int x = 0; x < image.width(); ++x) {
      const unsigned char* b = file_row + static_cast<size_t>(x) * channels * 4;
      const uint32_t bits =
          little_endian
              ? (uint32_t{b[0]} | uint32_t{b[1]} << 8 | uint32_t{b[2]} << 16 | uint32_t{b[3]} << 24)
              : (uint32_t{b[3]} | uint32_t{b[2]} << 8 | uint32_t{b[1]} << 16 |
                 uint32_t{b[0]} << 24);
      std::memcpy(&out[x], &bits, 4);
    }
  }
  return image;
}

std::string pfm_file_bytes(const ImageF32& image) {
  std::string bytes =
      "Pf\n" + std::to_string(image.width()) + ' ' + std::to_string(image.height()) + "\n-1\n";
  const size_t header = bytes.size();
  bytes.resize(header + image.size() * 4);
  const bool little = host_is_little_endian();
  char* out = bytes.data() + header;
  for (int y = image.height() - 1; y >= 0; --y) {
    const float* in = image.row(y);
    for (int x = 0; x < image.width(); ++x, out += 4) {
      uint32_t bits = 0;
      std::memcpy(&bits, &in[x], 4);
      if (!little)
        bits = (bits >> 24) | ((bits >> 8) & 0xff00u) | ((bits << 8) & 0xff0000u) | (bits << 24);
      std::memcpy(out, &bits, 4);
    }
  }
  return bytes;
}

void write_pfm(const std::string& path, const ImageF32& image) {
  std::ofstream out = open_for_writing(path);
  const std::string bytes = pfm_file_bytes(image);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  finish_writing(path, out);
}

ImageU8 read_pgm8(const std::string& path) {
  const NetpbmRaster raster = read_netpbm(path, true, false);
  ImageU8 image(raster.width, raster.height);
  const int shift = raster.sixteen_bit ? 8 : 0;
  for (size_t i = 0; i < image.size(); ++i) {
    image.data()[i] = static_cast<uint8_t>(raster.samples[i] >> shift);
  }
  return image;
}

ImageU16 read_pgm16(const std::string& path) {
  const NetpbmRaster raster = read_netpbm(path, true, false);
  ImageU16 image(raster.width, raster.height);
  std::copy(raster.samples.begin(), raster.samples.end(), image.data());
  return image;
}

ImageRgb8 read_ppm(const std::string& path) { return colour_view(read_netpbm(path, true, true)); }

NetpbmImage read_netpbm_full_depth(const std::string& path) {
  const NetpbmRaster raster = read_netpbm(path, true, true);
  NetpbmImage image{colour_view(raster), ImageU16()};
  if (!raster.sixteen_bit) return image;
  image.gray16 = ImageU16(raster.width, raster.height);
  for (size_t i = 0; i < image.gray16.size(); ++i) {
    const uint16_t* p = &raster.samples[i * raster.channels];
    if (raster.channels == 3) {
      const uint32_t r = p[0], g = p[1], b = p[2];
      image.gray16.data()[i] = static_cast<uint16_t>((77 * r + 150 * g + 29 * b + 128) >> 8);
    } else {
      image.gray16.data()[i] = p[0];
    }
  }
  return image;
}

void write_pgm(const std::string& path, const ImageU8& image) {
  std::ofstream out = open_for_writing(path);
  out << "P5\n" << image.width() << ' ' << image.height() << "\n255\n";
  out.write(reinterpret_cast<const char*>(image.data()),
            static_cast<std::streamsize>(image.size()));
  finish_writing(path, out);
}

void write_pgm(const std::string& path, const ImageU16& image) {
  std::ofstream out = open_for_writing(path);
  out << "P5\n" << image.width() << ' ' << image.height() << "\n65535\n";
  std::vector<unsigned char> bytes(image.size() * 2);
  for (size_t i = 0; i < image.size(); ++i) {
    bytes[2 * i] = static_cast<unsigned char>(image.data()[i] >> 8);
    bytes[2 * i + 1] = static_cast<unsigned char>(image.data()[i] & 0xff);
  }
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  finish_writing(path, out);
}

void write_ppm(const std::string& path, const ImageRgb8& image) {
  std::ofstream out = open_for_writing(path);
  out << "P6\n" << image.width() << ' ' << image.height() << "\n255\n";
  std::vector<unsigned char> bytes(image.size() * 3);
  for (size_t i = 0; i < image.size(); ++i) {
    bytes[3 * i] = image.data()[i].r;
    bytes[3 * i + 1] = image.data()[i].g;
    bytes[3 * i + 2] = image.data()[i].b;
  }
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  finish_writing(path, out);
}

}  // namespace sv
