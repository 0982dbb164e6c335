// Claimed shares (core/ShareClaims.h): a worker takes its own share from the front a few items
// at a time, then the others' from the back one at a time; every item runs once, on any job
// system.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "BackwardsJobSystem.h"
#include "atoll/core/ShareClaims.h"
#include "atoll/core/ThreadPool.h"

namespace atl {
namespace share_claims_thread_test {
namespace {

using Range = std::pair<uint32_t, uint32_t>;

std::vector<Range> take_all(ShareClaim* claims, uint32_t shares, uint32_t participant,
                            uint32_t per_take, uint32_t per_steal) {
  std::vector<Range> taken;
  uint32_t first = 0;
  uint32_t count = 0;
  while (take_from_shares(claims, shares, participant, per_take, per_steal, first, count))
    taken.emplace_back(first, first + count);
  return taken;
}

// What one participant takes, alone, from shares laid out as `shares` (their ranges).
struct TakeCase {
  const char* what;
  std::vector<Range> shares;
  uint32_t participant, per_take, per_steal;
  std::vector<Range> expected;
};

TEST(ShareClaims, OwnShareFromTheFrontThenTheOthersFromTheBack) {
  const TakeCase cases[] = {
      {"own share by fours, then the next shares one at a time",
       {{0, 10}, {10, 13}, {13, 15}},
       0,
       4,
       1,
       {{0, 4}, {4, 8}, {8, 10}, {12, 13}, {11, 12}, {10, 11}, {14, 15}, {13, 14}}},
      // Participant 2 has no share of its own: it starts at share (2 + 1) % 2 = 1.
      {"no share of its own", {{0, 2}, {2, 4}}, 2, 8, 1, {{3, 4}, {2, 3}, {1, 2}, {0, 1}}},
      {"steals up to per_steal", {{0, 3}, {3, 10}}, 0, 4, 3, {{0, 3}, {7, 10}, {4, 7}, {3, 4}}},
  };
  for (const TakeCase& c : cases) {
    std::vector<ShareClaim> claims(c.shares.size());
    for (size_t k = 0; k < c.shares.size(); ++k)
      claims[k].reset(c.shares[k].first, c.shares[k].second);
    const uint32_t shares = static_cast<uint32_t>(claims.size());
    EXPECT_EQ(take_all(claims.data(), shares, c.participant, c.per_take, c.per_steal), c.expected)
        << c.what;
    // Nothing is left for anyone.
    EXPECT_TRUE(take_all(claims.data(), shares, 0, c.per_take, c.per_steal).empty()) << c.what;
  }
}

// Every item exactly once, whatever the pool, the number of items and the take size.
TEST(ShareClaims, ClaimedSharesCoverEveryItemOnce) {
  for (const uint32_t workers : {1u, 2u, 3u, 8u}) {
    auto pool = ThreadPool::create(workers);
    ASSERT_TRUE(pool.ok());
    for (const uint32_t count : {0u, 1u, 5u, 100u, 10007u}) {
      for (const uint32_t min_share : {1u, 7u, 400u}) {
        for (const Range& takes : {Range{0, 0}, Range{1, 1}, Range{4, 1}, Range{64, 16}}) {
          const uint32_t per_take = takes.first;
          const uint32_t per_steal = takes.second;
          // One share: the caller runs every item in one piece.
          const bool one_share = Shares(workers, count, min_share).shares <= 1;
          std::vector<std::atomic<uint32_t>> hits(count);
          parallel_for_claimed_shares(*pool.value(), count, min_share, per_take, per_steal,
                                      [&](uint32_t begin, uint32_t end, uint32_t worker) {
                                        EXPECT_LT(worker, workers);
                                        if (!one_share) {
                                          EXPECT_LE(end - begin, std::max(per_take, 1u));
                                        }
                                        for (uint32_t i = begin; i < end; ++i) ++hits[i];
                                      });
          for (uint32_t i = 0; i < count; ++i)
            ASSERT_EQ(hits[i].load(), 1u) << workers << " workers, " << count << " items, "
                                          << min_share << " min, " << per_take << " per take";
        }
      }
    }
  }
}

// A job system that runs the ranges one after the other: the first participant to run does
// its own share, then every other share from the back, and the rest find nothing left.
TEST(ShareClaims, ARangeRunAloneTakesWhatTheOthersLeft) {
  BackwardsJobSystem jobs(2);
  std::vector<Range> calls;
  parallel_for_claimed_shares(jobs, 20, 1, 4, 1, [&](uint32_t begin, uint32_t end, uint32_t) {
    calls.emplace_back(begin, end);
  });
  // Shares [0, 10) and [10, 20); the backwards system runs participant 1 first.
  std::vector<Range> expected = {{10, 14}, {14, 18}, {18, 20}};
  for (uint32_t i = 10; i-- > 0;) expected.emplace_back(i, i + 1);
  EXPECT_EQ(calls, expected);
}

}  // namespace
}  // namespace share_claims_thread_test
}  // namespace atl
