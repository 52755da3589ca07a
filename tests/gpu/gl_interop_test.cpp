// CUDA-GL interop (cuda/gl_interop.h) through a headless GL 3.3 core context created on the GPU
// itself: the EGL device platform (no display, no window, no pbuffer: a surfaceless context),
// with libEGL and libOpenGL linked directly. Textures are read back with glGetTexImage and
// compared bit for bit: a known pattern written by CUDA, the colorized disparity of the interop
// path against the host path's upload, the engine's GPU-rectified views against the host-rectified
// views uploaded the host way, and registration again after a resize. The 3D view's vertex
// buffer, written by the vertex kernel through interop, is read back with glGetBufferSubData
// and compared with the host vertex builder's vertices.
// Skips with the reason when there is no CUDA device or no EGL device on it (CI, Xvfb machines).
#define EGL_NO_X11  // the device platform needs no X11 types
#define GL_GLEXT_PROTOTYPES  // buffer objects (GL 1.5+), which libOpenGL exports
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cuda/cuda_engine.h"
#include "cuda/device_disparity.h"
#include "cuda/device_views.h"
#include "cuda/gl_interop.h"
#include "cuda/gl_buffer_interop.h"
#include "cuda/interop_disparity_view.h"
#include "cuda/interop_point_cloud.h"
#include "cuda/interop_views.h"
#include "cuda/stages.h"
#include "src/core/colorize.h"
#include "src/core/disparity.h"
#include "src/core/point_cloud_vertices.h"
#include "src/core/remap.h"
#include "src/core/synthetic_scene.h"
#include "tests/gpu/gpu_test_support.h"
#include "tests/support/rectification_maps.h"
#include "tests/support/test_images.h"
#include "tests/support/requests.h"

namespace sv {
namespace {

bool has_extension(const char* list, const std::string& name) {
  if (list == nullptr) return false;
  std::istringstream words(list);
  std::string word;
  while (words >> word) {
    if (word == name) return true;
  }
  return false;
}

template <typename Function>
Function egl_function(const char* name) {
  return reinterpret_cast<Function>(eglGetProcAddress(name));
}

std::string egl_error_text() {
  std::ostringstream text;
  text << "EGL error 0x" << std::hex << eglGetError();
  return text.str();
}

// A GL 3.3 core context on the EGL device that is `cuda_device`, current on the calling thread.
// create() leaves `skip` set where the machine has no such device (nothing to test) and
// `failure` set where the device exists but the context cannot be made (a real failure).
class HeadlessGl {
 public:
  static std::unique_ptr<HeadlessGl> create(int cuda_device, std::string* skip,
                                            std::string* failure) {
    const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (!(has_extension(client, "EGL_EXT_device_enumeration") ||
          has_extension(client, "EGL_EXT_device_base")) ||
        !has_extension(client, "EGL_EXT_platform_device")) {
      *skip = std::string("libEGL offers no EGL device platform (client extensions: ") +
              (client ? client : "none") + ")";
      return nullptr;
    }
    const auto query_devices = egl_function<PFNEGLQUERYDEVICESEXTPROC>("eglQueryDevicesEXT");
    const auto query_string =
        egl_function<PFNEGLQUERYDEVICESTRINGEXTPROC>("eglQueryDeviceStringEXT");
    const auto query_attrib = egl_function<PFNEGLQUERYDEVICEATTRIBEXTPROC>("eglQueryDeviceAttribEXT");
    const auto platform_display =
        egl_function<PFNEGLGETPLATFORMDISPLAYEXTPROC>("eglGetPlatformDisplayEXT");
    if (!query_devices || !query_string || !query_attrib || !platform_display) {
      *skip = "libEGL lacks the device-platform entry points";
      return nullptr;
    }
    EGLDeviceEXT devices[16];
    EGLint count = 0;
    if (!query_devices(16, devices, &count) || count == 0) {
      *skip = "no EGL device (is the NVIDIA EGL vendor library registered with glvnd?)";
      return nullptr;
    }
    // Only the EGL device that is our CUDA device can share textures with CUDA.
    EGLDeviceEXT chosen = EGL_NO_DEVICE_EXT;
    std::string seen;
    for (EGLint i = 0; i < count && chosen == EGL_NO_DEVICE_EXT; ++i) {
      const char* extensions = query_string(devices[i], EGL_EXTENSIONS);
      EGLAttrib device = -1;
      if (has_extension(extensions, "EGL_NV_device_cuda") &&
          query_attrib(devices[i], EGL_CUDA_DEVICE_NV, &device) && device == cuda_device) {
        chosen = devices[i];
      }
      seen += std::string(seen.empty() ? "" : "; ") + (extensions ? extensions : "no extensions");
    }
    if (chosen == EGL_NO_DEVICE_EXT) {
      *skip = std::to_string(count) + " EGL device(s), none of them CUDA device " +
              std::to_string(cuda_device) + " (device extensions: " + seen + ")";
      return nullptr;
    }

    auto gl = std::unique_ptr<HeadlessGl>(new HeadlessGl);
    gl->display_ = platform_display(EGL_PLATFORM_DEVICE_EXT, chosen, nullptr);
    EGLint major = 0, minor = 0;
    if (gl->display_ == EGL_NO_DISPLAY || !eglInitialize(gl->display_, &major, &minor)) {
      *failure = "EGL display of CUDA device " + std::to_string(cuda_device) +
                 " does not initialize: " + egl_error_text();
      gl->display_ = EGL_NO_DISPLAY;
      return nullptr;
    }
    if (!has_extension(eglQueryString(gl->display_, EGL_EXTENSIONS),
                       "EGL_KHR_surfaceless_context")) {
      *failure = "the EGL device display lacks EGL_KHR_surfaceless_context";
      return nullptr;
    }
    if (!eglBindAPI(EGL_OPENGL_API)) {
      *failure = "eglBindAPI(EGL_OPENGL_API) failed: " + egl_error_text();
      return nullptr;
    }
    const EGLint config_attributes[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                        EGL_OPENGL_BIT,   EGL_RED_SIZE,    8,
                                        EGL_GREEN_SIZE,   8,               EGL_BLUE_SIZE,
                                        8,                EGL_ALPHA_SIZE,  8,
                                        EGL_NONE};
    EGLConfig config = nullptr;
    EGLint configs = 0;
    if (!eglChooseConfig(gl->display_, config_attributes, &config, 1, &configs) || configs == 0) {
      *failure = "no EGL config for desktop OpenGL: " + egl_error_text();
      return nullptr;
    }
    const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION,
                                         3,
                                         EGL_CONTEXT_MINOR_VERSION,
                                         3,
                                         EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                         EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                         EGL_NONE};
    gl->context_ = eglCreateContext(gl->display_, config, EGL_NO_CONTEXT, context_attributes);
    if (gl->context_ == EGL_NO_CONTEXT) {
      *failure = "no GL 3.3 core context: " + egl_error_text();
      return nullptr;
    }
    if (!gl->make_current()) {
      *failure = "eglMakeCurrent (surfaceless) failed: " + egl_error_text();
      return nullptr;
    }
    const auto text = [](GLenum name) {
      const GLubyte* s = glGetString(name);
      return s ? std::string(reinterpret_cast<const char*>(s)) : std::string("?");
    };
    gl->description_ = "EGL " + std::to_string(major) + "." + std::to_string(minor) +
                       " device = CUDA device " + std::to_string(cuda_device) + ", GL " +
                       text(GL_VERSION) + ", renderer " + text(GL_RENDERER);
    return gl;
  }

