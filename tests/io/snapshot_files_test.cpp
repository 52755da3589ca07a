// Snapshots (issue 6): every file of a snapshot is written and reads back; the point cloud of the
// synthetic scene's ground truth puts the back wall at its true depth.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "src/core/colorize.h"
#include "src/core/disparity.h"
#include "src/core/error.h"
#include "src/core/image_formats.h"
#include "src/core/point_cloud_vertices.h"
#include "src/core/synthetic_scene.h"
#include "src/io/atomic_file.h"
#include "src/io/png_io.h"
#include "src/io/point_cloud_ply.h"
#include "src/io/snapshot_files.h"
#include "tests/io/io_test_support.h"
#include "tests/io/small_disk.h"

namespace sv {
namespace {

struct PlyVertex {
  float x, y, z;
  uint8_t r, g, b;
};

// A minimal reader for the binary PLY the snapshot writes: checks the header, then reads exactly
// the announced vertices and requires the file to end there.
std::vector<PlyVertex> read_ply(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "ply");
  std::getline(in, line);
  EXPECT_EQ(line, "format binary_little_endian 1.0");
  int64_t count = -1;
  std::vector<std::string> properties;
  while (std::getline(in, line) && line != "end_header") {
    std::istringstream words(line);
    std::string word, type, name;
    words >> word;
    if (word == "element") {
      words >> type >> count;
      EXPECT_EQ(type, "vertex");
    } else if (word == "property") {
      words >> type >> name;
      properties.push_back(type + " " + name);
    }
  }
  EXPECT_EQ(line, "end_header");
  EXPECT_EQ(properties, (std::vector<std::string>{"float x", "float y", "float z", "uchar red",
                                                  "uchar green", "uchar blue"}));
  std::vector<PlyVertex> vertices(static_cast<size_t>(std::max<int64_t>(count, 0)));
  for (PlyVertex& v : vertices) {
    char record[15];
    in.read(record, sizeof record);
    std::memcpy(&v.x, record, 4);  // the test host is little-endian like the file
    std::memcpy(&v.y, record + 4, 4);
    std::memcpy(&v.z, record + 8, 4);
    v.r = static_cast<uint8_t>(record[12]);
    v.g = static_cast<uint8_t>(record[13]);
    v.b = static_cast<uint8_t>(record[14]);
  }
  EXPECT_TRUE(in.good()) << "fewer vertices than the header announces";
  in.peek();
  EXPECT_TRUE(in.eof()) << "bytes after the last vertex";
  return vertices;
}

// The 3D view's cloud as shown (S with a 3D view on screen): only the visible vertices, in order,
// with the colours they are shown in; with colour by image and no threshold, the snapshot's
// points.ply cloud, point for point.
TEST(PointCloudPly, ShownCloudDecodesBackToItsVisibleVertices) {
  SyntheticSceneConfig config;
  config.width = 80;
  config.height = 60;
  config.max_disparity = 32;
  const SyntheticFrame frame = SyntheticScene(config).render(2);
  ImageF32 confidence(80, 60);
  for (int y = 0; y < 60; ++y) {
    for (int x = 0; x < 80; ++x) confidence.at(x, y) = ((x * 7 + y * 3) % 10) / 10.0f;
  }
  const StereoGeometry g = synthetic_scene_geometry(80, 60, 32);
  const CloudProjection projection = metric_projection(g.focal_length_px, g.baseline,
                                                       g.principal_x, g.principal_y, 0.0);
  CloudStyle style;
  style.colour = CloudColour::Depth;
  style.depth_near = 1.0f;
  style.depth_far = 10.0f;
  style.min_confidence = 0.35f;
  std::vector<CloudVertex> shown;
  build_cloud_vertices(frame.ground_truth, frame.left, confidence, projection, style, shown);
  const std::string dir = test::fresh_dir("cloud_ply");
  const int64_t written = write_cloud_vertices_ply(dir + "/cloud.ply", shown, "metres");
  const std::vector<PlyVertex> read = read_ply(dir + "/cloud.ply");
  ASSERT_EQ(static_cast<int64_t>(read.size()), written);
  size_t k = 0;
  for (const CloudVertex& v : shown) {
    if (v.a == 0) continue;
    ASSERT_LT(k, read.size());
    EXPECT_EQ(read[k].x, v.x);
    EXPECT_EQ(read[k].z, v.z);
    EXPECT_EQ(read[k].r, v.r);
    EXPECT_EQ(read[k].b, v.b);
    ++k;
  }
  EXPECT_EQ(k, read.size());
  EXPECT_GT(written, 80 * 60 / 2);  // the threshold hides some, not most
  EXPECT_LT(written, 80 * 60 * 7 / 10);

  // Coloured by image without a threshold it is the snapshot's points.ply.
  build_cloud_vertices(frame.ground_truth, frame.left, ImageF32(), projection, CloudStyle{}, shown);
  write_cloud_vertices_ply(dir + "/all.ply", shown, "metres");
  write_point_cloud_ply(dir + "/points.ply", frame.ground_truth, frame.left, g);
  const std::vector<PlyVertex> all = read_ply(dir + "/all.ply");
  const std::vector<PlyVertex> points = read_ply(dir + "/points.ply");
  ASSERT_EQ(all.size(), points.size());
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_NEAR(all[i].z, points[i].z, 1e-5f * points[i].z);
    EXPECT_NEAR(all[i].x, points[i].x, 1e-5f * points[i].z);
    EXPECT_EQ(all[i].g, points[i].g);
  }
}

