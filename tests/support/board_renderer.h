#pragma once

// A small renderer of a planar calibration board (chessboard or ChArUco) seen by a stereo pair
// of known cameras (K, distortion of the pinhole or fisheye model, R, T): every pixel's ray,
// undistorted by the camera's own model, is cut with the board's plane and takes the board's
// colour there, averaged over 3x3 samples per pixel (anti-aliased edges), plus Gaussian noise.
// The truth the calibration tests recover.

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#ifdef STEREOVIEW_TEST_HAS_ARUCO
#include <opencv2/aruco/charuco.hpp>
#endif

#include <algorithm>
#include <cmath>
#include <vector>

#include "src/core/image.h"
#include "src/io/calibration_board.h"

namespace sv::test {

struct RenderCamera {
  cv::Matx33d K;
  cv::Mat D;  // 5 (or 8) pinhole terms, or 4 fisheye terms
  bool fisheye = false;
};

// X_cam = R X_board + t (metres), the board's pose in camera 1.
struct BoardPose {
  cv::Matx33d R;
  cv::Vec3d t;
};

inline cv::Matx33d rotation_xyz(double ax_deg, double ay_deg, double az_deg) {
  cv::Mat R;
  cv::Rodrigues(cv::Vec3d(ax_deg, ay_deg, az_deg) * (CV_PI / 180.0), R);
  return cv::Matx33d(R);
}

// The board as an image: `texels` per square, one white square of margin around it; texel
// (u, v) of board point (x, y) is origin + (x, y) * texels / square.
struct BoardTexture {
  cv::Mat gray;
  double texels_per_unit = 0.0;
  cv::Point2d origin;
};

inline BoardTexture make_board_texture(const BoardSpec& board, int texels = 48) {
  BoardTexture t;
  t.texels_per_unit = texels / board.square;
  if (board.kind == BoardSpec::Kind::Chessboard) {
    // Squares from -1 to cols (inner corners 0..cols-1), plus one square of white margin.
    const int sx = board.cols + 1, sy = board.rows + 1;
    t.gray = cv::Mat(cv::Size((sx + 2) * texels, (sy + 2) * texels), CV_8UC1, cv::Scalar(235));
    for (int j = 0; j < sy; ++j) {
      for (int i = 0; i < sx; ++i) {
        if ((i + j) % 2 == 0) {
          t.gray(cv::Rect((i + 1) * texels, (j + 1) * texels, texels, texels)).setTo(cv::Scalar(20));
        }
      }
    }
    t.origin = cv::Point2d(2.0 * texels, 2.0 * texels);
    return t;
  }
#ifdef STEREOVIEW_TEST_HAS_ARUCO
  // OpenCV draws the board over the whole image; its first inner corner is one square in, and
  // one texel further on both axes (measured: the corners of a rendered board then lie where
  // the camera projects them, within OpenCV's ChArUco precision).
  auto charuco = cv::aruco::CharucoBoard::create(
      board.cols, board.rows, static_cast<float>(board.square), static_cast<float>(board.marker),
      cv::aruco::getPredefinedDictionary(cv::aruco::DICT_5X5_100));
  cv::Mat drawn;
  charuco->draw(cv::Size(board.cols * texels, board.rows * texels), drawn, 0, 1);
  t.gray = cv::Mat(drawn.rows + 2 * texels, drawn.cols + 2 * texels, CV_8UC1, cv::Scalar(255));
  drawn.copyTo(t.gray(cv::Rect(texels, texels, drawn.cols, drawn.rows)));
  t.origin = cv::Point2d(2.0 * texels + 1.0, 2.0 * texels + 1.0);
#endif
  return t;
}

// Renders what `camera`, placed at X_cam = Rc X + tc relative to camera 1, sees of the board at
// `pose`. Background: mid gray.
inline ImageU8 render_board(const BoardTexture& texture, const RenderCamera& camera,
                            const cv::Matx33d& Rc, const cv::Vec3d& tc, const BoardPose& pose,
                            cv::Size size, double noise_sigma, uint64_t seed) {
  constexpr int kSamples = 3;
  // Undistorting every sample is most of the work: each camera's rays are computed once.
  struct CachedRays {
    cv::Mat key;  // K, D and the size the rays belong to
    std::vector<cv::Point2f> rays;
  };
  static thread_local std::vector<CachedRays> cache;
  cv::Mat key;
  cv::hconcat(std::vector<cv::Mat>{cv::Mat(camera.K).reshape(1, 1), camera.D.reshape(1, 1),
                                   (cv::Mat_<double>(1, 3) << size.width, size.height, camera.fisheye)},
              key);
  auto cached = std::find_if(cache.begin(), cache.end(), [&](const CachedRays& c) {
    return c.key.size() == key.size() && cv::norm(c.key, key, cv::NORM_INF) == 0.0;
  });
  if (cached == cache.end()) {
    std::vector<cv::Point2f> pixels;
    pixels.reserve(static_cast<size_t>(size.area()) * kSamples * kSamples);
    for (int y = 0; y < size.height; ++y) {
      for (int x = 0; x < size.width; ++x) {
        for (int sy = 0; sy < kSamples; ++sy) {
          for (int sx = 0; sx < kSamples; ++sx) {
            pixels.emplace_back(x + (sx + 0.5f) / kSamples - 0.5f, y + (sy + 0.5f) / kSamples - 0.5f);
          }
        }
      }
    }
    CachedRays entry{key.clone(), {}};
    if (camera.fisheye) {
      cv::fisheye::undistortPoints(pixels, entry.rays, cv::Mat(camera.K), camera.D);
    } else {
      cv::undistortPoints(pixels, entry.rays, cv::Mat(camera.K), camera.D, cv::noArray(),
                          cv::noArray(),
                          cv::TermCriteria(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, 40, 1e-9));
    }
    if (cache.size() >= 4) cache.erase(cache.begin());
    cache.push_back(std::move(entry));
    cached = cache.end() - 1;
  }
  const std::vector<cv::Point2f>& rays = cached->rays;
  // The board in this camera: X = Rb P + tb.
  const cv::Matx33d Rb = Rc * pose.R;
  const cv::Vec3d tb = Rc * pose.t + tc;
  const cv::Vec3d normal(Rb(0, 2), Rb(1, 2), Rb(2, 2));
  const double plane = normal.dot(tb);
  cv::Mat out(size, CV_32FC1);
  for (int y = 0; y < size.height; ++y) {
    for (int x = 0; x < size.width; ++x) {
      double sum = 0.0;
      for (int k = 0; k < kSamples * kSamples; ++k) {
        const cv::Point2f r = rays[(static_cast<size_t>(y) * size.width + x) * kSamples * kSamples + k];
        const cv::Vec3d d(r.x, r.y, 1.0);
        const double denom = normal.dot(d);
        double value = 128.0;
        if (std::fabs(denom) > 1e-12) {
          const double s = plane / denom;
          const cv::Vec3d p = Rb.t() * (s * d - tb);
          // Bounds in double first: rays far off the board land beyond any int.
          const double u = std::floor(texture.origin.x + p[0] * texture.texels_per_unit);
          const double v = std::floor(texture.origin.y + p[1] * texture.texels_per_unit);
          if (s > 0 && u >= 0 && v >= 0 && u < texture.gray.cols && v < texture.gray.rows) {
            value = texture.gray.at<uint8_t>(static_cast<int>(v), static_cast<int>(u));
          }
        }
        sum += value;
      }
      out.at<float>(y, x) = static_cast<float>(sum / (kSamples * kSamples));
    }
  }
  cv::Mat noise(size, CV_32FC1);
  cv::RNG rng(seed);
  rng.fill(noise, cv::RNG::NORMAL, 0.0, noise_sigma);
  out += noise;
  ImageU8 image(size.width, size.height);
  for (int y = 0; y < size.height; ++y) {
    for (int x = 0; x < size.width; ++x) {
      image.at(x, y) = cv::saturate_cast<uint8_t>(out.at<float>(y, x));
    }
  }
  return image;
}

// A stereo rig with modest distortion, and board poses spread over the image, tilted up to
// about 30 degrees, every corner in both views.
struct SyntheticRig {
  RenderCamera left, right;
  cv::Matx33d R;  // camera 2 = R camera 1 + T
  cv::Vec3d T;
  cv::Size size{480, 360};
};

inline SyntheticRig pinhole_rig() {
  SyntheticRig rig;
  rig.left = {cv::Matx33d(420, 0, 243, 0, 421, 176, 0, 0, 1),
              (cv::Mat_<double>(1, 5) << -0.12, 0.06, 0.0008, -0.0005, 0.0), false};
  rig.right = {cv::Matx33d(415, 0, 236, 0, 416, 183, 0, 0, 1),
               (cv::Mat_<double>(1, 5) << -0.10, 0.04, -0.0004, 0.0006, 0.0), false};
  rig.R = rotation_xyz(0.6, -2.0, 0.4);
  rig.T = cv::Vec3d(-0.06, 0.0012, 0.0015);
  return rig;
}

inline SyntheticRig fisheye_rig() {
  SyntheticRig rig = pinhole_rig();
  rig.left.fisheye = rig.right.fisheye = true;
  rig.left.K = cv::Matx33d(260, 0, 243, 0, 261, 176, 0, 0, 1);
  rig.right.K = cv::Matx33d(258, 0, 236, 0, 257, 183, 0, 0, 1);
  rig.left.D = (cv::Mat_<double>(1, 4) << 0.05, -0.02, 0.004, -0.001);
  rig.right.D = (cv::Mat_<double>(1, 4) << 0.04, -0.01, 0.002, -0.0005);
  return rig;
}

// View k of `count`: the board's centre moved over a grid in front of the cameras, tilted
// alternately about both axes. `distance` scales how far away (metres for a 0.03 m square).
inline BoardPose board_pose(const BoardSpec& board, int k, int count, double distance = 0.45) {
  const double w = (board.corner_cols() - 1) * board.square, h = (board.corner_rows() - 1) * board.square;
  const double a = 2.0 * CV_PI * k / count;
  const double ax = 25.0 * std::sin(a), ay = 25.0 * std::cos(1.7 * a), az = 12.0 * std::sin(2.3 * a);
  const cv::Matx33d R = rotation_xyz(ax, ay, az);
  const cv::Vec3d centre(0.05 * std::cos(a) + 0.045, 0.05 * std::sin(1.3 * a),
                         distance * (1.0 + 0.15 * std::cos(0.9 * a)));
  // The board's own centre at `centre`.
  return {R, centre - R * cv::Vec3d(w / 2, h / 2, 0)};
}

struct RenderedPair {
  ImageU8 left, right;
};

inline RenderedPair render_pair(const SyntheticRig& rig, const BoardTexture& texture,
                                const BoardPose& pose, double noise_sigma, uint64_t seed) {
  return {render_board(texture, rig.left, cv::Matx33d::eye(), cv::Vec3d(0, 0, 0), pose, rig.size,
                       noise_sigma, seed),
          render_board(texture, rig.right, rig.R, rig.T, pose, rig.size, noise_sigma, seed + 1)};
}

}  // namespace sv::test