  ~HeadlessGl() {
    if (display_ == EGL_NO_DISPLAY) return;
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (context_ != EGL_NO_CONTEXT) eglDestroyContext(display_, context_);
    eglTerminate(display_);
  }

  bool make_current() {
    return eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, context_) == EGL_TRUE;
  }
  bool release() {
    return eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT) == EGL_TRUE;
  }
  const std::string& description() const { return description_; }

 private:
  HeadlessGl() = default;
  EGLDisplay display_ = EGL_NO_DISPLAY;
  EGLContext context_ = EGL_NO_CONTEXT;
  std::string description_;
};

// Every pending GL error as text ("" when none).
std::string gl_errors() {
  std::ostringstream errors;
  for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError()) {
    errors << (errors.tellp() == 0 ? "0x" : ", 0x") << std::hex << e;
  }
  return errors.str();
}

// An RGBA8 GL_TEXTURE_2D owned for the scope of a test.
class GlTexture {
 public:
  GlTexture(int width, int height, const std::vector<uchar4>& initial) {
    glGenTextures(1, &name_);
    allocate(width, height, initial);
  }
  ~GlTexture() { glDeleteTextures(1, &name_); }
  GlTexture(const GlTexture&) = delete;
  GlTexture& operator=(const GlTexture&) = delete;

  // (Re)specifies the storage: the resize a window or image-size change makes.
  void allocate(int width, int height, const std::vector<uchar4>& initial) {
    width_ = width;
    height_ = height;
    glBindTexture(GL_TEXTURE_2D, name_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 initial.data());
  }
  // The host path of the viewer: storage kept, pixels replaced.
  void upload(const std::vector<uchar4>& pixels) {
    glBindTexture(GL_TEXTURE_2D, name_);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE,
                    pixels.data());
  }
  // The viewer's host path for the colour views (ViewTextures): tightly packed RGB rows, which
  // GL stores with alpha 1.
  void upload_rgb(const ImageRgb8& pixels) {
    glBindTexture(GL_TEXTURE_2D, name_);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, GL_RGB, GL_UNSIGNED_BYTE,
                    pixels.data());
  }
  std::vector<uchar4> read_back() const {
    std::vector<uchar4> pixels(static_cast<size_t>(width_) * height_, make_uchar4(1, 2, 3, 4));
    glBindTexture(GL_TEXTURE_2D, name_);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    return pixels;
  }
  unsigned int name() const { return name_; }

 private:
  GLuint name_ = 0;
  int width_ = 0, height_ = 0;
};

