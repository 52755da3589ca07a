// stereoview's CPU engines against OpenCV's StereoSGBM on the same frames, cores and minutes.
//
// The machine this runs on may be shared and loaded, so the methods are interleaved (one frame
// of each in turn, round after round) and each one's median is reported: load that comes and
// goes hits every method alike, and the ratios stay fair. The load average before and after is
// printed with the table, and beside the wall time each method's CPU time (the process's, all
// its threads), which other programs' load inflates far less.
#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>
#include <opencv2/core/utility.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "src/core/cpu_engine.h"
#include "src/core/parallel_for.h"
#include "src/core/synthetic_scene.h"
#include "src/cpu_fast/fast_cpu_engine.h"

namespace {

struct Options {
  std::vector<std::pair<int, int>> sizes = {{640, 480}, {1280, 720}};
  std::vector<int> threads = {1, 2};
  int runs = 7;
  int disparities = 128;
  bool with_reference = false;
};

struct Method {
  std::string name;
  std::function<void()> run;
  std::vector<double> ms;
  std::vector<double> cpu_ms;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  in >> one >> five >> fifteen;
  return one.empty() ? "unknown" : one + " " + five + " " + fifteen;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, separator);) parts.push_back(part);
  return parts;
}

Options parse(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(flag + " needs a value");
      return argv[++i];
    };
    if (flag == "--sizes") {
      options.sizes.clear();
      for (const std::string& size : split(value(), ',')) {
        int w = 0, h = 0;
        if (std::sscanf(size.c_str(), "%dx%d", &w, &h) != 2 || w < 16 || h < 16) {
          throw std::runtime_error("--sizes takes WxH[,WxH...] of at least 16x16, got " + size);
        }
        options.sizes.emplace_back(w, h);
      }
    } else if (flag == "--threads") {
      options.threads.clear();
      for (const std::string& t : split(value(), ',')) options.threads.push_back(std::max(1, std::stoi(t)));
    } else if (flag == "--runs") {
      options.runs = std::clamp(std::stoi(value()), 1, 1000);
    } else if (flag == "--disparities") {
      options.disparities = std::clamp(std::stoi(value()) / 16 * 16, 16, 256);
    } else if (flag == "--with-reference") {
      options.with_reference = true;
    } else {
      throw std::runtime_error("unknown flag " + flag +
                               " (--sizes WxH,..  --threads N,..  --runs N  --disparities N  --with-reference)");
    }
  }
  return options;
}

double process_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

// One run of `m`: its wall time and the process's CPU time, appended to its lists.
void time_run(Method& m) {
  const double cpu_start = process_cpu_ms();
  const auto start = std::chrono::steady_clock::now();
  m.run();
  m.ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  m.cpu_ms.push_back(process_cpu_ms() - cpu_start);
}

}  // namespace

int main(int argc, char** argv) try {
  const Options options = parse(argc, argv);
  std::cout << "stereoview CPU engine vs OpenCV " << CV_VERSION << " StereoSGBM, " << options.disparities
            << " disparities, SGBM block 3; median of " << options.runs << " interleaved runs; SIMD target "
            << sv::fast_cpu_target_name() << "\n";
  std::cout << "load average before: " << load_average() << "\n\n";
  std::cout << "| size | threads | method | ms a frame | vs census-SGM 8 paths | CPU ms a frame |\n";
  std::cout << "|---|---:|---|---:|---:|---:|\n";
  for (const auto& [width, height] : options.sizes) {
    sv::SyntheticSceneConfig config;
    config.width = width;
    config.height = height;
    config.max_disparity = options.disparities - 16;
    const sv::SyntheticFrame frame = sv::SyntheticScene(config).render(0);
    const sv::ImageU8 left = sv::to_gray(frame.left), right = sv::to_gray(frame.right);
    const cv::Mat cv_left(height, width, CV_8UC1, const_cast<uint8_t*>(left.data()));
    const cv::Mat cv_right(height, width, CV_8UC1, const_cast<uint8_t*>(right.data()));

    for (const int threads : options.threads) {
      sv::set_worker_count(threads);
      cv::setNumThreads(threads);
      sv::FastCpuEngine fast;
      sv::CpuEngine reference;
      sv::StereoParams eight;
      eight.num_disparities = options.disparities;
      sv::StereoParams four = eight;
      four.sgm_paths = 4;
      std::vector<Method> methods;
      std::map<std::string, std::vector<double>> stages;
      methods.push_back({"stereoview cpu, census-SGM 8 paths", [&] {
        const sv::DisparityResult r = fast.compute(left, right, eight);
        std::map<std::string, double> frame;
        for (const sv::StageTiming& t : r.timings.stages) frame[t.stage] += t.milliseconds;
        for (const auto& [stage, ms] : frame) stages[stage].push_back(ms);
      }, {}, {}});
      methods.push_back({"stereoview cpu, census-SGM 4 paths", [&] { fast.compute(left, right, four); }, {}, {}});
      if (options.with_reference) {
        methods.push_back({"stereoview reference, 8 paths", [&] { reference.compute(left, right, eight); }, {}, {}});
      }
      for (const auto& [name, mode] : {std::pair<const char*, int>{"OpenCV SGBM MODE_HH", cv::StereoSGBM::MODE_HH},
                                       {"OpenCV SGBM MODE_SGBM", cv::StereoSGBM::MODE_SGBM},
                                       {"OpenCV SGBM MODE_SGBM_3WAY", cv::StereoSGBM::MODE_SGBM_3WAY}}) {
        cv::Ptr<cv::StereoSGBM> sgbm = cv::StereoSGBM::create(0, options.disparities, 3, 8 * 9, 32 * 9, 1, 0, 10, 0, 0, mode);
        methods.push_back({name, [sgbm, &cv_left, &cv_right] {
          cv::Mat disparity;
          sgbm->compute(cv_left, cv_right, disparity);
        }, {}, {}});
      }
      for (Method& m : methods) m.run();  // warm-up: allocation, first touch, thread start
      stages.clear();
      for (int round = 0; round < options.runs; ++round) {
        for (Method& m : methods) time_run(m);
      }
      const double ours = median(methods.front().ms);
      for (const Method& m : methods) {
        const double ms = median(m.ms);
        char line[256];
        std::snprintf(line, sizeof line, "| %dx%d | %d | %s | %.1f | %.2f | %.1f |\n", width, height,
                      threads, m.name.c_str(), ms, ms / ours, median(m.cpu_ms));
        std::cout << line;
      }
      std::cout << "|  |  | (8 paths by stage:";
      for (const auto& [stage, ms] : stages) std::printf(" %s %.1f", stage.c_str(), median(ms));
      std::cout << ") |  |  |  |\n" << std::flush;
    }
  }
  std::cout << "\nload average after: " << load_average() << "\n";
  return 0;
} catch (const std::exception& e) {
  std::cerr << "cpu_vs_opencv_bench: " << e.what() << "\n";
  return 2;
}
