#include "src/app/param_script.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "src/core/error.h"
#include "tests/support/fifo_guard.h"

namespace sv {
namespace {

// The error message of parsing `text`, or "" when it parses.
std::string parse_error(const std::string& text) {
  try {
    parse_param_script(text, "s.txt");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ParamScript, ParsesEveryCommandAndBothTriggers) {
  const auto events = parse_param_script(
      "# tuning session\n"
      "at 5 set p2 = 80\n"
      "\n"
      "at 2.5s set p1 8   # no '=' is fine\n"
      "at 10 algorithm bm-sad\n"
      "at frame 3 colormap gray\n"
      "at frame 4 layout 4\n"
      "at 1 view blend\n"
      "at 1 engine cpu\n"
      "at 2 pause\n"
      "at 3 resume\n"
      "at 4 snapshot out/snaps\n"
      "at 6 set disparities=32\n"
      "at 7 quit\n");
  ASSERT_EQ(events.size(), 12u);
  EXPECT_EQ(events[0].line, 2);
  EXPECT_EQ(events[0].trigger, ScriptTrigger::Seconds);
  EXPECT_DOUBLE_EQ(events[0].at, 5.0);
  EXPECT_EQ(events[0].action, ScriptAction::SetParam);
  EXPECT_EQ(events[0].key, "p2");
  EXPECT_EQ(events[0].value, "80");
  EXPECT_EQ(events[0].text, "set p2 = 80");
  EXPECT_DOUBLE_EQ(events[1].at, 2.5);
  EXPECT_EQ(events[1].key, "p1");
  EXPECT_EQ(events[1].value, "8");
  EXPECT_EQ(events[2].key, "algorithm");
  EXPECT_EQ(events[2].value, "bm-sad");
  EXPECT_EQ(events[3].trigger, ScriptTrigger::Frame);
  EXPECT_DOUBLE_EQ(events[3].at, 3.0);
  EXPECT_EQ(events[3].action, ScriptAction::Colormap);
  EXPECT_EQ(events[3].value, "gray");
  EXPECT_EQ(events[4].action, ScriptAction::Layout);
  EXPECT_EQ(events[4].value, "4");
  EXPECT_EQ(events[5].action, ScriptAction::View);
  EXPECT_EQ(events[6].action, ScriptAction::Engine);
  EXPECT_EQ(events[7].action, ScriptAction::Pause);
  EXPECT_EQ(events[8].action, ScriptAction::Resume);
  EXPECT_EQ(events[9].action, ScriptAction::Snapshot);
  EXPECT_EQ(events[9].value, "out/snaps");
  EXPECT_EQ(events[10].key, "disparities");
  EXPECT_EQ(events[10].value, "32");
  EXPECT_EQ(events[11].action, ScriptAction::Quit);
}

TEST(ParamScript, ErrorsNameTheFileTheLineAndTheProblem) {
  EXPECT_EQ(parse_error("at 1 set p2 = 80\nat 2 set p3 = 1\n"),
            "s.txt:2: unknown parameter \"p3\"");
  EXPECT_EQ(parse_error("at 1 set p2 = lots\n"), "s.txt:1: --p2: \"lots\" is not an integer");
  EXPECT_EQ(parse_error("set p2 = 80\n"),
            "s.txt:1: a line starts with \"at <seconds>\" or \"at frame <n>\", not \"set\"");
  EXPECT_EQ(parse_error("at soon set p2 = 1\n"),
            "s.txt:1: \"soon\" is not a time in seconds (e.g. 5, 2.5 or 5s)");
  EXPECT_EQ(parse_error("at -1 pause\n"),
            "s.txt:1: \"-1\" is not a time in seconds (e.g. 5, 2.5 or 5s)");
  EXPECT_EQ(parse_error("at frame 2.5 pause\n"),
            "s.txt:1: \"2.5\" is not a frame count (a whole number >= 0)");
  EXPECT_EQ(parse_error("at frame\n"), "s.txt:1: \"at frame\" needs a frame count");
  EXPECT_EQ(parse_error("at 3\n"), "s.txt:1: a command is missing after the time");
  EXPECT_EQ(parse_error("at 3 layout 3\n"), "s.txt:1: layout \"3\": 1, 2 or 4 views");
  EXPECT_EQ(parse_error("at 3 view top\n"),
            "s.txt:1: view \"top\": one of left, right, disparity, blend, confidence, "
            "disparity-b, difference");
  EXPECT_EQ(parse_error("at 3 engine gpu\n"), "s.txt:1: engine \"gpu\": cpu, cuda or auto");
  EXPECT_EQ(parse_error("at 3 pause now\n"), "s.txt:1: usage: pause");
  EXPECT_EQ(parse_error("at 3 set p2\n"), "s.txt:1: usage: set KEY = VALUE");
  EXPECT_NE(parse_error("at 3 colormap rainbow\n").find("s.txt:1: "), std::string::npos);
  EXPECT_NE(parse_error("at 3 algorithm magic\n").find("unknown algorithm \"magic\""),
            std::string::npos);
  EXPECT_NE(parse_error("at 3 jump\n").find("s.txt:1: unknown command \"jump\""),
            std::string::npos);
}

TEST(ParamScript, SourceTakesTheCliSourceFlagsOrSynthetic) {
  const auto events = parse_param_script(
      "at frame 2 source --sbs stereo.avi --calib c.yaml --loop\n"
      "at 3 source synthetic\n"
      "at 4 source --left l_%04d.png --right r_%04d.png\n"
      "at 5 source --camera 0 1\n");
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0].action, ScriptAction::Source);
  EXPECT_EQ(events[0].value, "--sbs stereo.avi --calib c.yaml --loop");
  EXPECT_EQ(events[0].text, "source --sbs stereo.avi --calib c.yaml --loop");
  EXPECT_EQ(events[1].action, ScriptAction::Source);
  EXPECT_EQ(events[1].value, "--source synthetic");
  EXPECT_EQ(events[2].value, "--left l_%04d.png --right r_%04d.png");
  EXPECT_EQ(events[3].value, "--camera 0 1");
}

TEST(ParamScript, SeekTakesAFrameNumber) {
  const auto events = parse_param_script("at frame 3 seek 40\n");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].action, ScriptAction::Seek);
  EXPECT_EQ(events[0].value, "40");
  EXPECT_EQ(parse_error("at 1 seek\n"), "s.txt:1: usage: seek FRAME");
  EXPECT_EQ(parse_error("at 1 seek -2\n"),
            "s.txt:1: seek \"-2\": a frame number (a whole number >= 0, at most 18 digits)");
  EXPECT_EQ(parse_error("at 1 seek 1.5\n"),
            "s.txt:1: seek \"1.5\": a frame number (a whole number >= 0, at most 18 digits)");
  // The viewer reads the frame back with std::stoll: "1e3" gave frame 1, a 20-digit number threw.
  EXPECT_NE(parse_error("at 1 seek 1e3\n"), "");
  EXPECT_NE(parse_error("at 1 seek 99999999999999999999\n"), "");
  EXPECT_EQ(parse_error("at 1 seek 999999999999999999\n"), "");
}