// A cloud that does not fit (a file size limit, as a full disk) is refused with the reason and
// leaves nothing: no half file that a viewer would read as a shorter cloud, no temporary file.
TEST(PointCloudPly, AFullDiskLeavesNoHalfCloud) {
  const std::string dir = test::fresh_dir("cloud_full");
  std::vector<CloudVertex> cloud(2000, CloudVertex{1.0f, 2.0f, 3.0f, 10, 20, 30, 255});
  test::FullDiskSetup setup;
  setup.file_size_limit = 4096;  // the cloud is 30 kB
  const test::ChildOutcome outcome = test::run_with_full_disk(setup, [&] {
    try {
      write_cloud_vertices_ply(dir + "/cloud.ply", cloud, "metres");
      return std::string("written");
    } catch (const RuntimeError& e) {
      return std::string("error: ") + e.what();
    }
  });
  ASSERT_TRUE(outcome.skipped.empty()) << outcome.skipped;
  EXPECT_FALSE(outcome.crashed);
  EXPECT_EQ(outcome.report.rfind("error: cannot write " + dir + "/cloud.ply", 0), 0u) << outcome.report;
  EXPECT_NE(outcome.report.find("File too large"), std::string::npos) << outcome.report;
  EXPECT_FALSE(std::filesystem::exists(dir + "/cloud.ply"));
  EXPECT_FALSE(std::filesystem::exists(atomic_write_temp_path(dir + "/cloud.ply")));
  // With room it is written whole.
  EXPECT_EQ(write_cloud_vertices_ply(dir + "/cloud.ply", cloud, "metres"), 2000);
  EXPECT_EQ(read_ply(dir + "/cloud.ply").size(), 2000u);
}

