#pragma once
// The non-penetration of a stack of face contacts — a chain in which each moving body is shared
// by the contact below it and the one above, as a tower of boxes — solved as one system.
//
// Why: Gauss-Seidel over the contacts of a stack hands the load to the next contact one body
// per iteration and splits a push between two bodies by their masses, so it needs on the order
// of height² or mass-ratio iterations (tests/laws/StackingStressLawsTest.cpp). The face blocks
// (FaceContactPart: push and two tilts) of neighbouring contacts couple only through the body
// they share, so J M⁻¹ Jᵀ over the whole stack is block tridiagonal with 3×3 blocks: it is
// factorised once per step (block Thomas algorithm, in double) and solved in linear time.
//
// The part computes generalised impulses only; the caller checks with each
// FaceContactPart::push_only_lambdas that every point still pushes and applies them with
// FaceContactPart::apply_lambdas.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "atoll/constraint/parts/FaceContactPart.h"

namespace atl {

class FaceStackPart {
 public:
  /// Starts an empty stack.
  void clear();
  /// Appends the next face block of the chain (active, unscaled masses). `previous_via_body2`:
  /// the body it shares with the block before is its body 2 (else body 1; ignored for the
  /// first block). The block must stay where it is until clear(). Returns false (and empties
  /// the stack) when the system so far is singular.
  bool push_back(const FaceContactPart& face, bool previous_via_body2, bool next_via_body2);
  /// Number of blocks.
  uint32_t size() const { return static_cast<uint32_t>(links_.size()); }

  /// The generalised impulses (one per block, as in FaceContactPart) that bring every block's
  /// velocity error (FaceContactPart::velocity_error) to zero at once.
  void solve(std::span<const std::array<float, 3>> errors,
             std::span<std::array<float, 3>> impulses);

 private:
  struct Link {
    double inv_d[3][3] = {};  // inverse of the Schur complement D_k
    double up[3][3] = {};     // coupling C(k, k+1), filled when block k+1 arrives
    double down[3][3] = {};   // C(k, k−1) · D(k−1)⁻¹
    bool next_via_body2 = false;
  };
  std::vector<Link> links_;
  std::vector<std::array<double, 3>> solution_;
  const FaceContactPart* last_ = nullptr;
};

}  // namespace atl
