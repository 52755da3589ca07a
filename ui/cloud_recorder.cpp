#include "ui/cloud_recorder.h"

#include <cstdio>

#include "src/core/output_folders.h"
#include "src/io/point_cloud_ply.h"

namespace sv {

CloudRecorder::CloudRecorder(const std::string& folder) : folder_(folder) {
  create_output_folder(folder, "cloud recording folder");
  thread_ = std::thread([this] { run(); });
}

CloudRecorder::~CloudRecorder() { finish(); }

void CloudRecorder::finish() {
  queue_.close();
  if (thread_.joinable()) thread_.join();
}

void CloudRecorder::add(int64_t index, std::vector<CloudVertex> vertices, const std::string& units) {
  queue_.push(Cloud{index, std::move(vertices), units});
}

CloudRecorder::Status CloudRecorder::status() const {
  Status s;
  s.written = written_.load();
  s.dropped = static_cast<int64_t>(queue_.dropped());
  std::lock_guard<std::mutex> lock(error_mutex_);
  s.error = error_;
  return s;
}

void CloudRecorder::run() {
  while (std::optional<Cloud> cloud = queue_.pop()) {
    char name[48];
    std::snprintf(name, sizeof name, "/cloud_%06lld.ply", static_cast<long long>(cloud->index));
    try {
      write_cloud_vertices_ply(folder_ + name, cloud->vertices, cloud->units);
      ++written_;
    } catch (const std::exception& e) {
      {
        std::lock_guard<std::mutex> lock(error_mutex_);
        error_ = e.what();
      }
      queue_.close();  // nothing more is accepted; what is queued is dropped with the error
      return;
    }
  }
}

}  // namespace sv
