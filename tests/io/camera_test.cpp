// Cameras without hardware: device listing on folders with no camera, option checks, absent
// devices, and UVC ids. (Frame conversion and pairing on recorded buffers and synthetic
// timestamps are in frame_conversion_test.cpp and frame_pairing_test.cpp.)
#include <gtest/gtest.h>

#include <fstream>

#include "src/core/error.h"
#include "src/io/camera_listing.h"
#include "src/io/camera_source.h"
#include "src/io/uvc_source.h"
#include "tests/io/io_test_support.h"

namespace sv {
namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(CameraListing, NoCamerasGivesAClearMessage) {
  const std::string dir = test::fresh_dir("no_cameras");
  std::ofstream(dir + "/videoX") << "";    // not videoN
  std::ofstream(dir + "/audio0") << "";
  const auto cameras = list_cameras(dir);
  EXPECT_TRUE(cameras.empty());
  const std::string text = describe_cameras(cameras, dir);
  EXPECT_TRUE(contains(text, "no cameras found")) << text;
  EXPECT_TRUE(contains(text, dir + "/video*")) << text;
  EXPECT_TRUE(describe_cameras(list_cameras(dir + "/missing"), dir + "/missing").find("no cameras found") == 0);
}

TEST(CameraListing, ANodeThatIsNoCameraIsListedWithTheReason) {
  const std::string dir = test::fresh_dir("fake_node");
  std::ofstream(dir + "/video3") << "not a device";
  std::ofstream(dir + "/video12") << "not a device";
  const auto cameras = list_cameras(dir);
  ASSERT_EQ(cameras.size(), 2u);
  EXPECT_EQ(cameras[0].index, 3);  // sorted by number, not by name
  EXPECT_EQ(cameras[1].index, 12);
  EXPECT_FALSE(cameras[0].problem.empty());
  const std::string text = describe_cameras(cameras, dir);
  EXPECT_TRUE(contains(text, "--camera N")) << text;
  EXPECT_TRUE(contains(text, cameras[0].problem)) << text;
}

TEST(CameraOptions, InvalidSettingsAreRefused) {
  CameraOptions o;
  EXPECT_THROW(validate_camera_options(o), InputError);  // no device
  o.devices = {0, 0};
  EXPECT_THROW(validate_camera_options(o), InputError);
  o.devices = {0, 1, 2};
  EXPECT_THROW(validate_camera_options(o), InputError);
  o.devices = {0};
  EXPECT_NO_THROW(validate_camera_options(o));
  o.width = 640;  // height missing
  EXPECT_THROW(validate_camera_options(o), InputError);
  o.height = 480;
  o.pixel_format = "H264";
  EXPECT_THROW(validate_camera_options(o), InputError);
  o.pixel_format = "YUYV";
  EXPECT_NO_THROW(validate_camera_options(o));
}

TEST(CameraSource, AnAbsentDeviceIsNamedInTheError) {
  CameraOptions o;
  o.devices = {250};
  try {
    CameraSource source(o);
    FAIL() << "opened a camera that does not exist";
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(), "/dev/video250 does not exist")) << e.what();
  }
}

TEST(UvcDeviceId, ParsesVendorProductAndSerial) {
  UvcDeviceId id = parse_uvc_device_id("32e4:9750");
  EXPECT_EQ(id.vendor_id, 0x32e4);
  EXPECT_EQ(id.product_id, 0x9750);
  EXPECT_TRUE(id.serial.empty());
  id = parse_uvc_device_id("05A3:9422:SN0001");
  EXPECT_EQ(id.vendor_id, 0x05a3);
  EXPECT_EQ(id.serial, "SN0001");
  for (const char* bad : {"", "32e4", "32e4:", "xyz:9750", "12345:1", "1:2:", "1:2:3:4"}) {
    EXPECT_THROW(parse_uvc_device_id(bad), InputError) << bad;
  }
}

TEST(UvcSource, AnAbsentCameraGivesAClearError) {
  UvcOptions o;
  o.device = parse_uvc_device_id("0001:0002");
  try {
    UvcSource source(o);
    FAIL() << "opened a UVC camera that does not exist";
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    if (uvc_support_built()) {
      // Absent, or libusb cannot start where there is no USB at all (containers).
      EXPECT_TRUE(contains(message, "0001:0002 is not attached") || contains(message, "libuvc"))
          << message;
    } else {
      EXPECT_TRUE(contains(message, "no libuvc support")) << message;
    }
  }
  EXPECT_FALSE(describe_uvc_devices().empty());
}

}  // namespace
}  // namespace sv
