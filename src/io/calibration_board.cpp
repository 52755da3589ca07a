#include "src/io/calibration_board.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>
#ifdef STEREOVIEW_HAS_ARUCO
#include <opencv2/aruco/charuco.hpp>
#endif

#include "src/core/error.h"

namespace sv {
namespace {

constexpr int kMinimumCharucoCorners = 6;

std::string number_text(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

int parse_side(const std::string& text, const std::string& board) {
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < 1 || v > 200) {
    throw InputError("--board '" + board + "': expected COLSxROWS with whole numbers, e.g. 9x6");
  }
  return static_cast<int>(v);
}

const char* const kDictionaries[] = {
    "4X4_50",  "4X4_100",  "4X4_250",  "4X4_1000", "5X5_50",  "5X5_100",          "5X5_250",
    "5X5_1000", "6X6_50",  "6X6_100",  "6X6_250",  "6X6_1000", "7X7_50",         "7X7_100",
    "7X7_250",  "7X7_1000", "ARUCO_ORIGINAL"};

// The position of `name` in kDictionaries, which follows cv::aruco::PREDEFINED_DICTIONARY_NAME.
int dictionary_index(const std::string& name) {
  std::string upper;
  for (char c : name) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper.rfind("DICT_", 0) == 0) upper = upper.substr(5);
  for (size_t i = 0; i < std::size(kDictionaries); ++i) {
    if (upper == kDictionaries[i]) return static_cast<int>(i);
  }
  return -1;
}

cv::Mat gray_mat(const ImageU8& gray) {
  return cv::Mat(gray.height(), gray.width(), CV_8UC1, const_cast<uint8_t*>(gray.data()));
}

#ifdef STEREOVIEW_HAS_ARUCO
cv::Ptr<cv::aruco::CharucoBoard> charuco_board(const BoardSpec& board) {
  const auto dictionary = cv::aruco::getPredefinedDictionary(dictionary_index(board.dictionary));
  return cv::aruco::CharucoBoard::create(board.cols, board.rows, static_cast<float>(board.square),
                                         static_cast<float>(board.marker), dictionary);
}

BoardCorners detect_charuco(const BoardSpec& board, const cv::Mat& image) {
  const auto charuco = charuco_board(board);
  std::vector<std::vector<cv::Point2f>> marker_corners;
  std::vector<int> marker_ids;
  cv::aruco::detectMarkers(image, charuco->dictionary, marker_corners, marker_ids);
  BoardCorners found;
  if (marker_ids.empty()) return found;
  std::vector<cv::Point2f> corners;
  std::vector<int> ids;
  cv::aruco::interpolateCornersCharuco(marker_corners, marker_ids, image, charuco, corners, ids);
  if (static_cast<int>(ids.size()) < kMinimumCharucoCorners) return found;
  for (size_t i = 0; i < ids.size(); ++i) {
    found.points.push_back({corners[i].x, corners[i].y});
    found.ids.push_back(ids[i]);
  }
  return found;
}
#endif

// A search window for cornerSubPix that stays inside one square: a third of the shortest
// distance between neighbouring corners, at most 11 px (OpenCV's sample uses 11).
int subpixel_window(const std::vector<cv::Point2f>& corners, int cols) {
  double shortest = 1e9;
  for (size_t i = 0; i + 1 < corners.size(); ++i) {
    if (static_cast<int>((i + 1) % cols) != 0) {
      shortest = std::min(shortest, cv::norm(corners[i + 1] - corners[i]));
    }
    if (i + cols < corners.size()) shortest = std::min(shortest, cv::norm(corners[i + cols] - corners[i]));
  }
  return std::clamp(static_cast<int>(shortest / 3.0), 2, 11);
}

BoardCorners detect_chessboard(const BoardSpec& board, const cv::Mat& image) {
  const cv::Size pattern(board.cols, board.rows);
  std::vector<cv::Point2f> corners;
  BoardCorners found;
  if (!cv::findChessboardCorners(image, pattern, corners,
                                 cv::CALIB_CB_ADAPTIVE_THRESH | cv::CALIB_CB_NORMALIZE_IMAGE |
                                     cv::CALIB_CB_FAST_CHECK)) {
    return found;
  }
  const int window = subpixel_window(corners, board.cols);
  cv::cornerSubPix(image, corners, cv::Size(window, window), cv::Size(-1, -1),
                   cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 40, 0.001));
  // Corners in a fixed order on the board: findChessboardCorners may start from either end,
  // which would pair a corner of one view with the opposite corner of the other view.
  if (corners.front().x > corners.back().x) std::reverse(corners.begin(), corners.end());
  for (size_t i = 0; i < corners.size(); ++i) {
    found.points.push_back({corners[i].x, corners[i].y});
    found.ids.push_back(static_cast<int>(i));
  }
  return found;
}

}  // namespace

