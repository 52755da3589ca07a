#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include "src/core/algorithm_registry.h"
#include "src/core/error.h"
#include "src/core/param_table.h"
#include "src/core/stereo_params.h"
#include "tests/support/fifo_guard.h"
#include "tests/support/messages.h"

namespace sv {
namespace {

TEST(StereoParams, DefaultsAreValid) { EXPECT_TRUE(StereoParams{}.validate().empty()); }

TEST(StereoParams, EveryRegisteredAlgorithmValidates) {
  for (const auto& info : algorithm_registry()) {
    StereoParams p;
    p.algorithm = info.name;
    EXPECT_TRUE(p.validate().empty()) << info.name;
  }
}

TEST(StereoParams, EvenWindowIsRejectedWithItsValue) {
  StereoParams p;
  p.window = 4;
  EXPECT_TRUE(has_message(p.validate(), "window size must be odd and in 3..21, got 4"));
  p.window = 23;
  EXPECT_TRUE(has_message(p.validate(), "window size must be odd and in 3..21, got 23"));
}

TEST(StereoParams, ReportsEveryProblemAtOnce) {
  StereoParams p;
  p.num_disparities = 0;
  p.p1 = 100;
  p.p2 = 50;
  p.median = 4;
  p.sgm_paths = 6;
  p.algorithm = "nope";
  const auto problems = p.validate();
  EXPECT_EQ(problems.size(), 5u);
  EXPECT_TRUE(has_message(problems, "number of disparities must be in 1..256, got 0"));
  EXPECT_TRUE(has_message(problems, "P2 must be at least P1, got P1 = 100 and P2 = 50"));
  EXPECT_TRUE(has_message(problems, "median filter size must be 0 (off), 3 or 5, got 4"));
  EXPECT_TRUE(has_message(problems, "SGM path count must be 4 or 8, got 6"));
}

TEST(StereoParams, PyramidNeedsTwoCoarseDisparities) {
  StereoParams p;
  p.num_disparities = 16;
  p.pyramid_levels = 3;  // 16 / 8 = 2: fine
  EXPECT_TRUE(p.validate().empty());
  p.pyramid_levels = 4;  // 16 / 16 = 1: too few
  ASSERT_EQ(p.validate().size(), 1u);
  EXPECT_NE(p.validate()[0].find("pyramid levels 4"), std::string::npos);
}

TEST(StereoParams, RequireValidThrowsWithAllMessages) {
  StereoParams p;
  p.window = 2;
  p.lr_max_diff = -1;
  try {
    require_valid(p);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("window size must be odd"), std::string::npos);
    EXPECT_NE(what.find("left-right check maximum difference must be in 0..64, got -1"),
              std::string::npos);
  }
}

TEST(ParamTable, EveryFieldRoundTripsThroughText) {
  StereoParams changed;
  changed.algorithm = "bm-zncc";
  changed.min_disparity = -3;
  changed.num_disparities = 96;
  changed.window = 11;
  changed.bm_max_cost = 12.5f;
  changed.zncc_min = 0.25f;
  changed.census = CensusWindow::W5x5;
  changed.sgm_paths = 4;
  changed.p1 = 3;
  changed.p2 = 40;
  changed.adaptive_p2 = true;
  changed.p2_edge_scale = 9;
  changed.uniqueness = 15;
  changed.subpixel = false;
  changed.lr_check = false;
  changed.lr_max_diff = 2;
  changed.median = 5;
  changed.speckle_size = 100;
  changed.speckle_range = 2;
  changed.pyramid_levels = 2;
  changed.refine_radius = 3;
  ASSERT_NE(changed, StereoParams{});

  const StereoParams parsed = parse_preset_text(to_preset_text(changed));
  EXPECT_EQ(parsed, changed);
}

TEST(ParamTable, PresetIgnoresCommentsAndKeepsUnsetDefaults) {
  StereoParams defaults;
  defaults.p1 = 11;
  const StereoParams p =
      parse_preset_text("# comment\n\n p2 = 99  # trailing comment\nlr-check=off\n", defaults);
  EXPECT_EQ(p.p1, 11);
  EXPECT_EQ(p.p2, 99);
  EXPECT_FALSE(p.lr_check);
}

TEST(ParamTable, PresetErrorsNameTheLine) {
  try {
    parse_preset_text("p1 = 3\nwindw = 5\n", {}, "my.preset");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "my.preset:2: unknown parameter \"windw\"");
  }
  try {
    parse_preset_text("p1 = three\n", {}, "x");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "x:1: --p1: \"three\" is not an integer");
  }
  // Out of range, and junk: the message stays one short line; a NUL byte ends no number early.
  try {
    parse_preset_text("p1 = " + std::string(100000, '9') + "\n", {}, "x");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), ("x:1: --p1: \"" + std::string(40, '9') +
                            "...\" is not an integer of at most 1000000000 either way")
                               .c_str());
  }
  try {
    parse_preset_text(std::string("p1 = 5\0\n", 8), {}, "x");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "x:1: --p1: \"5?\" is not an integer");
  }
  EXPECT_THROW(parse_preset_text(std::string("gamma-c = 5\0x\n", 14)), InputError);
  EXPECT_THROW(parse_preset_text("census = 3x3\n"), InputError);
  EXPECT_THROW(parse_preset_text("algorithm = magic\n"), InputError);
  EXPECT_THROW(parse_preset_text("subpixel = maybe\n"), InputError);
  EXPECT_THROW(parse_preset_text("just text\n"), InputError);
}