// Distinct per pixel (the index spread over r, g, b) and per `seed` (b, a), so a lost, shifted,
// flipped or stale write cannot read back equal.
std::vector<uchar4> pattern(int width, int height, int seed) {
  std::vector<uchar4> pixels(static_cast<size_t>(width) * height);
  for (size_t i = 0; i < pixels.size(); ++i) {
    pixels[i] = make_uchar4(static_cast<unsigned char>(i), static_cast<unsigned char>(i >> 8),
                            static_cast<unsigned char>((i >> 16) + 17 * seed),
                            static_cast<unsigned char>(seed * 29 + i * 7));
  }
  return pixels;
}

std::vector<uchar4> filled(int width, int height, unsigned char value) {
  return std::vector<uchar4>(static_cast<size_t>(width) * height,
                             make_uchar4(value, value, value, value));
}

bool same(uchar4 a, uchar4 b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }

// Whole-image equality; on failure names the first differing pixel and both values.
::testing::AssertionResult identical(const std::vector<uchar4>& actual,
                                     const std::vector<uchar4>& expected, int width) {
  if (actual.size() != expected.size()) {
    return ::testing::AssertionFailure() << "sizes differ: " << actual.size() << " vs "
                                         << expected.size();
  }
  size_t mismatches = 0, first = 0;
  for (size_t i = 0; i < actual.size(); ++i) {
    if (!same(actual[i], expected[i]) && mismatches++ == 0) first = i;
  }
  if (mismatches == 0) return ::testing::AssertionSuccess();
  const uchar4 a = actual[first], e = expected[first];
  return ::testing::AssertionFailure()
         << mismatches << " pixels differ, first at (" << first % width << ", " << first / width
         << "): " << int(a.x) << "," << int(a.y) << "," << int(a.z) << "," << int(a.w)
         << " instead of " << int(e.x) << "," << int(e.y) << "," << int(e.z) << "," << int(e.w);
}

class GlInterop : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const cuda::DeviceInfo device = cuda::query_device();
    if (!device.available) return;  // each test skips with the CUDA reason
    int cuda_device = 0;
    SV_CUDA_CHECK(cudaGetDevice(&cuda_device));
    gl_ = HeadlessGl::create(cuda_device, &skip_, &failure_);
    if (gl_) std::printf("headless GL: %s\n", gl_->description().c_str());
  }
  static void TearDownTestSuite() { gl_.reset(); }

  void SetUp() override {
    SV_REQUIRE_CUDA_DEVICE();
    if (!failure_.empty()) FAIL() << "headless EGL context on the GPU: " << failure_;
    if (!gl_) GTEST_SKIP() << "needs an EGL device on the CUDA GPU: " << skip_;
    ASSERT_TRUE(gl_->make_current()) << egl_error_text();
    ASSERT_EQ(gl_errors(), "");
    SV_CUDA_CHECK(cudaStreamCreate(&stream_));
  }
  void TearDown() override {
    if (stream_) SV_CUDA_CHECK(cudaStreamDestroy(stream_));
    if (gl_) {
      EXPECT_EQ(gl_errors(), "") << "GL error left by the test";
    }
  }

  static std::unique_ptr<HeadlessGl> gl_;
  static std::string skip_, failure_;
  cudaStream_t stream_ = nullptr;
};

std::unique_ptr<HeadlessGl> GlInterop::gl_;
std::string GlInterop::skip_;
std::string GlInterop::failure_;

TEST_F(GlInterop, ContextIsOnTheCudaDeviceAndReleasedContextIsNot) {
  std::string reason;
  EXPECT_TRUE(cuda::current_gl_context_is_on_cuda_device(&reason)) << reason;
  EXPECT_NE(reason.find("share CUDA device"), std::string::npos) << reason;

  ASSERT_TRUE(gl_->release()) << egl_error_text();
  reason.clear();
  EXPECT_FALSE(cuda::current_gl_context_is_on_cuda_device(&reason));
  EXPECT_FALSE(reason.empty());
  ASSERT_TRUE(gl_->make_current()) << egl_error_text();
}

