#pragma once
// Settings of a narrow-phase collision test between two shapes (collide_shapes).

#include "atoll/core/Result.h"
#include "atoll/shape/ActiveEdges.h"

namespace atl {

struct CollideShapeSettings {
  /// Pairs closer than this (m) report a speculative contact with negative penetration; ≥ 0.
  /// Default 0: only touching or overlapping pairs.
  float max_separation_distance = 0.0f;
  /// GJK stops when its distance estimate is known to within this (m); > 0. Default 1e-4.
  float collision_tolerance = 1.0e-4f;
  /// EPA stops when its depth estimate is known to within this (m); > 0. Default 1e-4.
  float penetration_tolerance = 1.0e-4f;
  /// Face-clipped points up to this (m) beyond max_separation_distance in front of shape 1's
  /// face are kept in the manifold; ≥ 0. Default 1e-3.
  float manifold_tolerance = 1.0e-3f;
  /// True: a manifold of up to 4 points from the supporting faces of both shapes. False: the
  /// single deepest point pair.
  bool collect_faces = true;
  /// Cosine of the cone around a mesh triangle's face normal inside which a contact normal is
  /// trusted as it is; outside it, a contact on an inactive edge or vertex takes the face normal
  /// (see ActiveEdges.h). In [-1, 1]; default cos(5°).
  float active_edge_cos = k_default_active_edge_cos_threshold;

  /// Ok, or an Error naming the first offending field ("CollideShapeSettings.FIELD: …").
  Status validate() const;
};

}  // namespace atl