TEST(ParamTable, EveryRegistryParameterHasADescriptor) {
  for (const auto& info : algorithm_registry()) {
    for (const auto& key : info.parameters) {
      const ParamDescriptor* d = find_param(key);
      ASSERT_NE(d, nullptr) << info.name << " lists unknown parameter " << key;
      EXPECT_FALSE(d->help.empty()) << key;
    }
  }
}

TEST(ParamTable, PresetFileRoundTripAndMissingFile) {
  const std::string path = ::testing::TempDir() + "/params_test.preset";
  StereoParams p;
  p.p2 = 123;
  save_preset_file(path, p);
  EXPECT_EQ(load_preset_file(path), p);
  EXPECT_THROW(load_preset_file(path + ".missing"), InputError);
}

TEST(StereoParams, PyramidLevelsFarOutOfRangeGiveOnlyTheRangeMessage) {
  // The coarse-range check shifted by the level count; at 32 or more that shift is undefined
  // (UBSan; x86 masks it and added a spurious message for one disparity).
  for (const int levels : {5, 31, 32, 33, 64, 1000000, -1}) {
    StereoParams p;
    p.pyramid_levels = levels;
    p.num_disparities = 1;
    EXPECT_EQ(p.validate(),
              std::vector<std::string>{"pyramid levels must be in 0..4, got " + std::to_string(levels)})
        << levels;
  }
}

TEST(StereoParams, NonFiniteFloatsAreInvalid) {
  StereoParams p;
  p.bm_max_cost = std::numeric_limits<float>::infinity();
  ASSERT_EQ(p.validate().size(), 1u);
  EXPECT_NE(p.validate()[0].find("block matching maximum cost must be a finite number"),
            std::string::npos)
      << p.validate()[0];
  EXPECT_THROW(require_valid(p), InputError);
}

TEST(ParamTable, EveryFloatParameterRefusesNonFiniteText) {
  for (const ParamDescriptor& d : param_table()) {
    if (d.kind != ParamKind::Float) continue;
    for (const char* text : {"inf", "-inf", "infinity", "nan", "NAN", "1e39", "-1e39"}) {
      StereoParams p;
      try {
        set_param(p, d.key, text);
        ADD_FAILURE() << "--" << d.key << " " << text << " was accepted as " << d.get(p);
      } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("finite"), std::string::npos) << e.what();
      }
    }
  }
  EXPECT_THROW(parse_preset_text("bm-max-cost = inf\n"), InputError);
  EXPECT_THROW(parse_preset_text("gamma-c = 1e39\n"), InputError);
}

TEST(ParamTable, APresetIsNeverWrittenWithAValueItCannotLoad) {
  const std::string path = ::testing::TempDir() + "/params_test_inf.preset";
  std::filesystem::remove(path);
  StereoParams p;
  p.bm_max_cost = std::numeric_limits<float>::infinity();
  EXPECT_THROW(save_preset_file(path, p), InputError);
  EXPECT_FALSE(std::filesystem::exists(path));
  p.bm_max_cost = std::numeric_limits<float>::quiet_NaN();
  EXPECT_THROW(save_preset_file(path, p), InputError);
  EXPECT_FALSE(std::filesystem::exists(path));
}

// What a preset file must be: a folder or a device used to give the defaults silently (or hang).
TEST(ParamTable, APresetThatIsNoRegularFileIsRefusedWithItsKind) {
  const auto message = [](const std::string& path) -> std::string {
    try {
      load_preset_file(path);
    } catch (const InputError& e) {
      return e.what();
    }
    return "(loaded)";
  };
  const std::string dir = ::testing::TempDir() + "/params_test_preset_dir";
  std::filesystem::create_directories(dir);
  EXPECT_EQ(message(dir), "cannot read preset file '" + dir + "': a folder, not a regular file");
  EXPECT_EQ(message("/dev/null"),
            "cannot read preset file '/dev/null': a character device, not a regular file");

  test::FifoGuard fifo(::testing::TempDir() + "/params_test.fifo");
  std::string fifo_message;
  EXPECT_TRUE(fifo.returns_within(5.0, [&] { fifo_message = message(fifo.path()); }))
      << "load_preset_file blocked on a FIFO";
  EXPECT_EQ(fifo_message,
            "cannot read preset file '" + fifo.path() + "': a FIFO (named pipe), not a regular file");
}

TEST(ParamTable, APresetLargerThanAnyRealOneIsRefused) {
  const std::string path = ::testing::TempDir() + "/params_test_huge.preset";
  {
    std::ofstream out(path);
    out << to_preset_text(StereoParams{});
  }
  std::filesystem::resize_file(path, kMaxPresetFileBytes + 1);  // sparse: no disk used
  try {
    load_preset_file(path);
    FAIL() << "a preset of more than 1 MiB was read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("more than the 1.0 MiB"), std::string::npos) << e.what();
  }
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace sv
