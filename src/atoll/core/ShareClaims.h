#pragma once
// Shares of a list of items that the workers take from, so that a worker whose share is done
// helps with the others' instead of waiting for them.
//
// parallel_for_shares (JobSystem.h) gives each worker one contiguous share, the same every
// time, so that a share's data stays in one core's cache. Equal shares still finish apart: on
// the 2-thread pyramid the caller's share of the contact setup took 9 % longer than the other
// worker's (the caller comes to it from the serial stages), and the other core waited. With
// claims, a worker takes `per_take` items at a time from the front of its own share and, once
// that is empty, `per_steal` items at a time from the back of the others', the next share
// first: the owner still does most of its share, and the workers finish about one steal apart.
//
// A claim is one cache line, so that a worker taking from its own share does not take the line
// from the others. The items must be independent (any division gives the same bits).

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "atoll/core/JobSystem.h"

namespace atl {

/// What is left of one share: items [front, back), front in the low 32 bits of `range`.
struct alignas(64) ShareClaim {
  std::atomic<uint64_t> range{0};

  static uint64_t pack(uint32_t front, uint32_t back) {
    return uint64_t{front} | (uint64_t{back} << 32);
  }
  static uint32_t front_of(uint64_t r) { return static_cast<uint32_t>(r); }
  static uint32_t back_of(uint64_t r) { return static_cast<uint32_t>(r >> 32); }
  void reset(uint32_t front, uint32_t back) {
    range.store(pack(front, back), std::memory_order_relaxed);
  }
};

/// Takes items [first, first + count) for `participant` from `claims[0, shares)`: up to
/// `per_take` from the front of its own share (when participant < shares), else up to
/// `per_steal` from the back of another share, the next share first. Returns false when every
/// share is empty.
inline bool take_from_shares(ShareClaim* claims, uint32_t shares, uint32_t participant,
                             uint32_t per_take, uint32_t per_steal, uint32_t& first,
                             uint32_t& count) {
  const auto front_of = ShareClaim::front_of;
  const auto back_of = ShareClaim::back_of;
  const auto pack = ShareClaim::pack;
  if (participant < shares) {
    std::atomic<uint64_t>& own = claims[participant].range;
    uint64_t range = own.load(std::memory_order_relaxed);
    while (front_of(range) < back_of(range)) {
      const uint32_t n = std::min(per_take, back_of(range) - front_of(range));
      if (own.compare_exchange_weak(range, pack(front_of(range) + n, back_of(range)),
                                    std::memory_order_relaxed)) {
        first = front_of(range);
        count = n;
        return true;
      }
    }
  }
  for (uint32_t k = 0; k < shares; ++k) {
    const uint32_t share = (participant + 1 + k) % shares;
    if (share == participant) continue;
    std::atomic<uint64_t>& other = claims[share].range;
    uint64_t range = other.load(std::memory_order_relaxed);
    while (front_of(range) < back_of(range)) {
      const uint32_t n = std::min(per_steal, back_of(range) - front_of(range));
      if (other.compare_exchange_weak(range, pack(front_of(range), back_of(range) - n),
                                      std::memory_order_relaxed)) {
        first = back_of(range) - n;
        count = n;
        return true;
      }
    }
  }
  return false;
}

/// The most shares parallel_for_claimed_shares divides into (more workers share them).
inline constexpr uint32_t k_max_claimed_shares = 64;

/// parallel_for_shares whose workers finish together: runs `body(begin, end, worker)` over
/// pieces of the same shares, up to `per_take` items of a worker's own share at a time, and a
/// worker whose share is done takes up to `per_steal` items at a time from the back of the
/// others'. A take costs an atomic operation on a line the other worker may hold: `per_take`
/// items should take a microsecond or more, `per_steal` items a few hundred nanoseconds or more.
template <class Body>
void parallel_for_claimed_shares(JobSystem& jobs, uint32_t count, uint32_t min_share,
                                 uint32_t per_take, uint32_t per_steal, Body&& body) {
  if (count == 0) return;
  const Shares division(std::min(jobs.num_workers(), k_max_claimed_shares), count, min_share);
  if (division.shares <= 1) {
    body(0u, count, 0u);
    return;
  }
  ShareClaim claims[k_max_claimed_shares];
  for (uint32_t share = 0; share < division.shares; ++share)
    claims[share].reset(division.begin(share), division.end(share));
  const uint32_t take = std::max(per_take, 1u);
  const uint32_t steal = std::max(per_steal, 1u);
  parallel_for(jobs, division.shares, 1, [&](uint32_t first, uint32_t last, uint32_t worker) {
    for (uint32_t participant = first; participant < last; ++participant) {
      uint32_t begin = 0;
      uint32_t n = 0;
      while (take_from_shares(claims, division.shares, participant, take, steal, begin, n))
        body(begin, begin + n, worker);
    }
  });
}

}  // namespace atl
