#pragma once
// The path of a path constraint (seed 003): a curve parametrized by a fraction, given in the
// path's own space (PathConstraintSettings places it in body 1). A path answers where it is at a
// fraction (position, unit tangent, normal, binormal) and which fraction is closest to a
// position. Fractions run over [0, max_fraction()]; on a looping path max_fraction() is the
// same point as 0 and fractions wrap around.
//
// PathConstraintPathHermite: a cubic Hermite spline through points that each give a position,
// a tangent (the derivative dp/df, m per unit fraction) and a normal. Point i is at fraction i;
// an open path of n points runs over [0, n − 1], a looping one over [0, n) (the last segment
// joins point n − 1 to point 0).
//
// A path is read by the solver every step and is shared through Ref: it cannot change after it
// is made (the Hermite path takes its points at construction).

#include <string_view>
#include <vector>

#include "atoll/core/Ref.h"
#include "atoll/core/Result.h"
#include "atoll/math/Quat.h"

namespace atl {

class PathConstraintPath : public RefTarget<PathConstraintPath> {
 public:
  /// Where the path is at a fraction, in path space.
  struct Frame {
    /// Point on the path (m).
    Vec3 position;
    /// Unit tangent, the direction of increasing fraction.
    Vec3 tangent = Vec3::axis_x();
    /// Unit normal, ⟂ tangent.
    Vec3 normal = Vec3::axis_y();
    /// Unit binormal, tangent × normal.
    Vec3 binormal = Vec3::axis_z();
    /// |dp/df|: path length per unit fraction at this point (m); > 0.
    float speed = 1.0f;
  };

  virtual ~PathConstraintPath() = default;

  /// Checks the path's data; the error names `path`.field. A path that fails cannot be used.
  virtual Status validate(std::string_view path) const = 0;
  /// Largest fraction (the smallest is 0).
  virtual float max_fraction() const = 0;
  /// True when the end joins the start (fractions wrap around).
  virtual bool is_looping() const = 0;
  /// The fraction whose point is closest to `position` (path space, m), searched near
  /// `fraction_estimate` (a path may pass one place twice; the estimate picks the branch).
  virtual float closest_fraction(const Vec3& position, float fraction_estimate) const = 0;
  /// Position, tangent, normal and binormal at `fraction` (wrapped or clamped into range).
  virtual Frame frame(float fraction) const = 0;

  /// `fraction` in range: wrapped into [0, max_fraction()) when looping, else clamped.
  float wrap_fraction(float fraction) const;
  /// Signed fraction from `from` to `to`; on a looping path the shorter way round.
  float fraction_delta(float from, float to) const;

 protected:
  PathConstraintPath() = default;
};

class PathConstraintPathHermite final : public PathConstraintPath {
 public:
  /// One point of the spline.
  struct Point {
    /// Position (m, path space).
    Vec3 position;
    /// Tangent: the derivative dp/df at the point (m per unit fraction); non-zero. Its length
    /// sets how far the curve keeps this direction (≈ the distance to the neighbours).
    Vec3 tangent = Vec3::axis_x();
    /// Normal: non-zero, not parallel to the tangent; its part ⟂ the tangent is used.
    Vec3 normal = Vec3::axis_y();
    bool operator==(const Point&) const = default;
  };

  /// A spline through `points`; `looping` joins the last point to the first. Check it with
  /// validate() (PathConstraintSettings::create does) before using it.
  explicit PathConstraintPathHermite(std::vector<Point> points, bool looping = false)
      : points_(std::move(points)), looping_(looping) {}

  /// At least 2 points; every field finite; tangents non-zero; normals non-zero and not
  /// parallel to their tangent. Errors name `path`.points[i].field.
  Status validate(std::string_view path) const override;
  float max_fraction() const override;
  bool is_looping() const override { return looping_; }
  /// Searches the segment of the estimate and its two neighbours (a body on the path moves
  /// less than a segment per step): the best of 8 samples per segment, refined by Newton steps
  /// on d/df |p(f) − position|² = 0.
  float closest_fraction(const Vec3& position, float fraction_estimate) const override;
  /// Cubic Hermite position and derivative; the normal is interpolated linearly between the
  /// points and made ⟂ the tangent.
  Frame frame(float fraction) const override;

  const std::vector<Point>& points() const { return points_; }

 private:
  int num_segments() const;
  // Position, first and second derivative in segment `segment` at t ∈ [0, 1].
  void evaluate(int segment, float t, Vec3& p, Vec3& d1, Vec3& d2) const;

  std::vector<Point> points_;
  bool looping_ = false;
};

}  // namespace atl