TEST_F(GlInterop, WritesAKnownPatternThatReadsBackExactly) {
  const int width = 333, height = 77;
  GlTexture texture(width, height, filled(width, height, 0x5A));
  ASSERT_EQ(gl_errors(), "");
  cuda::GlTextureInterop interop(texture.name(), width, height);

  // Two frames through one registration: each must fully replace the last.
  for (int frame = 1; frame <= 2; ++frame) {
    const std::vector<uchar4> expected = pattern(width, height, frame);
    test::GuardedDeviceArray<uchar4> source(expected.size(), expected.data());
    interop.write_rgba(source.data(), stream_);
    EXPECT_TRUE(identical(texture.read_back(), expected, width)) << "frame " << frame;
    EXPECT_TRUE(source.guards_intact());
  }
  SV_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

// The viewer's two display paths give the same pixels: CUDA colorize + interop, and the CPU
// colorize uploaded with glTexSubImage2D.
TEST_F(GlInterop, InteropDisparityImageEqualsTheHostPath) {
  const int width = 333, height = 77;
  ImageI16 fixed(width, height);
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const uint8_t h = test::hash_value(x, y, 3);
      // Invalid pixels, and values beyond both ends of the range (clamping).
      fixed.at(x, y) = h < 12 ? kInvalidFixedDisparity
                              : static_cast<int16_t>((x * 5 + y * 11 + h) % 1400 - 150);
    }
  }
  const float lo = 1.5f, hi = 70.25f;
  const Rgb8 invalid{7, 8, 9};
  test::GuardedDeviceArray<int16_t> device_disparity(fixed.size(), fixed.data());
  test::GuardedDeviceArray<uchar4> device_rgba(fixed.size());

  GlTexture interop_texture(width, height, filled(width, height, 0x33));
  GlTexture host_texture(width, height, filled(width, height, 0xCC));
  cuda::GlTextureInterop interop(interop_texture.name(), width, height);

  for (Colormap map : {Colormap::Turbo, Colormap::Jet, Colormap::Inferno, Colormap::Gray}) {
    cuda::colorize_disparity(device_disparity.data(), width, height, lo,
                             colorize_inverse_range(lo, hi), map, invalid, device_rgba.data(),
                             stream_);
    interop.write_rgba(device_rgba.data(), stream_);

    const ImageRgb8 colors = colorize_disparity(fixed_to_float_disparity(fixed), lo, hi, map, invalid);
    std::vector<uchar4> host_rgba(colors.size());
    std::set<uint32_t> distinct;
    for (size_t i = 0; i < colors.size(); ++i) {
      const Rgb8 c = colors.data()[i];
      host_rgba[i] = make_uchar4(c.r, c.g, c.b, 255);
      distinct.insert(c.r << 16 | c.g << 8 | c.b);
    }
    host_texture.upload(host_rgba);

    const std::vector<uchar4> via_interop = interop_texture.read_back();
    EXPECT_TRUE(identical(via_interop, host_texture.read_back(), width)) << colormap_name(map);
    EXPECT_TRUE(identical(via_interop, host_rgba, width)) << colormap_name(map);
    EXPECT_GT(distinct.size(), 100u) << colormap_name(map) << ": the image must not be flat";
  }
  EXPECT_TRUE(device_rgba.guards_intact());
}

// The whole display path without a host round trip: the CUDA engine keeps each result on the
// GPU, InteropDisparityView colorizes it there and writes the texture; the pixels equal the CPU
// colorize of the same result's host copy. Several frames are in flight, held and released out
// of order, so a recycled device buffer that were overwritten too early would show.
TEST_F(GlInterop, EngineResultsReachTheTextureWithoutTheHost) {
  SyntheticSceneConfig config;
  config.width = 321;
  config.height = 239;
  config.max_disparity = 48;
  const SyntheticScene scene(config);
  StereoParams params;
  params.num_disparities = 48;
  cuda::CudaEngine engine;
  ResultParts keep;
  keep.device = true;

  GlTexture texture(config.width, config.height, filled(config.width, config.height, 0x11));
  cuda::InteropDisparityView view;
  const Rgb8 invalid{255, 0, 255};
  std::vector<DisparityResult> held;
  for (int frame = 0; frame < 4; ++frame) {
    const SyntheticFrame f = scene.render(frame * 3);
    held.push_back(engine.compute(test::request_of(to_gray(f.left), to_gray(f.right), params, nullptr, keep)));
    ASSERT_NE(held.back().device, nullptr);
    if (frame == 1) held.erase(held.begin());  // give one back early: its buffer is reused
  }
  for (const DisparityResult& result : held) {
    const auto* device = dynamic_cast<const cuda::DeviceDisparity*>(result.device.get());
    ASSERT_NE(device, nullptr);
    view.show(*device, 0.0f, 47.0f, Colormap::Turbo, invalid, texture.name());
    const ImageRgb8 colors = colorize_disparity(result.disparity, 0.0f, 47.0f, Colormap::Turbo, invalid);
    std::vector<uchar4> expected(colors.size());
    for (size_t i = 0; i < colors.size(); ++i) {
      expected[i] = make_uchar4(colors.data()[i].r, colors.data()[i].g, colors.data()[i].b, 255);
    }
    EXPECT_TRUE(identical(texture.read_back(), expected, config.width));
  }
  // Without the request, results carry no device copy.
  const SyntheticFrame f = scene.render(1);
  EXPECT_EQ(engine.compute(to_gray(f.left), to_gray(f.right), params).device, nullptr);
}

// A colour image as the RGBA8 a texture holds after the host path's RGB upload (alpha 255).
std::vector<uchar4> as_rgba(const ImageRgb8& image) {
  std::vector<uchar4> rgba(image.size());
  for (size_t i = 0; i < rgba.size(); ++i) {
    const Rgb8 c = image.data()[i];
    rgba[i] = make_uchar4(c.r, c.g, c.b, 255);
  }
  return rgba;
}

