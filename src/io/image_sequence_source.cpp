#include "src/io/image_sequence_source.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "src/core/error.h"
#include "src/core/high_bit_depth.h"
#include "src/core/input_file.h"
#include "src/io/png_io.h"

namespace sv {
namespace fs = std::filesystem;
namespace {

// A file name pattern "<prefix>%[0][width]d<suffix>".
struct NumberPattern {
  std::string prefix;
  std::string suffix;
  int min_digits = 1;
  bool zero_padded = false;
};

// Parses the conversion of a file name; nullopt when it has no '%'.
std::optional<NumberPattern> parse_pattern(const std::string& name, const std::string& spec) {
  const auto percent = name.find('%');
  if (percent == std::string::npos) return std::nullopt;
  NumberPattern p;
  p.prefix = name.substr(0, percent);
  size_t i = percent + 1;
  if (i < name.size() && name[i] == '0') {
    p.zero_padded = true;
    ++i;
  }
  std::string width;
  while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i]))) width += name[i++];
  if (i >= name.size() || name[i] != 'd') {
    throw InputError("image pattern '" + spec +
                     "': only integer conversions like %d or %04d are understood");
  }
  p.suffix = name.substr(i + 1);
  if (p.prefix.find('%') != std::string::npos || p.suffix.find('%') != std::string::npos) {
    throw InputError("image pattern '" + spec + "' has more than one % conversion");
  }
  // A printed number has at most 19 digits: a wider field matches nothing (and would be padded
  // into a string of that length for every file of the folder).
  if (width.size() > 2 || (!width.empty() && std::stoi(width) > 19)) {
    throw InputError("image pattern '" + spec + "': the field width " + width +
                     " is larger than any frame number (at most 19)");
  }
  p.min_digits = width.empty() ? 1 : std::stoi(width);
  return p;
}

// The frame number a file name carries under `p`, or -1 when it does not match.
long long match_number(const std::string& name, const NumberPattern& p) {
  if (name.size() <= p.prefix.size() + p.suffix.size()) return -1;
  if (name.compare(0, p.prefix.size(), p.prefix) != 0) return -1;
  if (name.compare(name.size() - p.suffix.size(), p.suffix.size(), p.suffix) != 0) return -1;
  const std::string digits =
      name.substr(p.prefix.size(), name.size() - p.prefix.size() - p.suffix.size());
  if (digits.size() > 18 ||
      !std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c); })) {
    return -1;
  }
  // What printf would have written for this number: padded to the width, no other leading zeros.
  const long long number = std::stoll(digits);
  std::string printed = std::to_string(number);
  if (printed.size() < static_cast<size_t>(p.min_digits)) {
    printed.insert(0, p.min_digits - printed.size(), p.zero_padded ? '0' : ' ');
  }
  return printed == digits ? number : -1;
}

// Every format read_image_full_depth reads: PFM and Netpbm through the core, the rest through
// the decoders of Debian's OpenCV (OpenEXR is off unless an environment variable enables it).
bool is_image_file(const fs::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const char* known : {".png", ".jpg", ".jpeg", ".jpe", ".jp2", ".bmp", ".dib", ".webp",
                            ".pbm", ".pgm", ".ppm", ".pnm", ".pxm", ".pfm", ".tif", ".tiff",
                            ".hdr", ".pic", ".sr", ".ras"}) {
    if (ext == known) return true;
  }
  return false;
}

// "frame2" < "frame10": runs of digits compare by value.
bool natural_less(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool da = std::isdigit(static_cast<unsigned char>(a[i]));
    const bool db = std::isdigit(static_cast<unsigned char>(b[j]));
    if (da && db) {
      size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
      std::string na = a.substr(i, ie - i), nb = b.substr(j, je - j);
      na.erase(0, std::min(na.find_first_not_of('0'), na.size()));
      nb.erase(0, std::min(nb.find_first_not_of('0'), nb.size()));
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

std::vector<std::string> list_pattern(const std::string& spec, const NumberPattern& pattern) {
  const fs::path full(spec);
  const fs::path dir = full.has_parent_path() ? full.parent_path() : fs::path(".");
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw InputError("image pattern '" + spec + "': folder '" + dir.string() + "' does not exist");
  }
  std::vector<std::pair<long long, std::string>> numbered;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const long long n = match_number(entry.path().filename().string(), pattern);
    if (n >= 0 && entry.is_regular_file(ec)) numbered.emplace_back(n, entry.path().string());
  }
  if (numbered.empty()) throw InputError("image pattern '" + spec + "' matches no file");
  std::sort(numbered.begin(), numbered.end());
  std::vector<std::string> files;
  for (auto& item : numbered) files.push_back(std::move(item.second));
  return files;
}

