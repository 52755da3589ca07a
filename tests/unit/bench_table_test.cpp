// bench's text table: a value wider than its column once ran into the next one
// ("...2366.078]0.4": a CPU frame's total with its spread is wider than the column).
#include <gtest/gtest.h>

#include "src/app/bench_command.h"

namespace sv {
namespace {

TEST(BenchTable, NarrowValuesLineUpInTheirColumns) {
  const std::string header = bench_table_line({"algorithm", "size", "D", "total ms", "fps", "GDE/s", "stages"});
  const std::string row = bench_table_line({"bm-sad", "640x480", "64", "1.000 [0.9-1.1]", "1000.0", "19.66",
                                            "census 0.1"});
  EXPECT_EQ(header.find("size"), row.find("640x480"));
  EXPECT_EQ(header.find("fps"), row.find("1000.0"));
  EXPECT_EQ(header.find("stages"), row.find("census"));
  EXPECT_EQ(row.back(), '\n');
}

TEST(BenchTable, AValueWiderThanItsColumnStillEndsInASpace) {
  const std::string total = "12366.078 [12300.123-12400.456]";  // wider than its column
  const std::string row = bench_table_line({"census-sgm", "8192x8192", "256", total, "0.1", "0.01", "sgm 1"});
  const size_t after_total = row.find(total) + total.size();
  EXPECT_EQ(row.substr(after_total, 4), " 0.1") << row;
  EXPECT_NE(bench_table_line({"a-very-long-algorithm", "1x1", "1", "1", "1", "1", "-"}).find("algorithm 1x1"),
            std::string::npos);
}

// bench --host-to-host's lines under a row (issue 18): a frame's time split into stages and the
// time between them beside the device call's, the transfers, and the lone frame's parts.
HostStreamTimes stream_times(bool with_device) {
  HostStreamTimes t;
  t.frames_per_second = 400.0;  // 2.5 ms a frame
  t.stream_stages_ms = {2.25, 2.5, 2.0};  // a mean of 2.25
  t.latency_ms = {3.0};
  t.device_ms = {2.0};
  t.host_ms = {0.4};
  t.submit_ms = {0.03};
  t.after_wait_ms = {0.02};
  if (with_device) {
    t.stream_upload_ms = {0.25};
    t.stream_download_ms = {0.125};
    t.upload_ms = {0.25};
    t.results_ms = {0.05};
    t.download_ms = {0.125};
    t.span_gaps_ms = {0.1};
  }
  return t;
}

TEST(HostStreamBreakdown, ADeviceEnginesFrameBesideItsDeviceCall) {
  DeviceCallTimes call;
  call.call_ms = {2.0, 1.75, 2.0};
  call.stages_ms = {1.875, 1.5, 1.875};  // 0.125, 0.25, 0.125 between them
  EXPECT_EQ(host_stream_breakdown(stream_times(true), call),
            "  streamed (means): 2.500 ms a frame = stages 2.250 + between them 0.250; device call "
            "(medians) 2.000 = stages 1.875 + between them 0.125; stream over call +25.0 %; upload 0.250, download "
            "0.125\n"
            "  alone: latency 3.000 ms = device span (upload 0.250, stages 2.000, results 0.050, "
            "download 0.125, gaps 0.100) + host 0.400; host: submit 0.030, collect after its wait "
            "0.020; latency over call +1.000 ms\n");
  EXPECT_NE(host_stream_breakdown(stream_times(true), {}).find(
                "; no device call (--engine cuda times it); upload 0.250"),
            std::string::npos);
}

TEST(HostStreamBreakdown, AHostEngineHasNoTransfersOrSpan) {
  EXPECT_EQ(host_stream_breakdown(stream_times(false), {}),
            "  streamed (means): 2.500 ms a frame = stages 2.250 + between them 0.250\n"
            "  alone: latency 3.000 ms; host: submit 0.030, collect after its wait 0.020\n");
}

}  // namespace
}  // namespace sv