size_t distinct_colours(const ImageRgb8& image) {
  std::set<uint32_t> distinct;
  for (size_t i = 0; i < image.size(); ++i) {
    const Rgb8 c = image.data()[i];
    distinct.insert(c.r << 16 | c.g << 8 | c.b);
  }
  return distinct.size();
}

// A raw pair of an odd size and maps that move it, as a calibrated rig gives them.
constexpr int kViewsWidth = 203, kViewsHeight = 121;

struct RawColourPair {
  ImageRgb8 left, right;
};

RawColourPair raw_colour_pair(int frame) {
  SyntheticSceneConfig config;
  config.width = kViewsWidth;
  config.height = kViewsHeight;
  config.max_disparity = 40;
  const SyntheticFrame f = SyntheticScene(config).render(frame * 2);
  return {f.left, f.right};
}

std::shared_ptr<const RectificationMaps> views_maps() {
  static const auto maps = std::make_shared<const RectificationMaps>(
      test::lens_like_rectification(kViewsWidth, kViewsHeight));
  return maps;
}

// The views without a host round trip: the CUDA engine rectifies raw colour pairs on the GPU,
// keeps the rectified views there (DeviceViews), and InteropViews copies them into the two
// textures. They read back equal to the raw pair rectified on the host (core remap) and uploaded
// the host way, and to the result's host copies. Two frames are in flight at once, and the
// results are held and released out of order, so a recycled buffer overwritten too early, or
// the views of another frame, would show.
TEST_F(GlInterop, EngineViewsReachTheTexturesWithoutTheHost) {
  StereoParams params;
  params.num_disparities = 48;
  cuda::CudaEngine engine;
  ResultParts keep;
  keep.device = true;

  std::vector<RawColourPair> raw;
  std::vector<DisparityResult> held;
  for (int frame = 0; frame < 5; ++frame) raw.push_back(raw_colour_pair(frame));
  engine.submit(test::request_of(raw[0].left, raw[0].right, params, views_maps(), keep));
  engine.submit(test::request_of(raw[1].left, raw[1].right, params, views_maps(), keep));
  held.push_back(engine.collect());
  held.push_back(engine.collect());
  for (int frame = 2; frame < 5; ++frame) {
    held.push_back(engine.compute(test::request_of(raw[frame].left, raw[frame].right, params, views_maps(), keep)));
    if (frame == 3) held.erase(held.begin() + 1);  // frame 1 given back early: its buffer is reused
  }
  const std::vector<int> frames = {0, 2, 3, 4};
  ASSERT_EQ(held.size(), frames.size());

  const int w = kViewsWidth, h = kViewsHeight;
  GlTexture left_texture(w, h, filled(w, h, 0x11));
  GlTexture right_texture(w, h, filled(w, h, 0x22));
  GlTexture host_texture(w, h, filled(w, h, 0x33));
  cuda::InteropViews views;
  // Newest first, so every show reads a buffer the pool handed out after older ones.
  for (size_t k = held.size(); k-- > 0;) {
    const DisparityResult& result = held[k];
    const RawColourPair& pair = raw[frames[k]];
    const auto* device = dynamic_cast<const cuda::DeviceViews*>(result.device_views.get());
    ASSERT_NE(device, nullptr) << "frame " << frames[k];
    ASSERT_EQ(device->width(), w);
    ASSERT_EQ(device->height(), h);
    views.show(*device, left_texture.name(), right_texture.name());

    ImageRgb8 expected_left = pair.left, expected_right = pair.right;
    rectify_pair(*views_maps(), expected_left, expected_right);
    ASSERT_NE(expected_left, pair.left);  // the maps do move the views
    EXPECT_GT(distinct_colours(expected_left), 500u) << "the views must not be flat";
    EXPECT_EQ(result.rectified_left, expected_left) << "frame " << frames[k];
    EXPECT_EQ(result.rectified_right, expected_right) << "frame " << frames[k];

    host_texture.upload_rgb(expected_left);
    EXPECT_TRUE(identical(left_texture.read_back(), host_texture.read_back(), w))
        << "left, frame " << frames[k];
    EXPECT_TRUE(identical(left_texture.read_back(), as_rgba(expected_left), w))
        << "left, frame " << frames[k];
    host_texture.upload_rgb(expected_right);
    EXPECT_TRUE(identical(right_texture.read_back(), host_texture.read_back(), w))
        << "right, frame " << frames[k];
  }
}

