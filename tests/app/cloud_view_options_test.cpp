// The 3D view's command line (ui/viewer_options.h): its flags set the view's settings; values it
// cannot use are usage errors (exit 2) that name the flag.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ui/viewer_options.h"

namespace sv {
namespace {

ViewerOptions parse_viewer(std::vector<std::string> args) {
  args.insert(args.begin(), "stereoview-viewer");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  return parse_viewer_options(static_cast<int>(argv.size()), argv.data());
}

TEST(CloudViewOptions, FlagsSetTheView) {
  const ViewerOptions o =
      parse_viewer({"--view", "3d", "--cloud-view", "side", "--point-colour", "confidence",
                    "--point-size", "7", "--point-min-confidence", "0.25", "--record-cloud", "c"});
  EXPECT_EQ(o.settings.views[0], ViewKind::Cloud);
  EXPECT_EQ(o.settings.layout, 1);
  EXPECT_EQ(o.settings.cloud.preset, CloudViewPreset::Side);
  EXPECT_EQ(o.settings.cloud.colour, CloudColour::Confidence);
  EXPECT_EQ(o.settings.cloud.point_size, 7.0f);
  EXPECT_EQ(o.settings.cloud.min_confidence, 0.25f);
  EXPECT_EQ(o.record_cloud_dir, "c");
  // The defaults: the camera's view, coloured by image, nothing hidden.
  const ViewerOptions d = parse_viewer({});
  EXPECT_EQ(d.settings.cloud.preset, CloudViewPreset::Camera);
  EXPECT_EQ(d.settings.cloud.colour, CloudColour::Image);
  EXPECT_EQ(d.settings.cloud.min_confidence, 0.0f);
  EXPECT_EQ(std::string(view_kind_name(parse_view_kind("3d"))), "3d");
}

TEST(CloudViewOptions, BadValuesAreUsageErrors) {
  const std::vector<std::vector<std::string>> bad = {
      {"--cloud-view", "bottom"}, {"--point-colour", "red"},         {"--point-size", "0"},
      {"--point-size", "11"},     {"--point-min-confidence", "1.5"}, {"--point-min-confidence", "x"},
      {"--view", "4d"}};
  for (const auto& args : bad) {
    try {
      parse_viewer(args);
      ADD_FAILURE() << args[0] << " " << args[1] << " was accepted";
    } catch (const ViewerUsageError& e) {
      EXPECT_NE(std::string(e.what()).find(args[0]), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace sv
