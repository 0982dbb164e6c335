#pragma once
// Unit quaternion (x, y, z, w) for rotations; w is the real part.

#include <ostream>

#include "atoll/math/Vec4.h"

namespace atl {

class alignas(16) Quat {
 public:
  /// Identity rotation.
  constexpr Quat() : v_(0.0f, 0.0f, 0.0f, 1.0f) {}
  constexpr Quat(float x, float y, float z, float w) : v_(x, y, z, w) {}
  explicit Quat(const Vec4& v) : v_(v) {}

  static constexpr Quat identity() { return Quat(); }
  /// Rotation of `angle` radians about the unit vector `axis`.
  static Quat rotation(const Vec3& axis, float angle);
  /// Shortest rotation taking unit vector `from` to unit vector `to`.
  static Quat from_to(const Vec3& from, const Vec3& to);
  /// Rotation from Euler angles (radians), applied X, then Y, then Z.
  static Quat from_euler(const Vec3& angles);

  constexpr float x() const { return v_.x(); }
  constexpr float y() const { return v_.y(); }
  constexpr float z() const { return v_.z(); }
  constexpr float w() const { return v_.w(); }
  Vec3 xyz() const { return v_.xyz(); }
  const Vec4& as_vec4() const { return v_; }

  /// Hamilton product: (a * b) rotates by b, then by a.
  friend Quat operator*(const Quat& a, const Quat& b) {
    const float ax = a.x(), ay = a.y(), az = a.z(), aw = a.w();
    const float bx = b.x(), by = b.y(), bz = b.z(), bw = b.w();
    return Quat(aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
                aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz);
  }
  /// Rotates a vector (the quaternion must be normalized).
  friend Vec3 operator*(const Quat& q, const Vec3& v) {
    // v' = v + 2w(q×v) + 2 q×(q×v)
    const Vec3 qv = q.xyz();
    const Vec3 t = 2.0f * qv.cross(v);
    return v + q.w() * t + qv.cross(t);
  }
  friend Quat operator*(const Quat& q, float s) { return Quat(q.v_ * s); }
  friend Quat operator+(const Quat& a, const Quat& b) { return Quat(a.v_ + b.v_); }
  friend Quat operator-(const Quat& a, const Quat& b) { return Quat(a.v_ - b.v_); }
  Quat operator-() const { return Quat(-v_); }
  bool operator==(const Quat& b) const { return v_ == b.v_; }

  /// Inverse of a unit quaternion.
  Quat conjugated() const {
#if ATOLL_USE_SSE
    // Flips the sign bits of x, y and z, as negation does.
    return Quat(Vec4(_mm_xor_ps(v_.simd(), _mm_set_ps(0.0f, -0.0f, -0.0f, -0.0f))));
#else
    return Quat(-x(), -y(), -z(), w());
#endif
  }
  /// Inverse of any non-zero quaternion.
  Quat inversed() const { return Quat(conjugated().v_ / v_.length_sq()); }
  /// Rotates v by the inverse of this rotation.
  Vec3 inverse_rotate(const Vec3& v) const { return conjugated() * v; }
  float dot(const Quat& b) const { return v_.dot(b.v_); }
  float length_sq() const { return v_.length_sq(); }
  float length() const { return v_.length(); }
  Quat normalized() const { return Quat(v_.normalized()); }
  bool is_normalized(float tolerance = 1.0e-4f) const { return v_.is_normalized(tolerance); }
  bool is_close(const Quat& b, float max_dist_sq = 1.0e-12f) const {
    return v_.is_close(b.v_, max_dist_sq);
  }
  bool is_finite() const { return v_.is_finite(); }
  /// The same rotation with w ≥ 0.
  Quat ensure_w_positive() const { return w() < 0.0f ? -*this : *this; }

  /// Axis and angle (radians, in [0, π] after ensure_w_positive) of this rotation.
  void to_axis_angle(Vec3& out_axis, float& out_angle) const;
  /// Euler angles (radians) such that from_euler(to_euler()) is this rotation.
  Vec3 to_euler() const;
  /// Twist about `axis` (unit): the part of this rotation that rotates about `axis`.
  Quat twist(const Vec3& axis) const;
  /// Splits into swing (about an axis ⟂ X) and twist (about X): this = swing * twist.
  void swing_twist(Quat& out_swing, Quat& out_twist) const;
  /// Spherical interpolation between unit quaternions, shortest path.
  Quat slerp(const Quat& to, float t) const;
  /// Rotation of the X, Y, Z axes.
  Vec3 rotate_axis_x() const { return *this * Vec3::axis_x(); }
  Vec3 rotate_axis_y() const { return *this * Vec3::axis_y(); }
  Vec3 rotate_axis_z() const { return *this * Vec3::axis_z(); }

 private:
  Vec4 v_;
};

static_assert(sizeof(Quat) == 16);

inline std::ostream& operator<<(std::ostream& os, const Quat& q) {
  return os << '(' << q.x() << ", " << q.y() << ", " << q.z() << ", " << q.w() << ')';
}

}  // namespace atl