TEST(ParamScript, RecordStartsWithAFormatAndOptionalFileAndStops) {
  const auto events =
      parse_param_script("at frame 2 record lossless16 out/d.mkv\nat 3 record color\nat 4 record stop\n");
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].action, ScriptAction::RecordStart);
  EXPECT_EQ(events[0].value, "lossless16 out/d.mkv");
  EXPECT_EQ(events[1].action, ScriptAction::RecordStart);
  EXPECT_EQ(events[1].value, "color");
  EXPECT_EQ(events[2].action, ScriptAction::RecordStop);
  const std::string usage =
      "s.txt:1: usage: record color|lossless16|raw|side-by-side [FILE] | record stop";
  EXPECT_EQ(parse_error("at 1 record\n"), usage);
  EXPECT_EQ(parse_error("at 1 record mp4 a.mp4\n"), usage);
  EXPECT_EQ(parse_error("at 1 record raw a.mp4 extra\n"), usage);
}

TEST(ParamScript, BadSourceFlagsFailAtLoadWithTheLine) {
  EXPECT_EQ(parse_error("at 1 source\n"),
            "s.txt:1: usage: source synthetic | source FLAGS (e.g. --sbs stereo.avi)");
  EXPECT_EQ(parse_error("at 1 pause\nat 2 source --left only.png\n"),
            "s.txt:2: source: --left and --right must be given together");
  EXPECT_EQ(parse_error("at 1 source --sbs a.avi --tb b.avi\n"),
            "s.txt:1: source: one source at a time: got --sbs, --tb");
  // Not a source flag: parameters have their own command.
  EXPECT_EQ(parse_error("at 1 source --p2 80\n"),
            "s.txt:1: source: unknown option --p2 (see --help)");
  EXPECT_EQ(parse_error("at 1 source --camera 0 1 2\n"),
            "s.txt:1: source: unexpected argument \"2\"");
}

