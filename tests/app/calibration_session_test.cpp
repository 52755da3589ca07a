// The Calibrate window's session without a display (issue 19): rendered views of a known rig
// offered as the viewer offers its frames. The board is detected on the session's thread; a
// requested capture takes a view, auto capture one held still somewhere new (never the same
// place twice); the calibration runs on the worker thread to a result; after apply nothing more
// is captured; starting again mid-calibration drops the old run.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "tests/support/board_renderer.h"
#include "ui/calibration_session.h"

namespace sv {
namespace {

ImageRgb8 rgb_of(const ImageU8& gray) {
  ImageRgb8 rgb(gray.width(), gray.height());
  for (size_t i = 0; i < gray.size(); ++i) rgb.data()[i] = Rgb8{gray.data()[i], gray.data()[i], gray.data()[i]};
  return rgb;
}

CalibrationSettings settings() {
  CalibrationSettings s;
  s.board = parse_board_spec("chessboard:9x6", 0.03, 0);
  return s;
}

// Offers the pair until the session has a detection of it (or 10 s pass).
void offer_until_detected(CalibrationSession& session, const test::RenderedPair& pair, int64_t index,
                          std::vector<std::string>& log) {
  const ImageRgb8 left = rgb_of(pair.left), right = rgb_of(pair.right);
  for (int i = 0; i < 1000; ++i) {
    session.offer(left, right, index);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    for (const std::string& line : session.update()) log.push_back(line);
    if (session.detection() && session.detection()->view.name == "frame " + std::to_string(index)) return;
  }
  FAIL() << "no detection of frame " << index;
}

TEST(CalibrationSession, CapturesCalibratesAndStopsCapturingOnceApplied) {
  const test::SyntheticRig rig = test::pinhole_rig();
  const BoardSpec board = settings().board;
  const test::BoardTexture texture = test::make_board_texture(board);
  CalibrationSession session;
  session.start(settings());
  session.auto_capture = false;
  std::vector<std::string> log;
  const auto first = test::render_pair(rig, texture, test::board_pose(board, 0, 6), 1.0, 0);
  offer_until_detected(session, first, 0, log);
  EXPECT_TRUE(session.detection()->usable) << session.detection()->reason;
  EXPECT_EQ(session.view_count(), 0);  // auto capture off, nothing requested
  EXPECT_LT(session.vertical_offset_px(), 20.0);

  session.request_capture();
  offer_until_detected(session, first, 1, log);
  EXPECT_EQ(session.view_count(), 1);
  // The same pair (frame 1) again, as a still or a looping file brings it: not captured twice.
  // The request is answered by the next detection, with a line.
  session.request_capture();
  const size_t lines_before = log.size();
  for (int i = 0; i < 1000 && log.size() == lines_before; ++i) {
    session.offer(rgb_of(first.left), rgb_of(first.right), 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    for (const std::string& line : session.update()) log.push_back(line);
  }
  EXPECT_EQ(session.view_count(), 1);
  ASSERT_GT(log.size(), lines_before);
  EXPECT_EQ(log.back(), "calibrate: not captured: frame 1 is view 1 already");

  // Auto capture: each pose held for three frames is taken once; the same place is not taken again.
  session.auto_capture = true;
  int64_t index = 2;
  for (int k = 1; k < 5; ++k) {
    const auto pair = test::render_pair(rig, texture, test::board_pose(board, k, 6), 1.0, k);
    for (int hold = 0; hold < 3; ++hold) offer_until_detected(session, pair, index++, log);
  }
  for (int hold = 0; hold < 3; ++hold) offer_until_detected(session, first, index++, log);
  EXPECT_EQ(session.view_count(), 5) << ::testing::PrintToString(log);
  const std::vector<bool> cells = session.coverage_cells(true, 16, 12);
  EXPECT_GT(std::count(cells.begin(), cells.end(), true), 20);

  ASSERT_TRUE(session.run_calibration());
  EXPECT_FALSE(session.run_calibration());  // one at a time
  for (int i = 0; i < 3000 && session.calibrating(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    for (const std::string& line : session.update()) log.push_back(line);
  }
  ASSERT_TRUE(session.result()) << session.error();
  EXPECT_NEAR(session.result()->calibration.K1[0], 420.0, 2.1);
  EXPECT_EQ(log.back().rfind("calibrate: done: RMS", 0), 0u) << log.back();

  session.set_capturing(false);
  session.request_capture();
  const auto other = test::render_pair(rig, texture, test::board_pose(board, 3, 7), 1.0, 9);
  for (int hold = 0; hold < 3; ++hold) offer_until_detected(session, other, index++, log);
  EXPECT_EQ(session.view_count(), 5);

  // Starting again while a calibration runs: the old run is dropped, the session is empty.
  session.start(settings());
  for (int k = 0; k < 6; ++k) {
    const auto pair = test::render_pair(rig, texture, test::board_pose(board, k, 6), 1.0, k);
    session.request_capture();
    offer_until_detected(session, pair, index++, log);
  }
  ASSERT_TRUE(session.run_calibration());
  session.start(settings());
  EXPECT_FALSE(session.calibrating());
  EXPECT_FALSE(session.result());
  EXPECT_EQ(session.view_count(), 0);
  EXPECT_TRUE(session.update().empty());
}

// Stills (image pairs and sequences, issue 39): every pair offered is looked at, none skipped
// while the detector is busy, and auto capture takes each usable one once, with no holding still.
TEST(CalibrationSession, StillsAreEachCapturedOnceWithoutBeingHeldStill) {
  const test::SyntheticRig rig = test::pinhole_rig();
  const BoardSpec board = settings().board;
  const test::BoardTexture texture = test::make_board_texture(board);
  CalibrationSession session;
  session.set_stills(true);
  session.start(settings());
  std::vector<ImageRgb8> lefts, rights;
  for (int k = 0; k < 4; ++k) {
    const auto pair = test::render_pair(rig, texture, test::board_pose(board, k, 4), 1.0, k);
    lefts.push_back(rgb_of(pair.left));
    rights.push_back(rgb_of(pair.right));
  }
  std::vector<std::string> log;
  // Twice round, as a looping sequence: all offered at once, the second round while the first
  // is still being looked at.
  for (int round = 0; round < 2; ++round) {
    for (int k = 0; k < 4; ++k) session.offer(lefts[k], rights[k], k);
  }
  for (int i = 0; i < 3000 && session.detecting(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    for (const std::string& line : session.update()) log.push_back(line);
  }
  for (const std::string& line : session.update()) log.push_back(line);
  EXPECT_EQ(session.pairs_looked_at(), 4u);
  EXPECT_EQ(session.view_count(), 4) << ::testing::PrintToString(log);
}

}  // namespace
}  // namespace sv
