#include "src/app/processing_thread.h"

#include <chrono>
#include <exception>

#include "src/core/error.h"

namespace sv {
namespace {

// How long the thread waits for a pair before it looks at its controls again.
constexpr auto kPollInterval = std::chrono::milliseconds(20);

}  // namespace

ProcessingThread::ProcessingThread(PairQueue& input, EngineFactory factory,
                                   const std::string& engine_kind, StereoParams params)
    : input_(input), factory_(std::move(factory)), params_(std::move(params)) {
  engine_ = factory_(engine_kind, notices_);
  if (!engine_) throw RuntimeError("no engine could be made for \"" + engine_kind + "\"");
  engine_name_ = engine_->name();
  pair_pool_ = std::make_shared<BlockPool>(engine_->host_memory(), kPairPoolBlocks);
  in_flight_.emplace(*engine_);
  collect_notices();
}

ProcessingThread::~ProcessingThread() { stop(); }

void ProcessingThread::start() {
  if (thread_.joinable()) return;
  thread_ = std::thread([this] { run(); });
}

void ProcessingThread::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_requested_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

uint64_t ProcessingThread::set_params(const StereoParams& params) {
  uint64_t generation = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    params_ = params;
    generation = ++params_generation_;
  }
  wake_.notify_all();
  return generation;
}

void ProcessingThread::set_result_parts(const ResultParts& want) {
  std::lock_guard<std::mutex> lock(mutex_);
  want_ = want;
}

StereoParams ProcessingThread::params() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return params_;
}

uint64_t ProcessingThread::params_generation() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return params_generation_;
}

void ProcessingThread::request_engine(const std::string& kind) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    engine_request_ = kind;
  }
  wake_.notify_all();
}

void ProcessingThread::set_paused(bool paused) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    paused_ = paused;
    if (!paused) steps_pending_ = 0;
  }
  wake_.notify_all();
}

void ProcessingThread::step() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++steps_pending_;
  }
  wake_.notify_all();
}

std::optional<ProcessedFrame> ProcessingThread::take_latest() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::optional<ProcessedFrame> frame = std::move(latest_);
  latest_.reset();
  return frame;
}

std::vector<std::string> ProcessingThread::take_messages() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> messages;
  messages.swap(messages_);
  return messages;
}

ProcessingStatus ProcessingThread::status() const {
  std::lock_guard<std::mutex> lock(mutex_);
  ProcessingStatus s;
  s.engine = engine_name_;
  s.processed = processed_;
  s.frames_per_second = rate_.per_second();
  s.paused = paused_;
  s.input_ended = input_ended_;
  s.error = error_;
  return s;
}

void ProcessingThread::collect_notices() {
  std::string text = notices_.str();
  if (text.empty()) return;
  notices_.str("");
  std::lock_guard<std::mutex> lock(mutex_);
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    if (end > begin) messages_.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
}

void ProcessingThread::report_error(const std::string& message) {
  std::lock_guard<std::mutex> lock(mutex_);
  // The same failure on every frame (e.g. a parameter the engine rejects) is said once.
  if (message != error_) messages_.push_back("error: " + message);
  error_ = message;
}

bool ProcessingThread::switch_engine(const std::string& kind) {
  // The frames of the old engine are its own: they are published before it goes.
  while (!in_flight_->empty()) collect_and_publish();
  bool switched = false;
  try {
    std::unique_ptr<StereoEngine> engine = factory_(kind, notices_);
    if (!engine) throw RuntimeError("no engine could be made for \"" + kind + "\"");
    in_flight_.reset();
    engine_ = std::move(engine);
    pair_pool_->use_memory(engine_->host_memory());  // pairs read from now on
    in_flight_.emplace(*engine_);
    std::lock_guard<std::mutex> lock(mutex_);
    engine_name_ = engine_->name();
    messages_.push_back("engine: " + engine_name_);
    switched = true;
  } catch (const std::exception& e) {
    report_error(std::string("engine ") + kind + ": " + e.what() + "; keeping " +
                 engine_->name());
  }
  collect_notices();
  return switched;
}