std::vector<std::string> list_folder(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.is_regular_file(ec) && is_image_file(entry.path())) {
      names.push_back(entry.path().filename().string());
    }
  }
  if (names.empty()) throw InputError("image folder '" + dir + "' holds no image files");
  std::sort(names.begin(), names.end(), natural_less);
  std::vector<std::string> files;
  for (const auto& name : names) files.push_back((fs::path(dir) / name).string());
  return files;
}

std::string size_text(const ImageRgb8& image) {
  return std::to_string(image.width()) + "x" + std::to_string(image.height());
}

}  // namespace

bool is_sequence_pattern(const std::string& spec) {
  return fs::path(spec).filename().string().find('%') != std::string::npos;
}

std::vector<std::string> list_image_sequence(const std::string& spec) {
  const std::string name = fs::path(spec).filename().string();
  if (fs::path(spec).parent_path().string().find('%') != std::string::npos) {
    throw InputError("image pattern '" + spec + "': the % conversion must be in the file name");
  }
  if (const auto pattern = parse_pattern(name, spec)) return list_pattern(spec, *pattern);
  std::error_code ec;
  if (fs::is_directory(spec, ec)) return list_folder(spec);
  if (fs::exists(spec, ec)) {
    require_regular_file(spec, "image");  // a FIFO or device would block or never end
    return {spec};
  }
  throw InputError("cannot read '" + spec + "': no such file or folder");
}

ImageSequenceSource::ImageSequenceSource(const std::string& left_spec,
                                         const std::string& right_spec, NoticeSink notices,
                                         double frames_per_second)
    : left_spec_(left_spec),
      right_spec_(right_spec),
      left_(list_image_sequence(left_spec)),
      right_(list_image_sequence(right_spec)),
      fps_(frames_per_second) {
  if (left_.size() != right_.size()) {
    post_notice(notices, "left sequence '" + left_spec + "' has " + std::to_string(left_.size()) +
                             " images, right '" + right_spec + "' " +
                             std::to_string(right_.size()) + ": stopping at the shorter, after " +
                             std::to_string(std::min(left_.size(), right_.size())) + " pairs");
    const size_t n = std::min(left_.size(), right_.size());
    left_.resize(n);
    right_.resize(n);
  }
}

std::string ImageSequenceSource::describe() const {
  if (left_.size() == 1) return "images " + left_.front() + " | " + right_.front();
  return "image sequences " + left_spec_ + " | " + right_spec_ + " (" +
         std::to_string(left_.size()) + " pairs)";
}

std::optional<StereoPair> ImageSequenceSource::next() {
  if (next_index_ >= frame_count()) return std::nullopt;
  const size_t i = static_cast<size_t>(next_index_);
  StereoPair pair;
  // 16-bit and float frames keep their values (StereoPair::left16/leftf), as image pairs do.
  FullDepthImage left = read_image_full_depth(left_[i], pair_memory());
  FullDepthImage right = read_image_full_depth(right_[i], pair_memory());
  if (left.gray16.empty() != right.gray16.empty() || left.grayf.empty() != right.grayf.empty()) {
    throw InputError("'" + left_[i] + "' and '" + right_[i] +
                     "' differ in sample depth (8-bit, 16-bit or float): give both the same");
  }
  if (!left.grayf.empty()) {
    const FloatViewRange range = float_view_range(left.grayf, right.grayf, StereoParams());
    left.view = to_rgb(eight_bit_view(left.grayf, range));
    right.view = to_rgb(eight_bit_view(right.grayf, range));
  }
  pair.left = std::move(left.view);
  pair.right = std::move(right.view);
  pair.left16 = std::move(left.gray16);
  pair.right16 = std::move(right.gray16);
  pair.leftf = std::move(left.grayf);
  pair.rightf = std::move(right.grayf);
  if (!pair.left.same_size(pair.right)) {
    throw InputError("left and right images differ in size: " + size_text(pair.left) + " vs " +
                     size_text(pair.right) + " ('" + left_[i] + "' and '" + right_[i] + "')");
  }
  pair.index = next_index_++;
  pair.timestamp_s = fps_ > 0 ? static_cast<double>(pair.index) / fps_ : 0.0;
  return pair;
}

bool ImageSequenceSource::seek(int64_t index) {
  if (index < 0 || index >= frame_count()) return false;
  next_index_ = index;
  return true;
}

}  // namespace sv
