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
  swing_y_ = atl::sin(0.5f * y);
  swing_z_ = atl::sin(0.5f * z);
  swing_type_ = SwingType::Cone;
  swing_min_lambda_ = -k_float_max;
  swing_max_lambda_ = 0.0f;
  swing_z_row_.deactivate();
}

void SwingTwistConstraintPart::set_pyramid_limits(float twist_min, float twist_max,
                                                  float swing_y_min, float swing_y_max,
                                                  float swing_z_min, float swing_z_max) {
  set_limits(twist_min, twist_max, k_pi, k_pi);
  swing_type_ = SwingType::Pyramid;
  const auto range = [](float lo, float hi, float& out_lo, float& out_hi, bool& free) {
    lo = std::clamp(lo, -k_pi, k_pi);
    hi = std::clamp(std::max(hi, lo), -k_pi, k_pi);
    free = lo <= -k_pi && hi >= k_pi;
    out_lo = atl::sin(0.5f * lo);
    out_hi = atl::sin(0.5f * hi);
  };
  range(swing_y_min, swing_y_max, pyramid_y_min_, pyramid_y_max_, pyramid_y_free_);
  range(swing_z_min, swing_z_max, pyramid_z_min_, pyramid_z_max_, pyramid_z_free_);
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

namespace {

// Rotation step (rad) of the numerical derivatives below.
constexpr float k_derivative_step = 1.0e-3f;

// The rate of `f(q)` per unit of relative angular velocity (in frame 1's axes): the relative
// rotation moves as q̇ = ½·[0, u]·q, so turning by h about axis i gives q' = rotation(i, h)·q.
// Central differences: the swing-twist split has no simpler closed form to differentiate.
template <class F>
Vec3 rate(const Quat& q, const F& f) {
  float g[3];
  const Vec3 axes[3] = {Vec3::axis_x(), Vec3::axis_y(), Vec3::axis_z()};
  for (int i = 0; i < 3; ++i)
    g[i] = (f(Quat::rotation(axes[i], k_derivative_step) * q) -
            f(Quat::rotation(axes[i], -k_derivative_step) * q)) /
           (2.0f * k_derivative_step);
  return Vec3(g[0], g[1], g[2]);
}

float twist_angle(const Quat& q) {
  Quat swing;
  Quat twist;
  q.ensure_w_positive().swing_twist(swing, twist);
  return 2.0f * atl::atan2(twist.x(), twist.w());
}

}  // namespace

bool SwingTwistConstraintPart::set_axis(const Vec3& gradient, const Quat& frame1, Violation& out) {
  // C's rate is g·u for relative angular velocity u: per unit of the angle turned about the
  // unit axis g/|g| it is |g|. Dividing C and its target rate by |g| makes the row an angle
  // (rad, to first order) about a unit axis, so its λ is an angular impulse (N·m·s) — the row
  // pushes the bodies within a step exactly as with g as the axis (J/|g| with λ·|g|).
  const float length = gradient.length();
  if (!(length > k_min_gradient)) return false;
  out.axis = frame1 * (gradient / length);
  out.error /= length;
  out.target_velocity /= length;
  return true;
}

bool SwingTwistConstraintPart::swing_violation(const Quat& q, const Quat& frame1, float dt,
                                               Violation& out) const {
  if (swing_free_) return false;
  Quat swing;
  Quat twist;
  q.swing_twist(swing, twist);
  const std::array<float, 2> p = closest_point_on_ellipse(swing_y_, swing_z_, swing.y(), swing.z());
  const float dy = swing.y() - p[0];
  const float dz = swing.z() - p[1];
  const float d = std::sqrt(dy * dy + dz * dz);
  out.min_lambda = -k_float_max;
  out.max_lambda = 0.0f;
  if (d > 1.0e-7f) {
    // Outside: the error is the distance d of the swing's (y, z) from the ellipse; its rate is
    // that of the distance to the (fixed) closest point, the projection on (dy, dz)/d.
    const float ny = dy / d;
    const float nz = dz / d;
    const Vec3 g = rate(q, [&](const Quat& r) {
      Quat s;
      Quat t;
      r.ensure_w_positive().swing_twist(s, t);
      return ny * (s.y() - p[0]) + nz * (s.z() - p[1]);
    });
    out.error = d;
    out.violated = true;
    out.target_velocity = 0.0f;
    return set_axis(g, frame1, out);
  }
  // Inside but near the cone (f = (y/e_y)² + (z/e_z)² − 1 > −k_swing_window): a speculative
  // row lets f rise to 0 within the step and no further, so a fast swing stops at the cone
  // instead of overshooting it by up to ω·dt. (Not for a flat ellipse: f is not defined.)
  if (dt <= 0.0f || swing_y_ < 1.0e-3f || swing_z_ < 1.0e-3f) return false;
  const auto fill = [&](const Quat& r) {
    Quat s;
    Quat t;
    r.ensure_w_positive().swing_twist(s, t);
    return square(s.y() / swing_y_) + square(s.z() / swing_z_) - 1.0f;
  };
  const float f = fill(q);
  if (f < -k_swing_window) return false;
  out.error = f;
  out.violated = false;
  out.target_velocity = -f / dt;
  return set_axis(rate(q, fill), frame1, out);
}

bool SwingTwistConstraintPart::twist_violation(const Quat& q, const Quat& frame1, float dt,
                                               Violation& out) const {
  if (twist_free_) return false;
  const float angle = twist_angle(q);
  out.violated = true;
  out.target_velocity = 0.0f;
  if (twist_max_ - twist_min_ < 1.0e-6f) {
    out.error = angle - 0.5f * (twist_min_ + twist_max_);
    out.min_lambda = -k_float_max;
    out.max_lambda = k_float_max;
  } else if (angle <= twist_min_ || angle >= twist_max_ || dt > 0.0f) {
    // Violated, or (speculatively) the nearer bound: the angle may reach it within the step
    // and no further.
    const bool lower = angle - twist_min_ < twist_max_ - angle;
    out.error = angle - (lower ? twist_min_ : twist_max_);
    out.min_lambda = lower ? 0.0f : -k_float_max;
    out.max_lambda = lower ? k_float_max : 0.0f;
    out.violated = lower ? out.error <= 0.0f : out.error >= 0.0f;
    if (!out.violated) out.target_velocity = -out.error / dt;
  } else {
    return false;
  }
  // Differences of the angle wrapped to (−π, π], so a twist near ±π does not jump by 2π.
  const Vec3 g = rate(q, [&](const Quat& r) {
    float delta = twist_angle(r) - angle;
    if (delta > k_pi) delta -= k_two_pi;
    if (delta < -k_pi) delta += k_two_pi;
    return delta;
  });
  return set_axis(g, frame1, out);
}

bool SwingTwistConstraintPart::pyramid_violation(const Quat& q, const Quat& frame1, float dt,
                                                 int component, float lo, float hi,
                                                 Violation& out) const {
  const auto value_of = [component](const Quat& r) {
    Quat s;
    Quat t;
    r.ensure_w_positive().swing_twist(s, t);
    return component == 1 ? s.y() : s.z();
  };
  const float value = value_of(q);
  out.violated = true;
  out.target_velocity = 0.0f;
  if (hi - lo < 1.0e-6f) {
    // Locked: held at the bound from both sides.
    out.error = value - 0.5f * (lo + hi);
    out.min_lambda = -k_float_max;
    out.max_lambda = k_float_max;
  } else if (value <= lo || value >= hi || dt > 0.0f) {
    // Violated, or (speculatively) the nearer bound, as the twist.
    const bool lower = value - lo < hi - value;
    out.error = value - (lower ? lo : hi);
    out.min_lambda = lower ? 0.0f : -k_float_max;
    out.max_lambda = lower ? k_float_max : 0.0f;
    out.violated = lower ? out.error <= 0.0f : out.error >= 0.0f;
    if (!out.violated) out.target_velocity = -out.error / dt;
  } else {
    return false;
  }
  return set_axis(rate(q, value_of), frame1, out);
}

void SwingTwistConstraintPart::swing_violations(const Quat& q, const Quat& frame1, float dt,
                                                Violation& y, bool& has_y, Violation& z,
                                                bool& has_z) const {
  if (swing_type_ == SwingType::Cone) {
    has_y = swing_violation(q, frame1, dt, y);
    has_z = false;
    return;
  }
  has_y =
      !pyramid_y_free_ && pyramid_violation(q, frame1, dt, 1, pyramid_y_min_, pyramid_y_max_, y);
  has_z =
      !pyramid_z_free_ && pyramid_violation(q, frame1, dt, 2, pyramid_z_min_, pyramid_z_max_, z);
}

bool SwingTwistConstraintPart::is_within_limits(const Quat& q, float tolerance) const {
  Violation v;
  if (swing_type_ == SwingType::Pyramid) {
    Violation vz;
    bool has_y = false, has_z = false;
    swing_violations(q, Quat::identity(), 0.0f, v, has_y, vz, has_z);
    // |C| is the angle past the bound (rad, to first order).
    if (has_y && v.violated && std::fabs(v.error) > tolerance) return false;
    if (has_z && vz.violated && std::fabs(vz.error) > tolerance) return false;
  } else if (swing_violation(q, Quat::identity(), 0.0f, v) && v.violated && v.error > tolerance) {
    // C is the swing's angle past the cone (rad, to first order).
    return false;
  }
  if (twist_violation(q, Quat::identity(), 0.0f, v) && v.violated && std::fabs(v.error) > tolerance)
    return false;
  return true;
}

void SwingTwistConstraintPart::calculate_constraint_properties(float dt, const SolverBody& body1,
                                                               const SolverBody& body2,
                                                               const Quat& constraint_to_body1,
                                                               const Quat& constraint_to_body2) {
  const Quat frame1 = body1.rotation * constraint_to_body1;
  const Quat frame2 = body2.rotation * constraint_to_body2;
  const Quat q = (frame1.conjugated() * frame2).normalized().ensure_w_positive();
  Violation v;
  Violation vz;
  bool has_y = false, has_z = false;
  swing_violations(q, frame1, dt, v, has_y, vz, has_z);
  if (has_y) {
    swing_.calculate_constraint_properties(body1, body2, v.axis, v.target_velocity);
    swing_axis_ = v.axis;
    swing_min_lambda_ = v.min_lambda;
    swing_max_lambda_ = v.max_lambda;
  } else {
    swing_.deactivate();
  }
  if (has_z) {
    swing_z_row_.calculate_constraint_properties(body1, body2, vz.axis, vz.target_velocity);
    swing_z_axis_ = vz.axis;
    swing_z_min_lambda_ = vz.min_lambda;
    swing_z_max_lambda_ = vz.max_lambda;
  } else {
    swing_z_row_.deactivate();
  }
  if (twist_violation(q, frame1, dt, v)) {
    twist_.calculate_constraint_properties(body1, body2, v.axis, v.target_velocity);
    twist_axis_ = v.axis;
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
  // Rows: the cone's swing or the pyramid's swing about Y, the twist, the pyramid's swing
  // about Z.
  const int rows = swing_type_ == SwingType::Pyramid ? 3 : 2;
  for (int row = 0; row < rows; ++row) {
    const Quat frame1 = body1.rotation * constraint_to_body1;
    const Quat frame2 = body2.rotation * constraint_to_body2;
    const Quat q = (frame1.conjugated() * frame2).normalized().ensure_w_positive();
    Violation v;
    bool found = false;
    if (row == 1) {
      found = twist_violation(q, frame1, 0.0f, v);
    } else if (swing_type_ == SwingType::Cone) {
      found = swing_violation(q, frame1, 0.0f, v);
    } else if (row == 0) {
      found = !pyramid_y_free_ &&
              pyramid_violation(q, frame1, 0.0f, 1, pyramid_y_min_, pyramid_y_max_, v);
    } else {
      found = !pyramid_z_free_ &&
              pyramid_violation(q, frame1, 0.0f, 2, pyramid_z_min_, pyramid_z_max_, v);
    }
    if (!found || !v.violated || v.error == 0.0f) continue;
    AngleConstraintPart part;
    part.calculate_constraint_properties(body1, body2, v.axis);
    moved |= part.solve_position_constraint(body1, body2, v.error, baumgarte);
  }
  return moved;
}

}  // namespace atl