TEST(ParamScript, AMissingFileIsAClearError) {
  try {
    load_param_script("/nonexistent/dir/script.txt");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "cannot read script '/nonexistent/dir/script.txt': no such file");
  }
}

TEST(ParamScript, AScriptThatIsNoRegularFileIsRefusedUnopened) {
  const auto message = [](const std::string& path) -> std::string {
    try {
      load_param_script(path);
    } catch (const InputError& e) {
      return e.what();
    }
    return "(loaded)";
  };
  EXPECT_EQ(message("/dev/null"), "cannot read script '/dev/null': a character device, not a regular file");
  const std::string dir = ::testing::TempDir() + "/param_script_dir";
  std::filesystem::create_directories(dir);
  EXPECT_EQ(message(dir), "cannot read script '" + dir + "': a folder, not a regular file");
  test::FifoGuard fifo(::testing::TempDir() + "/param_script.fifo");
  std::string fifo_message;
  EXPECT_TRUE(fifo.returns_within(5.0, [&] { fifo_message = message(fifo.path()); }))
      << "load_param_script blocked on a FIFO";
  EXPECT_EQ(fifo_message, "cannot read script '" + fifo.path() + "': a FIFO (named pipe), not a regular file");
}

TEST(ParamScript, ANulByteEndsNoNumberEarly) {
  EXPECT_NE(parse_error(std::string("at 1\0 set p1 = 5\n", 17)), "");
  EXPECT_NE(parse_error(std::string("at frame 2\0x pause\n", 19)), "");
}

TEST(ParamScript, NonFiniteValuesAreRefusedWithTheirLine) {
  for (const char* value : {"inf", "nan", "1e39"}) {
    try {
      parse_param_script(std::string("at 1 set p1 = 5\nat 2 set bm-max-cost = ") + value + "\n", "s.txt");
      ADD_FAILURE() << value << " accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("s.txt:2: ", 0), 0u) << e.what();
    }
  }
}

TEST(ScriptPlayer, FiresEachEventOnceWhenItsTimeOrFrameComes) {
  ScriptPlayer player(parse_param_script("at 1 set p1 = 5\n"
                                         "at frame 2 colormap jet\n"
                                         "at 0.5 set p2 = 50\n"));
  EXPECT_TRUE(player.due(0.2, 0).empty());
  auto due = player.due(1.0, 1);
  ASSERT_EQ(due.size(), 2u);  // both seconds events, in file order
  EXPECT_EQ(due[0].key, "p1");
  EXPECT_EQ(due[1].key, "p2");
  EXPECT_FALSE(player.finished());
  EXPECT_TRUE(player.due(5.0, 1).empty());
  due = player.due(5.0, 2);
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].value, "jet");
  EXPECT_TRUE(player.finished());
  EXPECT_TRUE(player.due(100.0, 100).empty());
}

TEST(ParamScript, CalibrateDrivesTheCalibrateWindow) {
  const auto events = parse_param_script(
      "at frame 1 calibrate open chessboard:9x6 0.025\n"
      "at frame 2 calibrate open charuco:8x6:5X5_100 0.03 0.022\n"
      "at frame 3 calibrate capture\n"
      "at frame 4 calibrate auto off\n"
      "at frame 5 calibrate run\n"
      "at frame 6 calibrate apply out/rig.yaml\n"
      "at frame 7 calibrate save out/rig.yaml\n"
      "at frame 8 calibrate close\n");
  ASSERT_EQ(events.size(), 8u);
  for (const ScriptEvent& e : events) EXPECT_EQ(e.action, ScriptAction::Calibrate);
  EXPECT_EQ(events[0].value, "open chessboard:9x6 0.025");
  EXPECT_EQ(events[5].value, "apply out/rig.yaml");
  for (const char* bad : {"at 1 calibrate", "at 1 calibrate open chessboard:9x6",
                          "at 1 calibrate auto maybe", "at 1 calibrate save", "at 1 calibrate now"}) {
    EXPECT_THROW(parse_param_script(bad), InputError) << bad;
  }
}

}  // namespace
}  // namespace sv