// The views are left on the device only when the result is kept there AND the engine rectified
// a colour pair; otherwise the viewer uploads the host copies (its fallback), so the result must
// carry no device views that could be stale.
TEST_F(GlInterop, EngineKeepsDeviceViewsOnlyForColourPairsItRectified) {
  StereoParams params;
  params.num_disparities = 48;
  const RawColourPair pair = raw_colour_pair(1);
  cuda::CudaEngine engine;
  ResultParts keep;
  keep.device = true;
  // Not rectifying: the pair's own views are what the display shows.
  DisparityResult result = engine.compute(test::request_of(pair.left, pair.right, params, nullptr, keep));
  EXPECT_NE(result.device, nullptr);
  EXPECT_EQ(result.device_views, nullptr);
  EXPECT_TRUE(result.rectified_left.empty());

  // Gray input has no colour views to show.
  result = engine.compute(test::request_of(to_gray(pair.left), to_gray(pair.right), params, views_maps(), keep));
  EXPECT_NE(result.device, nullptr);
  EXPECT_EQ(result.device_views, nullptr);
  // Device results not asked for: the host copies only.
  result = engine.compute(test::request_of(pair.left, pair.right, params, views_maps()));
  EXPECT_EQ(result.device_views, nullptr);
  EXPECT_FALSE(result.rectified_left.empty());
  result = engine.compute(test::request_of(pair.left, pair.right, params, views_maps(), keep));
  EXPECT_NE(result.device_views, nullptr);

  cuda::DeviceViewsPool pool;
  test::GuardedDeviceArray<Rgb8> view(4);
  EXPECT_THROW(pool.copy(nullptr, view.data(), 2, 2, stream_), InputError);
  EXPECT_THROW(pool.copy(view.data(), view.data(), 0, 2, stream_), InputError);
}

// Textures whose storage is not the views' size are refused with a message naming both sizes,
// left as they were, and the same InteropViews then works once given textures that fit.
TEST_F(GlInterop, InteropViewsRefuseTexturesOfAnotherSize) {
  StereoParams params;
  params.num_disparities = 48;
  const RawColourPair pair = raw_colour_pair(2);
  cuda::CudaEngine engine;
  ResultParts keep;
  keep.device = true;
  const DisparityResult result = engine.compute(test::request_of(pair.left, pair.right, params, views_maps(), keep));
  const auto* device = dynamic_cast<const cuda::DeviceViews*>(result.device_views.get());
  ASSERT_NE(device, nullptr);

  const int w = kViewsWidth, h = kViewsHeight;
  GlTexture small(w - 1, h, filled(w - 1, h, 0x44));
  GlTexture fitting(w, h, filled(w, h, 0x55));
  cuda::InteropViews views;
  for (const auto& [left, right] : {std::pair<unsigned, unsigned>{small.name(), fitting.name()},
                                    std::pair<unsigned, unsigned>{fitting.name(), small.name()}}) {
    try {
      views.show(*device, left, right);
      ADD_FAILURE() << "views of " << w << "x" << h << " went into a texture of " << w - 1 << "x"
                    << h;
    } catch (const InputError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(std::to_string(w - 1) + "x" + std::to_string(h)), std::string::npos)
          << message;
      EXPECT_NE(message.find(std::to_string(w) + "x" + std::to_string(h)), std::string::npos)
          << message;
    }
    SV_CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_TRUE(identical(small.read_back(), filled(w - 1, h, 0x44), w - 1));
    EXPECT_TRUE(identical(fitting.read_back(), filled(w, h, 0x55), w));  // nothing half written
  }

  GlTexture right_texture(w, h, filled(w, h, 0x66));
  views.show(*device, fitting.name(), right_texture.name());
  EXPECT_TRUE(identical(fitting.read_back(), as_rgba(result.rectified_left), w));
  EXPECT_TRUE(identical(right_texture.read_back(), as_rgba(result.rectified_right), w));
}

TEST_F(GlInterop, RegistersAgainAfterTheTextureIsResized) {
  GlTexture texture(333, 77, filled(333, 77, 0));
  {
    cuda::GlTextureInterop interop(texture.name(), 333, 77);
    const std::vector<uchar4> expected = pattern(333, 77, 5);
    test::GuardedDeviceArray<uchar4> source(expected.size(), expected.data());
    interop.write_rgba(source.data(), stream_);
    EXPECT_TRUE(identical(texture.read_back(), expected, 333));
    SV_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }  // unregistered before the storage changes, as gl_interop.h asks

  const struct {
    int width, height;
  } sizes[] = {{641, 479}, {1, 1}, {17, 3}};
  int seed = 6;
  for (const auto size : sizes) {
    texture.allocate(size.width, size.height, filled(size.width, size.height, 0x77));
    ASSERT_EQ(gl_errors(), "");
    cuda::GlTextureInterop interop(texture.name(), size.width, size.height);
    const std::vector<uchar4> expected = pattern(size.width, size.height, seed++);
    test::GuardedDeviceArray<uchar4> source(expected.size(), expected.data());
    interop.write_rgba(source.data(), stream_);
    EXPECT_TRUE(identical(texture.read_back(), expected, size.width))
        << size.width << "x" << size.height;
    SV_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  // The size the caller gives is checked against the texture's storage (now 17x3).
  try {
    cuda::GlTextureInterop stale(texture.name(), 333, 77);
    ADD_FAILURE() << "registering 17x3 storage as 333x77 did not throw";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("17x3"), std::string::npos) << e.what();
  }
}

