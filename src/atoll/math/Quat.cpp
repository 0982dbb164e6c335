#include "atoll/math/Quat.h"

namespace atl {

Quat Quat::rotation(const Vec3& axis, float angle) {
  ATOLL_ASSERT(axis.is_normalized());
  float s, c;
  sin_cos(0.5f * angle, s, c);
  const Vec3 v = axis * s;
  return Quat(v.x(), v.y(), v.z(), c);
}

Quat Quat::from_to(const Vec3& from, const Vec3& to) {
  // q = (from × to, 1 + from·to), normalized; for opposite vectors rotate π about any
  // perpendicular axis.
  const float d = from.dot(to);
  if (d < -0.999999f) {
    const Vec3 axis = from.normalized_perpendicular();
    return Quat(axis.x(), axis.y(), axis.z(), 0.0f);
  }
  const Vec3 c = from.cross(to);
  return Quat(c.x(), c.y(), c.z(), 1.0f + d).normalized();
}

Quat Quat::from_euler(const Vec3& angles) {
  float sx, cx, sy, cy, sz, cz;
  sin_cos(0.5f * angles.x(), sx, cx);
  sin_cos(0.5f * angles.y(), sy, cy);
  sin_cos(0.5f * angles.z(), sz, cz);
  // q = qz * qy * qx
  return Quat(cz * sx * cy - sz * cx * sy, cz * cx * sy + sz * sx * cy, sz * cx * cy - cz * sx * sy,
              cz * cx * cy + sz * sx * sy);
}

Vec3 Quat::to_euler() const {
  const float qx = x(), qy = y(), qz = z(), qw = w();
  const float y_sq = qy * qy;
  const float t0 = 2.0f * (qw * qx + qy * qz);
  const float t1 = 1.0f - 2.0f * (qx * qx + y_sq);
  const float t2 = clamp(2.0f * (qw * qy - qz * qx), -1.0f, 1.0f);
  const float t3 = 2.0f * (qw * qz + qx * qy);
  const float t4 = 1.0f - 2.0f * (y_sq + qz * qz);
  return Vec3(atan2(t0, t1), asin(t2), atan2(t3, t4));
}

void Quat::to_axis_angle(Vec3& out_axis, float& out_angle) const {
  const Quat q = ensure_w_positive();
  const float s = q.xyz().length();
  if (s < 1.0e-7f) {
    out_axis = Vec3::axis_x();
    out_angle = 0.0f;
    return;
  }
  out_axis = q.xyz() / s;
  out_angle = 2.0f * atan2(s, q.w());
}

Quat Quat::twist(const Vec3& axis) const {
  const Vec3 projected = axis * xyz().dot(axis);
  const Quat t(projected.x(), projected.y(), projected.z(), w());
  const float len = t.length();
  return len > 1.0e-12f ? t * (1.0f / len) : Quat::identity();
}

void Quat::swing_twist(Quat& out_swing, Quat& out_twist) const {
  const float s = std::sqrt(square(w()) + square(x()));
  if (s > 1.0e-12f) {
    out_twist = Quat(x() / s, 0.0f, 0.0f, w() / s);
    out_swing = Quat(0.0f, (w() * y() - x() * z()) / s, (w() * z() + x() * y()) / s, s);
  } else {
    // Rotation of π about an axis in the YZ plane: all swing, no twist.
    out_twist = Quat::identity();
    out_swing = *this;
  }
}

Quat Quat::slerp(const Quat& to, float t) const {
  float d = dot(to);
  const Quat target = d < 0.0f ? -to : to;
  d = std::fabs(d);
  if (d > 0.9995f) return (*this + (target - *this) * t).normalized();
  const float theta = acos(d);
  const float sin_theta = sin(theta);
  const float a = sin((1.0f - t) * theta) / sin_theta;
  const float b = sin(t * theta) / sin_theta;
  return (*this * a + target * b).normalized();
}

}  // namespace atl