uint64_t ProcessingThread::submit(const StereoPair& pair) {
  FrameSettings settings;
  ResultParts want;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    settings.params = params_;
    settings.params_generation = params_generation_;
    want = want_;
  }
  settings.engine = engine_->name();
  const uint64_t generation = settings.params_generation;
  const StereoParams params = settings.params;
  try {
    // Each new size, parameter set or engine is checked before its first frame: one that cannot
    // fit is reported like any failed frame, and the thread goes on with the next.
    const std::string slow = budget_.check(*engine_, pair.left.width(), pair.left.height(), params);
    if (!slow.empty()) notices_ << "note: " << slow << "\n";
  } catch (const std::exception&) {
    in_flight_->add_failed(sharing_views(pair), std::move(settings), std::current_exception());
    return generation;
  }
  // The frame shares the kept pair's pooled views: the engine uploads them as they are.
  in_flight_->submit(sharing_views(pair), std::move(settings), params, want);
  collect_notices();
  return generation;
}

void ProcessingThread::collect_and_publish() {
  DisparityResult result;
  auto done = in_flight_->collect(result);
  collect_notices();
  if (done.error) {
    try {
      std::rethrow_exception(done.error);
    } catch (const std::exception& e) {
      report_error("frame " + std::to_string(done.pair.index) + ": " + e.what());
    }
    return;
  }
  ProcessedFrame frame;
  frame.pair = std::move(done.pair);
  frame.result = std::move(result);
  frame.params = std::move(done.extra.params);
  frame.params_generation = done.extra.params_generation;
  frame.engine = std::move(done.extra.engine);
  frame.processing_ms = done.latency_ms;
  frame.host_ms = done.host_ms;
  std::lock_guard<std::mutex> lock(mutex_);
  frame.sequence = ++processed_;
  error_.clear();
  rate_.tick();
  latest_ = std::move(frame);
}

void ProcessingThread::run() {
  std::optional<StereoPair> last_pair;
  uint64_t last_generation = 0;
  bool engine_changed = false;
  while (true) {
    bool take_new_pair = false;
    bool redo = false;
    std::string engine_request;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      if (stop_requested_) break;
      engine_request.swap(engine_request_);
      take_new_pair = !input_ended_ && (!paused_ || steps_pending_ > 0);
      if (!take_new_pair && engine_request.empty() && in_flight_->empty() &&
          !(last_pair && (params_generation_ != last_generation || engine_changed))) {
        wake_.wait_for(lock, kPollInterval);
        continue;
      }
    }
    if (!engine_request.empty() && switch_engine(engine_request)) engine_changed = true;
    engine_request.clear();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      redo = last_pair && (params_generation_ != last_generation || engine_changed);
    }
    std::optional<StereoPair> pair;
    if (take_new_pair) {
      // A pending change is shown at once on the last pair unless a new one is already waiting;
      // with a frame in flight, its result is due unless a next pair is already waiting.
      pair = redo || !in_flight_->empty() ? input_.try_pop() : input_.pop_for(kPollInterval);
      if (!pair && input_.closed() && input_.size() == 0) {
        std::lock_guard<std::mutex> lock(mutex_);
        input_ended_ = true;
      }
    }
    const bool got_pair = pair.has_value();
    if (got_pair) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (steps_pending_ > 0) --steps_pending_;
      last_pair = std::move(pair);
      engine_request.swap(engine_request_);  // asked for while the pair was awaited: applies to it
    }
    if (!engine_request.empty() && switch_engine(engine_request)) engine_changed = true;
    if (got_pair || redo) {
      engine_changed = false;
      last_generation = submit(*last_pair);
    }
    // Two frames in flight, or no next one to submit: the oldest result is due.
    if (in_flight_->full() || (!got_pair && !redo && !in_flight_->empty())) collect_and_publish();
  }
}

}  // namespace sv
