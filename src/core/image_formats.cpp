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
// Readers load the whole file, so a truncated raster is reported with the byte counts.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>

#include "src/core/error.h"

namespace sv {
namespace {

// Guards against absurd headers before allocating (2^28 pixels = 1 GiB of floats).
constexpr long long kMaxPixels = 1LL << 28;

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open file for reading (missing or unreadable)");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw InputError(path + ": read error");
  return bytes;
}

// Walks the ASCII header of a Netpbm or PFM file.
class HeaderParser {
 public:
  HeaderParser(const std::string& path, const std::string& bytes) : path_(path), bytes_(bytes) {}

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
    if (pos_ == start) throw InputError(path_ + ": truncated header (missing " + what + ")");
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
      throw InputError(path_ + ": truncated header (no whitespace before pixel data)");
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
  size_t pos_ = 0;
};

void check_raster_size(const std::string& path, size_t available, size_t expected) {
  if (available < expected) {
    throw InputError(path + ": truncated pixel data (expected " + std::to_string(expected) +
                     " bytes, got " + std::to_string(available) + ")");
  }
}

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
  const std::string bytes = read_whole_file(path);
  HeaderParser header(path, bytes);
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
  check_raster_size(path, bytes.size() - offset, sample_count * bytes_per_sample);

  raster.samples.resize(sample_count);
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data() + offset);
  for (size_t i = 0; i < sample_count; ++i) {
    raster.samples[i] =
        raster.sixteen_bit ? static_cast<uint16_t>((data[2 * i] << 8) | data[2 * i + 1]) : data[i];
  }
  return raster;
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
  const std::string bytes = read_whole_file(path);
  HeaderParser header(path, bytes);
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
  check_raster_size(path, bytes.size() - offset, row_floats * static_cast<size_t>(height) * 4);

  ImageF32 image(static_cast<int>(width), static_cast<int>(height));
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data() + offset);
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
  image.pixels() = raster.samples;
  return image;
}

ImageRgb8 read_ppm(const std::string& path) {
  const NetpbmRaster raster = read_netpbm(path, true, true);
  ImageRgb8 image(raster.width, raster.height);
  const int shift = raster.sixteen_bit ? 8 : 0;
  for (size_t i = 0; i < image.size(); ++i) {
    const size_t s = i * raster.channels;
    const auto channel = [&](int c) {
      return static_cast<uint8_t>(raster.samples[s + (raster.channels == 3 ? c : 0)] >> shift);
    };
    image.data()[i] = Rgb8{channel(0), channel(1), channel(2)};
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