TEST(PointCloudPly, SyntheticGroundTruthPutsTheBackWallAtDepthTen) {
  SyntheticSceneConfig config;
  config.width = 80;
  config.height = 60;
  config.max_disparity = 32;
  const SyntheticFrame frame = SyntheticScene(config).render(0);  // frame 0: camera at the origin
  ImageF32 disparity = frame.ground_truth;
  for (int x = 0; x < 10; ++x) disparity.at(x, 0) = kInvalidDisparity;  // invalid: no vertex
  disparity.at(20, 0) = -1.0f;                                          // behind the camera: none

  const StereoGeometry geometry = synthetic_scene_geometry(80, 60, 32);
  const std::string path = test::fresh_dir("ply") + "/points.ply";
  const int64_t written = write_point_cloud_ply(path, disparity, frame.left, geometry);
  EXPECT_EQ(written, 80 * 60 - 11);
  const std::vector<PlyVertex> vertices = read_ply(path);
  ASSERT_EQ(static_cast<int64_t>(vertices.size()), written);

  float farthest = 0;
  for (const PlyVertex& v : vertices) farthest = std::max(farthest, v.z);
  EXPECT_NEAR(farthest, 10.0f, 1e-3f);  // synthetic_scene.cpp: the back wall is the plane z = 10
  // The last vertex is pixel (79, 59): its position and colour follow from the formulas.
  const PlyVertex& last = vertices.back();
  const double z = geometry.focal_length_px * geometry.baseline / frame.ground_truth.at(79, 59);
  EXPECT_NEAR(last.z, z, 1e-4 * z);
  EXPECT_NEAR(last.x, (79 - 39.5) * z / 72.0, 1e-4 * z);
  EXPECT_NEAR(last.y, (59 - 29.5) * z / 72.0, 1e-4 * z);
  EXPECT_EQ(last.r, frame.left.at(79, 59).r);
  EXPECT_EQ(last.b, frame.left.at(79, 59).b);
}

TEST(SnapshotFiles, WritesEveryFileAndThePointCloudOnlyWithGeometry) {
  SyntheticSceneConfig config;
  config.width = 64;
  config.height = 48;
  config.max_disparity = 16;
  const SyntheticFrame frame = SyntheticScene(config).render(3);
  ImageF32 disparity = frame.ground_truth;
  disparity.at(0, 0) = kInvalidDisparity;
  const ImageRgb8 colorized = colorize_disparity(disparity, 0, 15);
  const StereoGeometry geometry = synthetic_scene_geometry(64, 48, 16);
  SnapshotImages images{3, &frame.left, &frame.right, &disparity, &colorized, nullptr};

  const std::string dir = test::fresh_dir("snapshot");
  const auto without = write_snapshot_files(dir + "/a", images);
  ASSERT_EQ(without.size(), 5u);
  EXPECT_EQ(without[2], dir + "/a/frame_000003_left.png");
  images.geometry = &geometry;
  const auto with = write_snapshot_files(dir + "/b", images);
  ASSERT_EQ(with.size(), 6u);
  EXPECT_EQ(with[5], dir + "/b/frame_000003_points.ply");
  EXPECT_EQ(static_cast<int64_t>(read_ply(with[5]).size()), 64 * 48 - 1);

  EXPECT_EQ(read_image_rgb(with[0]), colorized);
  EXPECT_EQ(read_image_rgb(with[2]), frame.left);
  EXPECT_EQ(read_image_rgb(with[3]), frame.right);
  const ImageF32 pfm = read_pfm(with[1]);
  EXPECT_EQ(pfm.at(5, 7), disparity.at(5, 7));
  EXPECT_TRUE(std::isinf(pfm.at(0, 0)));
  const ImageU16 kitti = read_image_u16(with[4]);
  EXPECT_EQ(kitti.at(0, 0), 0);  // invalid
  EXPECT_EQ(kitti.at(5, 7), static_cast<uint16_t>(std::lround(256.0 * disparity.at(5, 7))));
}

TEST(SnapshotFiles, AnUnwritableFolderIsAClearError) {
  const ImageRgb8 image(4, 4);
  const ImageF32 disparity(4, 4, 1.0f);
  const SnapshotImages images{0, &image, &image, &disparity, &image, nullptr};
  EXPECT_THROW(write_snapshot_files("/proc/stereoview-cannot-write-here", images), RuntimeError);
}

}  // namespace
}  // namespace sv
