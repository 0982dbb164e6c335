#pragma once
// The result of a narrow-phase test between two shapes: a contact plane and up to four points.

#include "atoll/core/StaticArray.h"
#include "atoll/math/Vec3.h"
#include "atoll/shape/SubShapeID.h"

namespace atl {

/// Most contact points kept per manifold after reduction.
inline constexpr int k_max_manifold_points = 4;

struct ContactManifold {
  /// Unit normal in world space pointing from shape 1 towards shape 2: moving shape 2 by
  /// normal × penetration_depth separates the shapes.
  Vec3 normal;
  /// Penetration (m) along the normal: > 0 overlapping, < 0 separated (speculative contact).
  float penetration_depth = 0.0f;
  /// Leaf of shape 1 / shape 2 that touches.
  SubShapeID sub_shape_id1;
  SubShapeID sub_shape_id2;
  /// Contact points on the surface of shape 1 and shape 2 (world space), pairwise.
  StaticArray<Vec3, k_max_manifold_points> points_on_1;
  StaticArray<Vec3, k_max_manifold_points> points_on_2;
};

}  // namespace atl
