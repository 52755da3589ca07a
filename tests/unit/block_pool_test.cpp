// The pools that let a frame's pixels go from a source to the engine and from the engine to its
// caller without a host copy (issue 18): a block is handed out to one holder at a time, comes back
// only when its last holder lets go, the pool never holds more than its bound, and a loop in its
// steady state allocates nothing. Images over blocks behave as values.
#include "src/core/block_pool.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <set>
#include <thread>
#include <vector>

#include "src/app/synthetic_source.h"
#include "src/core/image.h"
#include "src/core/synthetic_scene.h"
#include "tests/support/counting_host_memory.h"

namespace sv {
namespace {

using test::CountingHostMemory;

TEST(BlockPool, ABlockComesBackOnlyWhenItsLastHolderLetsGo) {
  auto memory = std::make_shared<CountingHostMemory>();
  BlockPool pool(memory, 2);
  std::shared_ptr<PixelBlock> a = pool.acquire(100);
  ASSERT_TRUE(a);
  std::shared_ptr<PixelBlock> engine_hold = a;  // an engine uploading from it
  void* const address = a->data();
  a.reset();
  EXPECT_EQ(pool.blocks_out(), 1) << "the engine still holds it";
  std::shared_ptr<PixelBlock> b = pool.acquire(100);
  ASSERT_TRUE(b);
  EXPECT_NE(b->data(), address) << "a block held by anyone is never handed out again";
  engine_hold.reset();
  EXPECT_EQ(pool.blocks_out(), 1);
  std::shared_ptr<PixelBlock> c = pool.acquire(100);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->data(), address) << "the released block is the one reused";
  EXPECT_EQ(memory->allocations, 2);
}

TEST(BlockPool, NeverMoreBlocksThanItsBoundAndNeverOneTwice) {
  auto memory = std::make_shared<CountingHostMemory>();
  BlockPool pool(memory, 3);
  std::vector<std::shared_ptr<PixelBlock>> out;
  std::set<void*> addresses;
  for (int i = 0; i < 3; ++i) {
    out.push_back(pool.acquire(64));
    ASSERT_TRUE(out.back());
    addresses.insert(out.back()->data());
  }
  EXPECT_EQ(addresses.size(), 3u);
  EXPECT_FALSE(pool.acquire(64)) << "all out: the caller uses memory of its own";
  EXPECT_FALSE(pool.acquire(128));
  EXPECT_EQ(pool.blocks(), 3);
  EXPECT_EQ(memory->allocations, 3);
}

TEST(BlockPool, ASteadyLoopAllocatesNothingAfterItsWarmUp) {
  auto memory = std::make_shared<CountingHostMemory>();
  BlockPool pool(memory, 6);
  // Two frames in flight, each holding a pair of blocks, as a frame loop does.
  std::vector<std::shared_ptr<PixelBlock>> in_flight;
  int after_warm_up = -1;
  for (int frame = 0; frame < 50; ++frame) {
    in_flight.push_back(pool.acquire(4096));
    in_flight.push_back(pool.acquire(4096));
    ASSERT_TRUE(in_flight.back());
    if (in_flight.size() > 4) in_flight.erase(in_flight.begin(), in_flight.begin() + 2);
    if (frame == 3) after_warm_up = memory->allocations;
  }
  EXPECT_EQ(memory->allocations, after_warm_up);
  EXPECT_LE(memory->allocations, 6);
  EXPECT_EQ(memory->frees, 0);
}

TEST(BlockPool, ANewSizeFreesIdleBlocksOfTheOldOneFirst) {
  auto memory = std::make_shared<CountingHostMemory>();
  BlockPool pool(memory, 2);
  pool.acquire(100);
  pool.acquire(100);  // both idle again at once
  EXPECT_EQ(pool.blocks(), 1) << "the first came back before the second was asked for";
  std::shared_ptr<PixelBlock> a = pool.acquire(100), b = pool.acquire(100);
  a.reset();
  b.reset();
  std::shared_ptr<PixelBlock> big = pool.acquire(300);
  ASSERT_TRUE(big);
  EXPECT_EQ(big->bytes(), 300u);
  EXPECT_LE(pool.blocks(), 2);
  EXPECT_GE(memory->frees, 1);
}

TEST(BlockPool, BlocksOutliveTheirPoolAndAreFreedOnceByTheirOwnMemory) {
  auto first = std::make_shared<CountingHostMemory>();
  auto second = std::make_shared<CountingHostMemory>();
  std::shared_ptr<PixelBlock> kept;
  {
    BlockPool pool(first, 4);
    kept = pool.acquire(10);
    pool.acquire(10);         // idle
    pool.use_memory(second);  // an engine switch: idle blocks of the old memory go at once
    EXPECT_EQ(first->frees, 1);
    std::shared_ptr<PixelBlock> fresh = pool.acquire(10);
    ASSERT_TRUE(fresh);
    EXPECT_EQ(&fresh->memory(), second.get());
    EXPECT_EQ(second->allocations, 1);
  }
  EXPECT_EQ(first->frees, 1) << "still held";
  kept.reset();
  EXPECT_EQ(first->frees, 2) << "back to a pool of another memory: freed by its own";
  EXPECT_EQ(second->frees, 1) << "the pool's idle blocks went with it";
}

TEST(BlockPool, HoldersOnOtherThreadsGiveBlocksBack) {
  auto memory = std::make_shared<CountingHostMemory>();
  BlockPool pool(memory, 4);
  for (int round = 0; round < 200; ++round) {
    std::shared_ptr<PixelBlock> block = pool.acquire(256);
    ASSERT_TRUE(block);
    std::thread releaser([held = std::move(block)]() mutable { held.reset(); });
    releaser.join();
  }
  EXPECT_EQ(pool.blocks_out(), 0);
  EXPECT_EQ(memory->allocations, 1);
}

TEST(PooledImage, CopiesOwnTheirPixelsMovesKeepTheBlockSharesReadIt) {
  BlockPool pool(std::make_shared<CountingHostMemory>(), 4);
  ImageU16 image = pooled_image<ImageU16>(&pool, 5, 3);
  ASSERT_TRUE(image.block());
  for (size_t i = 0; i < image.size(); ++i) image.data()[i] = static_cast<uint16_t>(i * 7);

  ImageU16 copy = image;
  EXPECT_FALSE(copy.block()) << "a copy is its own";
  EXPECT_EQ(copy, image);
  copy.at(0, 0) = 999;
  EXPECT_NE(copy, image);

  const ImageU16 shared = image.shared();
  EXPECT_EQ(shared.block(), image.block());
  EXPECT_EQ(shared.data(), image.data());

  const void* const pixels = image.data();
  ImageU16 moved = std::move(image);
  EXPECT_EQ(moved.data(), pixels);
  EXPECT_TRUE(image.empty());
  EXPECT_EQ(pool.blocks_out(), 1);
  moved = ImageU16(2, 2);
  EXPECT_EQ(pool.blocks_out(), 1) << "the shared image still holds it";
  EXPECT_EQ(std::vector<uint16_t>(shared.pixels()).size(), 15u);
}

TEST(PooledImage, AnImageLargerThanItsBlockIsRefused) {
  BlockPool pool(std::make_shared<CountingHostMemory>(), 1);
  EXPECT_THROW(ImageF32::over(4, 4, pool.acquire(4 * 4 * 4 - 1)), std::invalid_argument);
  EXPECT_THROW(ImageF32::over(4, 4, nullptr), std::invalid_argument);
}

// A pool whose blocks hold garbage, as blocks coming back from earlier frames do.
std::shared_ptr<BlockPool> dirty_pool(size_t bytes, int blocks) {
  auto pool = std::make_shared<BlockPool>(std::make_shared<CountingHostMemory>(), blocks);
  std::vector<std::shared_ptr<PixelBlock>> all;
  for (int i = 0; i < blocks; ++i) {
    all.push_back(pool->acquire(bytes));
    std::memset(all.back()->data(), 0xA5 + i, bytes);
  }
  return pool;
}

TEST(PooledSources, TheSyntheticSourceDrawsTheSamePairsIntoGivenBlocks) {
  SyntheticSceneConfig config;
  config.width = 96;
  config.height = 64;
  SyntheticSource own(config), pooled(config);
  const auto pool = dirty_pool(96 * 64 * sizeof(Rgb8), 4);
  pooled.use_pair_memory(pool);
  for (int n = 0; n < 5; ++n) {
    const std::optional<StereoPair> expected = own.next();
    const std::optional<StereoPair> got = pooled.next();
    ASSERT_TRUE(expected && got);
    EXPECT_FALSE(expected->left.block());
    ASSERT_TRUE(got->left.block()) << "frame " << n;
    ASSERT_TRUE(got->right.block()) << "frame " << n;
    EXPECT_EQ(got->left, expected->left) << "frame " << n;
    EXPECT_EQ(got->right, expected->right) << "frame " << n;
  }
  EXPECT_EQ(pool->blocks(), 4) << "the pairs let go of their blocks: no new ones";
}

TEST(PooledSources, TheScenesReferenceRendererDrawsTheSameViewsIntoGivenBlocks) {
  SyntheticSceneConfig config;
  config.width = 40;
  config.height = 30;
  const SyntheticScene scene(config);
  const auto pool = dirty_pool(40 * 30 * sizeof(Rgb8), 2);
  const SyntheticFrame own = scene.render(3);
  const SyntheticFrame pooled = scene.render(3, pool.get());
  ASSERT_TRUE(pooled.left.block() && pooled.right.block());
  EXPECT_EQ(pooled.left, own.left);
  EXPECT_EQ(pooled.right, own.right);
  EXPECT_EQ(pooled.ground_truth, own.ground_truth);
}

}  // namespace
}  // namespace sv
