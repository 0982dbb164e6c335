#include "atoll/constraint/PathConstraintPath.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace atl {

float PathConstraintPath::wrap_fraction(float fraction) const {
  const float max = max_fraction();
  if (!is_looping()) return std::clamp(fraction, 0.0f, max);
  float f = std::fmod(fraction, max);
  if (f < 0.0f) f += max;
  return f >= max ? 0.0f : f;
}

float PathConstraintPath::fraction_delta(float from, float to) const {
  float d = to - from;
  if (is_looping()) {
    const float max = max_fraction();
    d = std::fmod(d, max);
    if (d > 0.5f * max) d -= max;
    if (d < -0.5f * max) d += max;
  }
  return d;
}

Status PathConstraintPathHermite::validate(std::string_view path) const {
  const auto field = [&](size_t i, const char* name) {
    return std::string(path) + ".points[" + std::to_string(i) + "]." + name;
  };
  if (points_.size() < 2)
    return Error(std::string(path) + ".points: needs at least 2 points, got " +
                 std::to_string(points_.size()));
  for (size_t i = 0; i < points_.size(); ++i) {
    const Point& p = points_[i];
    if (!p.position.is_finite()) return Error(field(i, "position") + ": must be finite");
    if (!p.tangent.is_finite() || p.tangent.length_sq() < 1.0e-12f)
      return Error(field(i, "tangent") + ": must be finite and non-zero");
    if (!p.normal.is_finite() || p.normal.length_sq() < 1.0e-12f)
      return Error(field(i, "normal") + ": must be finite and non-zero");
    // sin of the angle between normal and tangent below 1e-3: (almost) parallel.
    if (p.normal.normalized().cross(p.tangent.normalized()).length() < 1.0e-3f)
      return Error(field(i, "normal") + ": must not be parallel to the tangent");
  }
  return Ok{};
}

int PathConstraintPathHermite::num_segments() const {
  const int n = static_cast<int>(points_.size());
  return looping_ ? n : n - 1;
}

float PathConstraintPathHermite::max_fraction() const { return static_cast<float>(num_segments()); }

void PathConstraintPathHermite::evaluate(int segment, float t, Vec3& p, Vec3& d1, Vec3& d2) const {
  const Point& a = points_[static_cast<size_t>(segment)];
  const Point& b = points_[static_cast<size_t>((segment + 1) % static_cast<int>(points_.size()))];
  const float t2 = t * t, t3 = t2 * t;
  // The four cubic Hermite basis functions and their first and second derivatives.
  const float h00 = 2.0f * t3 - 3.0f * t2 + 1.0f, h10 = t3 - 2.0f * t2 + t;
  const float h01 = -2.0f * t3 + 3.0f * t2, h11 = t3 - t2;
  const float g00 = 6.0f * t2 - 6.0f * t, g10 = 3.0f * t2 - 4.0f * t + 1.0f;
  const float g01 = -6.0f * t2 + 6.0f * t, g11 = 3.0f * t2 - 2.0f * t;
  const float k00 = 12.0f * t - 6.0f, k10 = 6.0f * t - 4.0f;
  const float k01 = -12.0f * t + 6.0f, k11 = 6.0f * t - 2.0f;
  p = a.position * h00 + a.tangent * h10 + b.position * h01 + b.tangent * h11;
  d1 = a.position * g00 + a.tangent * g10 + b.position * g01 + b.tangent * g11;
  d2 = a.position * k00 + a.tangent * k10 + b.position * k01 + b.tangent * k11;
}

float PathConstraintPathHermite::closest_fraction(const Vec3& position,
                                                  float fraction_estimate) const {
  const int segments = num_segments();
  const float estimate = std::isfinite(fraction_estimate) ? wrap_fraction(fraction_estimate) : 0.0f;
  const int centre = std::min(static_cast<int>(estimate), segments - 1);
  float best_fraction = estimate;
  float best_distance_sq = k_float_max;
  for (int offset = -1; offset <= 1; ++offset) {
    int segment = centre + offset;
    if (looping_) {
      segment = (segment + segments) % segments;
    } else if (segment < 0 || segment >= segments) {
      continue;
    }
    // Best of the samples, then Newton steps on g(t) = (p − x)·p' = 0 within [0, 1].
    constexpr int k_samples = 8;
    float t = 0.0f, distance_sq = k_float_max;
    Vec3 p, d1, d2;
    for (int i = 0; i <= k_samples; ++i) {
      const float ti = static_cast<float>(i) / k_samples;
      evaluate(segment, ti, p, d1, d2);
      const float dsq = (p - position).length_sq();
      if (dsq < distance_sq) {
        distance_sq = dsq;
        t = ti;
      }
    }
    for (int iteration = 0; iteration < 10; ++iteration) {
      evaluate(segment, t, p, d1, d2);
      const Vec3 e = p - position;
      const float g = e.dot(d1);
      const float h = d1.dot(d1) + e.dot(d2);
      if (!(h > 0.0f)) break;
      const float next = std::clamp(t - g / h, 0.0f, 1.0f);
      const bool converged = std::fabs(next - t) < 1.0e-7f;
      t = next;
      if (converged) break;
    }
    evaluate(segment, t, p, d1, d2);
    const float dsq = (p - position).length_sq();
    if (dsq < best_distance_sq) {
      best_distance_sq = dsq;
      best_fraction = static_cast<float>(segment) + t;
    }
  }
  return wrap_fraction(best_fraction);
}

PathConstraintPath::Frame PathConstraintPathHermite::frame(float fraction) const {
  const int segments = num_segments();
  const float f = wrap_fraction(fraction);
  const int segment = std::min(static_cast<int>(f), segments - 1);
  const float t = f - static_cast<float>(segment);
  Vec3 p, d1, d2;
  evaluate(segment, t, p, d1, d2);
  const Point& a = points_[static_cast<size_t>(segment)];
  const Point& b = points_[static_cast<size_t>((segment + 1) % static_cast<int>(points_.size()))];
  Frame out;
  out.position = p;
  out.speed = d1.length();
  // A cusp (p' = 0) has no direction of its own: the points' tangents, blended, stand in.
  out.tangent = out.speed > 1.0e-6f ? d1 / out.speed
                                    : Vec3::lerp(a.tangent.normalized(), b.tangent.normalized(), t)
                                          .normalized_or(a.tangent.normalized());
  out.speed = std::max(out.speed, 1.0e-6f);
  const Vec3 normal = Vec3::lerp(a.normal.normalized(), b.normal.normalized(), t);
  out.binormal = out.tangent.cross(normal).normalized_or(out.tangent.normalized_perpendicular());
  out.normal = out.binormal.cross(out.tangent);
  return out;
}

}  // namespace atl
