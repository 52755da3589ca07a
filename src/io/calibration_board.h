#pragma once

#include <string>
#include <vector>

#include "src/core/image.h"
#include "src/core/length_unit.h"

namespace sv {

// The calibration target held in front of the cameras.
//   chessboard:COLSxROWS              COLS x ROWS inner corners (a board of 10 x 7 squares has
//                                     9 x 6), squares of `square` metres
//   charuco:COLSxROWS:DICT            a ChArUco board of COLS x ROWS squares, ArUco markers of
//                                     `marker` metres from dictionary DICT (e.g. DICT_5X5_100 or
//                                     5X5_100); corners are found on a partly visible board too
struct BoardSpec {
  enum class Kind { Chessboard, Charuco };
  Kind kind = Kind::Chessboard;
  int cols = 9;  // chessboard: inner corners; ChArUco: squares
  int rows = 6;
  double square = 0.025;  // in `unit`: T and the baseline come out in it
  double marker = 0.0;    // ChArUco only
  LengthUnit unit = LengthUnit::kMetre;
  std::string dictionary; // ChArUco only, OpenCV's name without "DICT_"

  // Inner corners along each side: what the detector finds.
  int corner_cols() const { return kind == Kind::Chessboard ? cols : cols - 1; }
  int corner_rows() const { return kind == Kind::Chessboard ? rows : rows - 1; }
  int corner_count() const { return corner_cols() * corner_rows(); }
  // "chessboard 9x6 (inner corners), squares 0.025" for messages and the report.
  std::string describe() const;
};

// Parses --board with --square and --marker (0: not given). InputError with the reason: an
// unknown kind or dictionary, sides below 2 (chessboard) or 3 (ChArUco), a square of 0 or less,
// a marker missing, not smaller than the square, or given for a chessboard, ChArUco in a build
// without OpenCV's aruco module.
BoardSpec parse_board_spec(const std::string& text, double square, double marker);

struct CornerPoint {
  float x = 0.0f, y = 0.0f;
};

// The board's inner corners found in one image: pixel positions (sub-pixel) and for each its
// index on the board (row * corner_cols() + col), so views of a partly visible ChArUco board
// can be paired corner by corner. Empty when the board was not found.
struct BoardCorners {
  std::vector<CornerPoint> points;
  std::vector<int> ids;
  bool found() const { return !points.empty(); }
};

// How far the board moved between two detections: the mean distance of its corners in px;
// infinity when they do not hold the same corners.
double board_motion_px(const BoardCorners& a, const BoardCorners& b);

// Finds the board in a gray image. A chessboard must show every inner corner; a ChArUco board
// at least 6 of them.
BoardCorners detect_board(const BoardSpec& board, const ImageU8& gray);

// The board's corner `id` in its own plane (z = 0), in the units of `square`.
void board_corner_position(const BoardSpec& board, int id, double& x, double& y);

// How sharp the board's edges are in the image: the mean width in pixels over which an edge
// rises from dark to bright (about 1-2 px in focus; more when blurred by motion or focus).
// Negative when it cannot be measured (a partly visible board).
double board_edge_width(const BoardSpec& board, const ImageU8& gray, const BoardCorners& corners);

}  // namespace sv