std::string BoardSpec::describe() const {
  if (kind == Kind::Chessboard) {
    return "chessboard " + std::to_string(cols) + "x" + std::to_string(rows) +
           " (inner corners), squares " + number_text(square);
  }
  return "ChArUco " + std::to_string(cols) + "x" + std::to_string(rows) + " squares of " +
         number_text(square) + ", markers " + number_text(marker) + " from DICT_" + dictionary;
}

BoardSpec parse_board_spec(const std::string& text, double square, double marker) {
  BoardSpec board;
  const auto first = text.find(':');
  const std::string kind = text.substr(0, first);
  if (kind != "chessboard" && kind != "charuco") {
    throw InputError("--board '" + text +
                     "': expected chessboard:COLSxROWS or charuco:COLSxROWS:DICT");
  }
  if (first == std::string::npos) throw InputError("--board '" + text + "' needs its size, e.g. " + kind + ":9x6");
  const auto second = text.find(':', first + 1);
  const std::string size = text.substr(first + 1, second == std::string::npos ? std::string::npos
                                                                              : second - first - 1);
  const auto x = size.find('x');
  if (x == std::string::npos) throw InputError("--board '" + text + "': expected COLSxROWS, e.g. 9x6");
  board.cols = parse_side(size.substr(0, x), text);
  board.rows = parse_side(size.substr(x + 1), text);
  if (!(square > 0.0) || !std::isfinite(square)) {
    throw InputError("--square must be the side of a square (metres), above 0");
  }
  board.square = square;
  if (kind == "chessboard") {
    if (second != std::string::npos) throw InputError("--board '" + text + "': a chessboard has no dictionary");
    if (marker != 0.0) throw InputError("--marker applies to ChArUco boards only");
    if (board.cols < 2 || board.rows < 2) {
      throw InputError("--board '" + text + "': a chessboard needs at least 2x2 inner corners");
    }
    return board;
  }
  board.kind = BoardSpec::Kind::Charuco;
  if (board.cols < 3 || board.rows < 3) {
    throw InputError("--board '" + text + "': a ChArUco board needs at least 3x3 squares");
  }
  const std::string dictionary = second == std::string::npos ? "" : text.substr(second + 1);
  if (dictionary_index(dictionary) < 0) {
    std::string names;
    for (const char* n : kDictionaries) names += std::string(names.empty() ? "" : ", ") + n;
    throw InputError("--board '" + text + "': " +
                     (dictionary.empty() ? std::string("name the ArUco dictionary")
                                         : "unknown dictionary '" + dictionary + "'") +
                     " (charuco:COLSxROWS:DICT with DICT one of " + names + ")");
  }
  board.dictionary = kDictionaries[dictionary_index(dictionary)];
  if (!(marker > 0.0) || marker >= square) {
    throw InputError("--marker must give the ArUco marker's side (smaller than --square) for a "
                     "ChArUco board");
  }
  board.marker = marker;
#ifndef STEREOVIEW_HAS_ARUCO
  throw InputError("ChArUco boards need OpenCV's aruco module (libopencv-contrib-dev), which this "
                   "build does not have");
#endif
  return board;
}

BoardCorners detect_board(const BoardSpec& board, const ImageU8& gray) {
  const cv::Mat image = gray_mat(gray);
  if (board.kind == BoardSpec::Kind::Chessboard) return detect_chessboard(board, image);
#ifdef STEREOVIEW_HAS_ARUCO
  return detect_charuco(board, image);
#else
  throw InputError("ChArUco boards need OpenCV's aruco module, which this build does not have");
#endif
}

double board_motion_px(const BoardCorners& a, const BoardCorners& b) {
  if (a.ids != b.ids || a.points.empty()) return INFINITY;
  double sum = 0.0;
  for (size_t i = 0; i < a.points.size(); ++i) {
    sum += std::hypot(a.points[i].x - b.points[i].x, a.points[i].y - b.points[i].y);
  }
  return sum / static_cast<double>(a.points.size());
}

void board_corner_position(const BoardSpec& board, int id, double& x, double& y) {
  const int cols = board.corner_cols();
  x = (id % cols) * board.square;
  y = (id / cols) * board.square;
}

double board_edge_width(const BoardSpec& board, const ImageU8& gray, const BoardCorners& corners) {
  if (board.kind != BoardSpec::Kind::Chessboard ||
      static_cast<int>(corners.points.size()) != board.corner_count()) {
    return -1.0;
  }
  std::vector<cv::Point2f> points;
  for (const CornerPoint& p : corners.points) points.emplace_back(p.x, p.y);
  const cv::Scalar sharpness =
      cv::estimateChessboardSharpness(gray_mat(gray), cv::Size(board.cols, board.rows), points);
  return sharpness[0];
}

}  // namespace sv
