#include "atoll/constraint/parts/SwingTwistConstraintPart.h"

#include <algorithm>
#include <cmath>

namespace atl {

void SwingTwistConstraintPart::set_limits(float twist_min, float twist_max,
                                          float swing_y_half_angle, float swing_z_half_angle) {
  twist_min_ = std::clamp(twist_min, -k_pi, k_pi);
  twist_max_ = std::clamp(std::max(twist_max, twist_min), -k_pi, k_pi);
  twist_free_ = twist_min_ <= -k_pi && twist_max_ >= k_pi;
  const float y = std::clamp(swing_y_half_angle, 0.0f, k_pi);
  const float z = std::clamp(swing_z_half_angle, 0.0f, k_pi);
  swing_free_ = y >= k_pi && z >= k_pi;
  swing_y_ = std::sin(0.5f * y);
  swing_z_ = std::sin(0.5f * z);
}

std::array<float, 2> SwingTwistConstraintPart::closest_point_on_ellipse(float a, float b, float x,
                                                                        float y) {
  if (a <= 0.0f && b <= 0.0f) return {0.0f, 0.0f};
  if (a <= 0.0f) return {0.0f, std::clamp(y, -b, b)};
  if (b <= 0.0f) return {std::clamp(x, -a, a), 0.0f};
  if (square(x / a) + square(y / b) <= 1.0f) return {x, y};
  // The closest point is (a²x/(t + a²), b²y/(t + b²)) for the root t > 0 of
  // f(t) = (a·x/(t + a²))² + (b·y/(t + b²))² − 1. f is convex and decreasing with f(0) > 0, so
  // Newton's method from t = 0 rises monotonically to the root.
  const double aa = double(a) * a;
  const double bb = double(b) * b;
  const double ax = double(a) * std::fabs(x);
  const double by = double(b) * std::fabs(y);
  double t = 0.0;
  for (int i = 0; i < 64; ++i) {
    const double u = ax / (t + aa);
    const double v = by / (t + bb);
    const double f = u * u + v * v - 1.0;
    if (f <= 1.0e-12) break;
    const double df = -2.0 * (u * u / (t + aa) + v * v / (t + bb));
    t -= f / df;
  }
  const float px = static_cast<float>(aa * std::fabs(x) / (t + aa));
  const float py = static_cast<float>(bb * std::fabs(y) / (t + bb));
  return {std::copysign(px, x), std::copysign(py, y)};
}

Quat SwingTwistConstraintPart::relative_rotation(const SolverBody& body1, const SolverBody& body2,
                                                 const Quat& constraint_to_body1,
                                                 const Quat& constraint_to_body2) {
  const Quat frame1 = body1.rotation * constraint_to_body1;
  const Quat frame2 = body2.rotation * constraint_to_body2;
  return (frame1.conjugated() * frame2).normalized().ensure_w_positive();
}

bool SwingTwistConstraintPart::swing_violation(const Quat& q, const Quat& frame1,
                                               Violation& out) const {
  if (swing_free_) return false;
  Quat swing;
  Quat twist;
  q.swing_twist(swing, twist);
  const float sy = swing.y();
  const float sz = swing.z();
  const std::array<float, 2> p = closest_point_on_ellipse(swing_y_, swing_z_, sy, sz);
  const float dy = sy - p[0];
  const float dz = sz - p[1];
  const float d = std::sqrt(dy * dy + dz * dz);
  if (!(d > 1.0e-7f)) return false;
  out.axis = frame1 * Vec3(0.0f, dy / d, dz / d);
  // |swing.yz| grows at swing.w / 2 per radian about the axis.
  out.error = 2.0f * d / std::max(swing.w(), 1.0e-3f);
  out.min_lambda = -k_float_max;
  out.max_lambda = 0.0f;
  return true;
}

bool SwingTwistConstraintPart::twist_violation(const Quat& q, const Quat& frame2,
                                               Violation& out) const {
  if (twist_free_) return false;
  Quat swing;
  Quat twist;
  q.swing_twist(swing, twist);
  const float angle = 2.0f * std::atan2(twist.x(), twist.w());
  out.axis = frame2 * Vec3::axis_x();
  if (twist_max_ - twist_min_ < 1.0e-6f) {
    out.error = angle - 0.5f * (twist_min_ + twist_max_);
    out.min_lambda = -k_float_max;
    out.max_lambda = k_float_max;
    return true;
  }
  if (angle <= twist_min_) {
    out.error = angle - twist_min_;
    out.min_lambda = 0.0f;
    out.max_lambda = k_float_max;
    return true;
  }
  if (angle >= twist_max_) {
    out.error = angle - twist_max_;
    out.min_lambda = -k_float_max;
    out.max_lambda = 0.0f;
    return true;
  }
  return false;
}

bool SwingTwistConstraintPart::is_within_limits(const Quat& q, float tolerance) const {
  Violation v;
  if (swing_violation(q, Quat::identity(), v) && v.error > tolerance) return false;
  if (twist_violation(q, Quat::identity(), v) && std::fabs(v.error) > tolerance) return false;
  return true;
}

void SwingTwistConstraintPart::calculate_constraint_properties(const SolverBody& body1,
                                                               const SolverBody& body2,
                                                               const Quat& constraint_to_body1,
                                                               const Quat& constraint_to_body2) {
  const Quat frame1 = body1.rotation * constraint_to_body1;
  const Quat frame2 = body2.rotation * constraint_to_body2;
  const Quat q = (frame1.conjugated() * frame2).normalized().ensure_w_positive();
  Violation v;
  if (swing_violation(q, frame1, v))
    swing_.calculate_constraint_properties(body1, body2, v.axis);
  else
    swing_.deactivate();
  if (twist_violation(q, frame2, v)) {
    twist_.calculate_constraint_properties(body1, body2, v.axis);
    twist_min_lambda_ = v.min_lambda;
    twist_max_lambda_ = v.max_lambda;
  } else {
    twist_.deactivate();
  }
}

bool SwingTwistConstraintPart::solve_position_constraint(SolverBody& body1, SolverBody& body2,
                                                         const Quat& constraint_to_body1,
                                                         const Quat& constraint_to_body2,
                                                         float baumgarte) const {
  bool moved = false;
  for (int row = 0; row < 2; ++row) {
    const Quat frame1 = body1.rotation * constraint_to_body1;
    const Quat frame2 = body2.rotation * constraint_to_body2;
    const Quat q = (frame1.conjugated() * frame2).normalized().ensure_w_positive();
    Violation v;
    const bool violated = row == 0 ? swing_violation(q, frame1, v) : twist_violation(q, frame2, v);
    if (!violated || v.error == 0.0f) continue;
    AngleConstraintPart part;
    part.calculate_constraint_properties(body1, body2, v.axis);
    moved |= part.solve_position_constraint(body1, body2, v.error, baumgarte);
  }
  return moved;
}

}  // namespace atl