TEST_F(GlInterop, RejectsBadArguments) {
  EXPECT_THROW(cuda::GlTextureInterop(0, 4, 4), InputError);
  GlTexture texture(4, 4, filled(4, 4, 0));
  EXPECT_THROW(cuda::GlTextureInterop(texture.name(), 0, 4), InputError);
  EXPECT_THROW(cuda::GlTextureInterop(texture.name(), 4, -1), InputError);
  cuda::GlTextureInterop interop(texture.name(), 4, 4);
  EXPECT_THROW(interop.write_rgba(nullptr, stream_), InputError);
  // A name that is no texture: CUDA refuses, with the texture named in the message.
  try {
    cuda::GlTextureInterop bogus(texture.name() + 1000, 4, 4);
    ADD_FAILURE() << "registering a name that is no texture did not throw";
  } catch (const cuda::CudaError& e) {
    EXPECT_NE(std::string(e.what()).find("GL texture " + std::to_string(texture.name() + 1000)),
              std::string::npos)
        << e.what();
  }
  gl_errors();  // the driver may have recorded a GL error for the bogus name too
  // The failed registration left no CUDA error behind for later launch checks.
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

// A GL vertex buffer of `count` CloudVertex, filled with a poison pattern.
class GlVertexBuffer {
 public:
  explicit GlVertexBuffer(size_t count) {
    glGenBuffers(1, &name_);
    allocate(count);
  }
  ~GlVertexBuffer() { glDeleteBuffers(1, &name_); }
  GlVertexBuffer(const GlVertexBuffer&) = delete;
  GlVertexBuffer& operator=(const GlVertexBuffer&) = delete;
  void allocate(size_t count) {
    count_ = count;
    const std::vector<unsigned char> poison(count * sizeof(CloudVertex), 0x5A);
    glBindBuffer(GL_ARRAY_BUFFER, name_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(poison.size()), poison.data(),
                 GL_DYNAMIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
  }
  std::vector<CloudVertex> read_back() const {
    std::vector<CloudVertex> vertices(count_);
    glBindBuffer(GL_ARRAY_BUFFER, name_);
    glGetBufferSubData(GL_ARRAY_BUFFER, 0,
                       static_cast<GLsizeiptr>(count_ * sizeof(CloudVertex)), vertices.data());
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return vertices;
  }
  unsigned int name() const { return name_; }

 private:
  GLuint name_ = 0;
  size_t count_ = 0;
};

// Whole-buffer equality, byte for byte; on failure names the first differing vertex.
::testing::AssertionResult same_vertices(const std::vector<CloudVertex>& actual,
                                         const std::vector<CloudVertex>& expected, int width) {
  if (actual.size() != expected.size()) return ::testing::AssertionFailure() << "sizes differ";
  size_t mismatches = 0, first = 0;
  for (size_t i = 0; i < actual.size(); ++i) {
    if (std::memcmp(&actual[i], &expected[i], sizeof(CloudVertex)) != 0 && mismatches++ == 0) first = i;
  }
  if (mismatches == 0) return ::testing::AssertionSuccess();
  const CloudVertex& a = actual[first];
  const CloudVertex& e = expected[first];
  return ::testing::AssertionFailure()
         << mismatches << " vertices differ, first at (" << first % width << ", " << first / width
         << "): " << a.x << " " << a.y << " " << a.z << " a " << int(a.a) << " instead of " << e.x
         << " " << e.y << " " << e.z << " a " << int(e.a);
}

// The 3D view's interop path: the CUDA engine keeps the disparity (and, for a colour pair it
// rectified, the views) on the GPU, InteropPointCloud runs the vertex kernel straight into the
// registered GL buffer, and the buffer reads back equal to build_cloud_vertices of the result's
// host copies, in every colour mode, with the left view from the device views and from the host,
// and after the buffer was reallocated (registered again).
TEST_F(GlInterop, InteropPointCloudBufferEqualsTheHostVertices) {
  StereoParams params;
  params.num_disparities = 48;
  params.confidence = true;
  cuda::CudaEngine engine;
  ResultParts keep;
  keep.device = true;
  const RawColourPair pair = raw_colour_pair(3);
  ImageRgb8 rectified_left = pair.left, rectified_right = pair.right;
  rectify_pair(*views_maps(), rectified_left, rectified_right);
  // A colour pair the engine rectifies (views on the device), and a gray one (views on the host).
  const DisparityResult with_views =
      engine.compute(test::request_of(pair.left, pair.right, params, views_maps(), keep));
  const DisparityResult without_views = engine.compute(
      test::request_of(to_gray(rectified_left), to_gray(rectified_right), params, nullptr, keep));
  ASSERT_NE(with_views.device_views, nullptr);
  ASSERT_EQ(without_views.device_views, nullptr);
  ASSERT_FALSE(with_views.confidence.empty());

  const int w = kViewsWidth, h = kViewsHeight;
  const size_t pixels = static_cast<size_t>(w) * h;
  size_t capacity = pixels + 5;  // larger than needed: only the first pixels are written
  GlVertexBuffer buffer(capacity);
  cuda::InteropPointCloud cloud;
  const CloudProjection projection = metric_projection(150.0, 0.1, w * 0.5, h * 0.5, 0.0);
  uint64_t generation = 1;
  for (const DisparityResult* result : {&with_views, &without_views}) {
    const auto* device = dynamic_cast<const cuda::DeviceDisparity*>(result->device.get());
    const auto* views = dynamic_cast<const cuda::DeviceViews*>(result->device_views.get());
    ASSERT_NE(device, nullptr);
    for (CloudColour colour : {CloudColour::Image, CloudColour::Depth, CloudColour::Confidence}) {
      CloudStyle style;
      style.colour = colour;
      style.depth_near = 0.4f;
      style.depth_far = 15.0f;
      style.min_confidence = 0.1f;
      cloud.show(*device, views, rectified_left, result->confidence, projection, style,
                 buffer.name(), capacity, generation);
      std::vector<CloudVertex> expected;
      build_cloud_vertices(result->disparity, rectified_left, result->confidence, projection,
                           style, expected);
      std::vector<CloudVertex> got = buffer.read_back();
      ASSERT_EQ(got.size(), capacity);
      got.resize(pixels);
      EXPECT_TRUE(same_vertices(got, expected, w))
          << (views ? "device views" : "host left view") << ", colour " << static_cast<int>(colour);
      int shown = 0;
      for (const CloudVertex& v : expected) shown += v.a != 0 ? 1 : 0;
      // The raw pair's rectified views leave black borders without disparity: about a third shows.
      EXPECT_GT(shown, static_cast<int>(pixels / 5)) << "the cloud must not be empty";
    }
    // A reallocated buffer (a new image size in the viewer) is released first, then registered
    // again by the next show().
    cloud.release();
    capacity = pixels;
    buffer.allocate(capacity);
    ++generation;
  }
  EXPECT_THROW(cloud.show(*dynamic_cast<const cuda::DeviceDisparity*>(with_views.device.get()),
                          nullptr, rectified_left, ImageF32(), projection, CloudStyle{},
                          buffer.name(), pixels - 1, generation),
               InputError);
  EXPECT_THROW(cuda::GlBufferInterop(0, 16), InputError);
  EXPECT_THROW(cuda::GlBufferInterop(buffer.name(), (pixels + 1) * sizeof(CloudVertex)), InputError);
}


// The 3D view's interop path at the size, 1280x720 (921,600 points): the frame time of
// InteropPointCloud::show (map the registered buffer, the vertex kernel, unmap) as the viewer
// pays it each frame, waited for on the GPU, median of 50 after a warm-up; coloured by depth
// (nothing copied up) and by the host's left view (the image copied up each frame, as for a
// pair the engine did not rectify). Printed for scripts/gpu_gl_check.sh's summary, not checked
// against a bound (a benchmark is no test): the test checks that the buffer is the cloud.
TEST_F(GlInterop, InteropPointCloudFrameTimeAt1280x720) {
  SyntheticSceneConfig scene;
  scene.width = 1280;
  scene.height = 720;
  scene.max_disparity = 64;
  const SyntheticFrame frame = SyntheticScene(scene).render(0);
  StereoParams params;
  cuda::CudaEngine engine;
  ResultParts keep;
  keep.device = true;
  const DisparityResult result =
      engine.compute(test::request_of(frame.left, frame.right, params, nullptr, keep));
  const auto* device = dynamic_cast<const cuda::DeviceDisparity*>(result.device.get());
  ASSERT_NE(device, nullptr);
  const size_t pixels = static_cast<size_t>(scene.width) * scene.height;
  GlVertexBuffer buffer(pixels);
  cuda::InteropPointCloud cloud;
  const CloudProjection projection =
      metric_projection(1000.0, 0.1, scene.width * 0.5, scene.height * 0.5, 0.0);
  for (CloudColour colour : {CloudColour::Depth, CloudColour::Image}) {
    CloudStyle style;
    style.colour = colour;
    style.depth_near = 0.5f;
    style.depth_far = 20.0f;
    std::vector<double> ms;
    for (int i = 0; i < 53; ++i) {
      const auto start = std::chrono::steady_clock::now();
      cloud.show(*device, nullptr, frame.left, ImageF32(), projection, style, buffer.name(), pixels, 1);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      glFinish();
      const double elapsed =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      if (i >= 3) ms.push_back(elapsed);  // the first register the buffer and warm up
    }
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2];
    std::printf("interop point cloud 1280x720 (%zu points), colour %s: median %.3f ms per frame "
                "(min %.3f, max %.3f, %zu frames), %.0f Mpoints/s\n",
                pixels, colour == CloudColour::Depth ? "depth" : "image", median, ms.front(),
                ms.back(), ms.size(), pixels / median / 1000.0);
    std::vector<CloudVertex> expected;
    build_cloud_vertices(result.disparity, frame.left, ImageF32(), projection, style, expected);
    EXPECT_TRUE(same_vertices(buffer.read_back(), expected, scene.width));
  }
}

}  // namespace
}  // namespace sv
