// Shipped files (presets, shaders) found in the source tree, under STEREOVIEW_DATA_DIR, and by
// --preset NAME from any folder (issue 23). The installed tree is tests/install's.
#include "src/app/data_files.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "src/core/param_table.h"
#include "tests/app/process_runner.h"

namespace sv {
namespace {

namespace fs = std::filesystem;
using test::make_temp_dir;
using test::run_stereoview;

const std::string kSourcePresets = std::string(STEREOVIEW_SOURCE_DIR) + "/assets/presets";

// Sets or clears an environment variable for one test and puts it back afterwards.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old, had_ = true;
    value ? setenv(name, value, 1) : unsetenv(name);
  }
  ~ScopedEnv() { had_ ? setenv(name_.c_str(), old_.c_str(), 1) : unsetenv(name_.c_str()); }

 private:
  std::string name_, old_;
  bool had_ = false;
};

// Runs a test body in another working folder, and comes back.
class ScopedCwd {
 public:
  explicit ScopedCwd(const std::string& dir) : old_(fs::current_path()) { fs::current_path(dir); }
  ~ScopedCwd() { fs::current_path(old_); }

 private:
  fs::path old_;
};

void write_file(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
}

bool same_file(const std::string& a, const std::string& b) {
  return fs::equivalent(a, b);
}

TEST(DataFiles, TheSourceTreesPresetsAreTheShippedOnes) {
  const ScopedEnv env("STEREOVIEW_DATA_DIR", nullptr);
  EXPECT_EQ(shipped_preset_names(), (std::vector<std::string>{"default", "fast"}));
  EXPECT_TRUE(same_file(find_data_dir("presets", "default.preset"), kSourcePresets));
  EXPECT_TRUE(same_file(find_data_dir("shaders", "view.vert"),
                        std::string(STEREOVIEW_SOURCE_DIR) + "/shaders"));
}

TEST(DataFiles, PresetByNameFromAnyFolder) {
  const ScopedEnv env("STEREOVIEW_DATA_DIR", nullptr);
  const ScopedCwd cwd(make_temp_dir("data_files_cwd"));
  EXPECT_TRUE(same_file(resolve_preset_path("fast"), kSourcePresets + "/fast.preset"));
  EXPECT_TRUE(same_file(resolve_preset_path("fast.preset"), kSourcePresets + "/fast.preset"));
  EXPECT_TRUE(same_file(resolve_preset_path("default"), kSourcePresets + "/default.preset"));
  // Not a shipped name, or a path: left for the loader to report as the file it names.
  EXPECT_EQ(resolve_preset_path("slow"), "slow");
  EXPECT_EQ(resolve_preset_path("sub/fast"), "sub/fast");
  EXPECT_EQ(resolve_preset_path("./fast"), "./fast");
  EXPECT_EQ(resolve_preset_path(""), "");
}

TEST(DataFiles, AFileInTheWorkingFolderWinsOverAShippedPreset) {
  const ScopedEnv env("STEREOVIEW_DATA_DIR", nullptr);
  const std::string dir = make_temp_dir("data_files_own");
  const ScopedCwd cwd(dir);
  write_file(dir + "/fast", "p2 = 99\n");
  EXPECT_EQ(resolve_preset_path("fast"), "fast");
}

TEST(DataFiles, DataDirEnvironmentComesFirstAndFallsThrough) {
  const std::string dir = make_temp_dir("data_files_env");
  write_file(dir + "/presets/default.preset", "p1 = 5\n");
  write_file(dir + "/presets/mine.preset", "p1 = 6\n");
  const ScopedEnv env("STEREOVIEW_DATA_DIR", dir.c_str());
  EXPECT_EQ(shipped_preset_names(), (std::vector<std::string>{"default", "mine"}));
  EXPECT_TRUE(same_file(resolve_preset_path("mine"), dir + "/presets/mine.preset"));
  EXPECT_EQ(resolve_preset_path("fast"), "fast");  // that folder has none
  // It holds no shaders: the next place that does is taken.
  EXPECT_TRUE(same_file(find_data_dir("shaders", "view.vert"),
                        std::string(STEREOVIEW_SOURCE_DIR) + "/shaders"));
}

TEST(DataFiles, NothingFoundSaysWhereItLooked) {
  const std::string dir = make_temp_dir("data_files_none");
  const ScopedEnv env("STEREOVIEW_DATA_DIR", dir.c_str());
  std::string tried;
  EXPECT_EQ(find_data_dir("presets", "no-such.preset", &tried), "");
  EXPECT_NE(tried.find(dir + "/presets"), std::string::npos) << tried;
  EXPECT_NE(tried.find(kSourcePresets), std::string::npos) << tried;
  EXPECT_NE(tried.find("share/stereoview/presets"), std::string::npos) << tried;
}

TEST(DataFiles, CliLoadsAShippedPresetByName) {
  const std::string dir = make_temp_dir("data_files_cli");
  const auto r = run_stereoview({"--headless", "--preset", "fast", "--size", "64x48",
                                 "--save-preset", dir + "/saved.preset"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(to_preset_text(load_preset_file(dir + "/saved.preset")),
            to_preset_text(load_preset_file(kSourcePresets + "/fast.preset")));
  // An unknown name is still a missing file, named as given.
  const auto missing = run_stereoview({"--headless", "--preset", "no-such-preset"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("no-such-preset"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace sv
