#pragma once
// Linear shape casts: sweep a convex shape (or a compound of convex shapes, possibly
// decorated) along a displacement, without rotating it, against any shape, and find the first
// time of impact. CCD (LinearCast motion quality) is built on this.

#include "atoll/core/Result.h"
#include "atoll/shape/ActiveEdges.h"
#include "atoll/shape/Shape.h"

namespace atl {

struct ShapeCastSettings {
  /// The cast stops when the shapes are within this distance (m); > 0. Default 1e-4.
  float collision_tolerance = 1.0e-4f;
  /// EPA accuracy (m) for shapes that overlap at the start; > 0. Default 1e-4.
  float penetration_tolerance = 1.0e-4f;
  /// When the shapes already touch at the start: true reports the penetration there (deepest
  /// points, penetration axis, depth), false only the first touching points. Default true.
  bool return_deepest_point = true;
  /// Cone (cosine) around a mesh triangle's face normal inside which a hit normal is trusted;
  /// outside it, a hit on an inactive edge or vertex takes the face normal. In [-1, 1];
  /// default cos(5°).
  float active_edge_cos = k_default_active_edge_cos_threshold;

  /// Ok, or an Error naming the first offending field ("ShapeCastSettings.FIELD: …").
  Status validate() const;
};

/// The first hit of a shape cast. Reused across casts against several targets, it keeps the
/// earliest hit.
struct ShapeCastResult {
  /// In: hits after this fraction of the displacement are ignored (default 1: the whole
  /// displacement, a hit at exactly 1 included). Out: fraction of the first hit, in [0, 1].
  float fraction = 1.0f;
  /// True once a hit was found.
  bool has_hit = false;
  /// Unit contact normal (world) from the cast shape towards the target.
  Vec3 normal;
  /// Contact point on the cast shape (world), with the shape moved to the hit fraction.
  Vec3 point_on_shape;
  /// Contact point on the target (world).
  Vec3 point_on_target;
  /// Penetration (m) along the normal when the shapes already overlap at fraction 0; 0 for a
  /// hit at a later fraction.
  float penetration_depth = 0.0f;
  /// Leaf of the cast shape that hits.
  SubShapeID sub_shape_id1;
  /// Leaf of the target that is hit.
  SubShapeID sub_shape_id2;
};

/// Receives every hit of a shape cast: the earliest hit of each pair of leaves (a mesh reports
/// one per triangle it reaches), so that a caller can filter hits by their normal before
/// choosing one. Leaves are not searched beyond early_out_fraction().
class ShapeCastCollector {
 public:
  virtual ~ShapeCastCollector() = default;
  /// Called for each hit at a fraction ≤ early_out_fraction(). `hit.has_hit` is true.
  virtual void add_hit(const ShapeCastResult& hit) = 0;
  /// Hits after this fraction of the displacement are not looked for (default 1: the whole
  /// displacement, a hit at exactly 1 included).
  float early_out_fraction() const { return early_out_fraction_; }

 protected:
  /// Lowers the early-out fraction (never raises it).
  void update_early_out_fraction(float fraction) {
    if (fraction < early_out_fraction_) early_out_fraction_ = fraction;
  }
  /// Sets the early-out fraction (≥ 0), e.g. to a caller's own bound.
  void reset_early_out_fraction(float fraction) { early_out_fraction_ = fraction; }

 private:
  float early_out_fraction_ = 1.0f;
};

/// Like the cast_shape below, but hands every hit to `collector` instead of keeping the
/// earliest one.
Status cast_shape(const Shape& shape, const Mat44& start, const Vec3& displacement,
                  const Shape& target, const Mat44& target_transform,
                  const ShapeCastSettings& settings, ShapeCastCollector& collector);

/// Sweeps `shape` from the rigid transform `start` along `displacement` (world, m) against
/// `target` at rest at `target_transform`. Updates `io_result` and returns true when a hit
/// earlier than io_result.fraction is found (or the first one at exactly that fraction; among
/// hits at fraction 0 the deeper one). A mesh or height field cannot be cast (they are static):
/// no hit. Triangles are hit only from their front side. Fails on invalid settings, a
/// non-finite displacement or a transform that is not finite or not rigid.
Result<bool> cast_shape(const Shape& shape, const Mat44& start, const Vec3& displacement,
                        const Shape& target, const Mat44& target_transform,
                        const ShapeCastSettings& settings, ShapeCastResult& io_result);

}  // namespace atl
