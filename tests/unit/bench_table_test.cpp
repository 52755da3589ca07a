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

}  // namespace
}  // namespace sv
