#pragma once
// 4×4 float matrix, column-major (columns are Vec4), for rigid transforms and 3×3 tensors
// (inertia) stored in the upper-left block.

#include <ostream>

#include "atoll/math/Quat.h"

namespace atl {

class alignas(16) Mat44 {
 public:
  /// Identity.
  Mat44() : c_{Vec4(1, 0, 0, 0), Vec4(0, 1, 0, 0), Vec4(0, 0, 1, 0), Vec4(0, 0, 0, 1)} {}
  Mat44(const Vec4& c0, const Vec4& c1, const Vec4& c2, const Vec4& c3) : c_{c0, c1, c2, c3} {}

  static Mat44 identity() { return Mat44(); }
  static Mat44 zero() { return Mat44(Vec4(), Vec4(), Vec4(), Vec4()); }
  static Mat44 translation(const Vec3& t) {
    return Mat44(Vec4(1, 0, 0, 0), Vec4(0, 1, 0, 0), Vec4(0, 0, 1, 0), Vec4(t, 1.0f));
  }
  /// Rotation matrix of a unit quaternion.
  static Mat44 rotation(const Quat& q);
  static Mat44 rotation_translation(const Quat& q, const Vec3& t) {
    Mat44 m = rotation(q);
    m.set_translation(t);
    return m;
  }
  /// Diagonal scale (w = 1).
  static Mat44 scale(const Vec3& s) {
    return Mat44(Vec4(s.x(), 0, 0, 0), Vec4(0, s.y(), 0, 0), Vec4(0, 0, s.z(), 0),
                 Vec4(0, 0, 0, 1));
  }
  /// Matrix M with M·v = a × v.
  static Mat44 cross_product(const Vec3& a) {
    return Mat44(Vec4(0, a.z(), -a.y(), 0), Vec4(-a.z(), 0, a.x(), 0), Vec4(a.y(), -a.x(), 0, 0),
                 Vec4(0, 0, 0, 1));
  }
  /// a ⊗ b (upper 3×3), w = 1.
  static Mat44 outer_product(const Vec3& a, const Vec3& b) {
    return Mat44(Vec4(a * b.x(), 0), Vec4(a * b.y(), 0), Vec4(a * b.z(), 0), Vec4(0, 0, 0, 1));
  }

  const Vec4& column(int i) const { return c_[i]; }
  void set_column(int i, const Vec4& v) { c_[i] = v; }
  Vec3 column3(int i) const { return c_[i].xyz(); }
  void set_column3(int i, const Vec3& v) { c_[i] = Vec4(v, c_[i].w()); }
  /// Element at row r, column c.
  float operator()(int r, int c) const { return c_[c][r]; }
  void set(int r, int c, float v) { c_[c].set_component(r, v); }
  Vec3 axis_x() const { return column3(0); }
  Vec3 axis_y() const { return column3(1); }
  Vec3 axis_z() const { return column3(2); }
  Vec3 translation() const { return column3(3); }
  void set_translation(const Vec3& t) { c_[3] = Vec4(t, 1.0f); }
  /// Rotation part as a quaternion (the upper 3×3 must be a rotation).
  Quat quaternion() const;

  friend Mat44 operator*(const Mat44& a, const Mat44& b) {
    Mat44 r;
    for (int i = 0; i < 4; ++i) r.c_[i] = a * b.c_[i];
    return r;
  }
  friend Vec4 operator*(const Mat44& m, const Vec4& v) {
    return ((m.c_[0] * v.x() + m.c_[1] * v.y()) + m.c_[2] * v.z()) + m.c_[3] * v.w();
  }
  /// Transforms a point (w = 1).
  friend Vec3 operator*(const Mat44& m, const Vec3& v) {
    return (((m.c_[0] * v.x() + m.c_[1] * v.y()) + m.c_[2] * v.z()) + m.c_[3]).xyz();
  }
  friend Mat44 operator*(const Mat44& m, float s) {
    return Mat44(m.c_[0] * s, m.c_[1] * s, m.c_[2] * s, m.c_[3] * s);
  }
  friend Mat44 operator+(const Mat44& a, const Mat44& b) {
    return Mat44(a.c_[0] + b.c_[0], a.c_[1] + b.c_[1], a.c_[2] + b.c_[2], a.c_[3] + b.c_[3]);
  }
  friend Mat44 operator-(const Mat44& a, const Mat44& b) {
    return Mat44(a.c_[0] - b.c_[0], a.c_[1] - b.c_[1], a.c_[2] - b.c_[2], a.c_[3] - b.c_[3]);
  }
  bool operator==(const Mat44& b) const {
    return c_[0] == b.c_[0] && c_[1] == b.c_[1] && c_[2] == b.c_[2] && c_[3] == b.c_[3];
  }
  bool is_close(const Mat44& b, float max_dist_sq = 1.0e-12f) const {
    for (int i = 0; i < 4; ++i)
      if (!c_[i].is_close(b.c_[i], max_dist_sq)) return false;
    return true;
  }

  /// Rotates / scales a direction by the upper 3×3 (no translation).
  Vec3 multiply3x3(const Vec3& v) const {
    return ((c_[0] * v.x() + c_[1] * v.y()) + c_[2] * v.z()).xyz();
  }
  /// Multiplies by the transpose of the upper 3×3.
  Vec3 multiply3x3_transposed(const Vec3& v) const {
    return Vec3(c_[0].xyz().dot(v), c_[1].xyz().dot(v), c_[2].xyz().dot(v));
  }
  /// Product of the upper 3×3 blocks (result has translation 0, w 1).
  Mat44 multiply3x3(const Mat44& b) const {
    return Mat44(Vec4(multiply3x3(b.column3(0)), 0), Vec4(multiply3x3(b.column3(1)), 0),
                 Vec4(multiply3x3(b.column3(2)), 0), Vec4(0, 0, 0, 1));
  }
  Mat44 transposed() const;
  /// Transpose of the upper 3×3, translation 0.
  Mat44 transposed3x3() const;
  /// General inverse (asserts invertibility in debug builds).
  Mat44 inversed() const;
  /// Inverse of a rotation + translation (orthonormal upper 3×3).
  Mat44 inversed_rotation_translation() const;
  /// Inverse of the upper 3×3 (translation 0); returns false when singular.
  bool try_inverse3x3(Mat44& out) const;
  float determinant3x3() const;
  /// Upper 3×3 only, translation cleared.
  Mat44 rotation_part() const {
    return Mat44(Vec4(column3(0), 0), Vec4(column3(1), 0), Vec4(column3(2), 0), Vec4(0, 0, 0, 1));
  }
  /// Makes the upper 3×3 orthonormal again (Gram-Schmidt on X, Y).
  Mat44 orthonormalized() const;
  bool is_finite() const {
    return c_[0].is_finite() && c_[1].is_finite() && c_[2].is_finite() && c_[3].is_finite();
  }

 private:
  Vec4 c_[4];
};

static_assert(sizeof(Mat44) == 64);

inline std::ostream& operator<<(std::ostream& os, const Mat44& m) {
  return os << '[' << m.column(0) << ", " << m.column(1) << ", " << m.column(2) << ", "
            << m.column(3) << ']';
}

}  // namespace atl
