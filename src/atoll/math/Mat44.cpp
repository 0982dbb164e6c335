#include "atoll/math/Mat44.h"

namespace atl {

Mat44 Mat44::rotation(const Quat& q) {
  ATOLL_ASSERT(q.is_normalized());
  const float x = q.x(), y = q.y(), z = q.z(), w = q.w();
  const float tx = 2.0f * x, ty = 2.0f * y, tz = 2.0f * z;
  const float xx = tx * x, yy = ty * y, zz = tz * z;
  const float xy = tx * y, xz = tx * z, xw = tx * w;
  const float yz = ty * z, yw = ty * w, zw = tz * w;
  return Mat44(Vec4(1.0f - yy - zz, xy + zw, xz - yw, 0.0f),
               Vec4(xy - zw, 1.0f - xx - zz, yz + xw, 0.0f),
               Vec4(xz + yw, yz - xw, 1.0f - xx - yy, 0.0f), Vec4(0.0f, 0.0f, 0.0f, 1.0f));
}

Quat Mat44::quaternion() const {
  // Shepperd's method: pick the largest of w, x, y, z to divide by.
  const float m00 = (*this)(0, 0), m11 = (*this)(1, 1), m22 = (*this)(2, 2);
  const float trace = m00 + m11 + m22;
  if (trace >= 0.0f) {
    float s = std::sqrt(trace + 1.0f);
    const float w = 0.5f * s;
    s = 0.5f / s;
    return Quat(((*this)(2, 1) - (*this)(1, 2)) * s, ((*this)(0, 2) - (*this)(2, 0)) * s,
                ((*this)(1, 0) - (*this)(0, 1)) * s, w);
  }
  if (m00 >= m11 && m00 >= m22) {
    float s = std::sqrt(m00 - (m11 + m22) + 1.0f);
    const float x = 0.5f * s;
    s = 0.5f / s;
    return Quat(x, ((*this)(0, 1) + (*this)(1, 0)) * s, ((*this)(2, 0) + (*this)(0, 2)) * s,
                ((*this)(2, 1) - (*this)(1, 2)) * s);
  }
  if (m11 >= m22) {
    float s = std::sqrt(m11 - (m22 + m00) + 1.0f);
    const float y = 0.5f * s;
    s = 0.5f / s;
    return Quat(((*this)(0, 1) + (*this)(1, 0)) * s, y, ((*this)(1, 2) + (*this)(2, 1)) * s,
                ((*this)(0, 2) - (*this)(2, 0)) * s);
  }
  float s = std::sqrt(m22 - (m00 + m11) + 1.0f);
  const float z = 0.5f * s;
  s = 0.5f / s;
  return Quat(((*this)(2, 0) + (*this)(0, 2)) * s, ((*this)(1, 2) + (*this)(2, 1)) * s, z,
              ((*this)(1, 0) - (*this)(0, 1)) * s);
}

Mat44 Mat44::transposed() const {
  Mat44 r;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) r.set(i, j, (*this)(j, i));
  return r;
}

Mat44 Mat44::transposed3x3() const {
  // The upper 3×3's rows are its columns' lanes: one 4×4 transpose of the first three columns
  // and a column of zeros (the rows' fourth lanes), then the identity's last column. Element by
  // element it was 1.4 % of convex_vs_mesh's step (inversed_rotation_translation, per body pair).
  __m128 c0 = c_[0].simd(), c1 = c_[1].simd(), c2 = c_[2].simd(), c3 = _mm_setzero_ps();
  _MM_TRANSPOSE4_PS(c0, c1, c2, c3);
  return Mat44(Vec4(c0), Vec4(c1), Vec4(c2), Vec4(0, 0, 0, 1));
}

float Mat44::determinant3x3() const { return column3(0).dot(column3(1).cross(column3(2))); }

bool Mat44::try_inverse3x3(Mat44& out) const {
  const Vec3 a = column3(0), b = column3(1), c = column3(2);
  const Vec3 r0 = b.cross(c), r1 = c.cross(a), r2 = a.cross(b);
  const float det = a.dot(r0);
  if (det == 0.0f || !std::isfinite(det)) return false;
  const float inv = 1.0f / det;
  // Rows of the inverse are the cross products / det.
  out = Mat44(Vec4(r0.x(), r1.x(), r2.x(), 0) * inv, Vec4(r0.y(), r1.y(), r2.y(), 0) * inv,
              Vec4(r0.z(), r1.z(), r2.z(), 0) * inv, Vec4(0, 0, 0, 1));
  return true;
}

Mat44 Mat44::inversed() const {
  // Cofactor expansion on the full 4×4.
  float m[16];
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) m[c * 4 + r] = (*this)(r, c);
  float inv[16];
  inv[0] = m[5] * m[10] * m[15] - m[5] * m[11] * m[14] - m[9] * m[6] * m[15] + m[9] * m[7] * m[14] +
           m[13] * m[6] * m[11] - m[13] * m[7] * m[10];
  inv[4] = -m[4] * m[10] * m[15] + m[4] * m[11] * m[14] + m[8] * m[6] * m[15] -
           m[8] * m[7] * m[14] - m[12] * m[6] * m[11] + m[12] * m[7] * m[10];
  inv[8] = m[4] * m[9] * m[15] - m[4] * m[11] * m[13] - m[8] * m[5] * m[15] + m[8] * m[7] * m[13] +
           m[12] * m[5] * m[11] - m[12] * m[7] * m[9];
  inv[12] = -m[4] * m[9] * m[14] + m[4] * m[10] * m[13] + m[8] * m[5] * m[14] -
            m[8] * m[6] * m[13] - m[12] * m[5] * m[10] + m[12] * m[6] * m[9];
  inv[1] = -m[1] * m[10] * m[15] + m[1] * m[11] * m[14] + m[9] * m[2] * m[15] -
           m[9] * m[3] * m[14] - m[13] * m[2] * m[11] + m[13] * m[3] * m[10];
  inv[5] = m[0] * m[10] * m[15] - m[0] * m[11] * m[14] - m[8] * m[2] * m[15] + m[8] * m[3] * m[14] +
           m[12] * m[2] * m[11] - m[12] * m[3] * m[10];
  inv[9] = -m[0] * m[9] * m[15] + m[0] * m[11] * m[13] + m[8] * m[1] * m[15] - m[8] * m[3] * m[13] -
           m[12] * m[1] * m[11] + m[12] * m[3] * m[9];
  inv[13] = m[0] * m[9] * m[14] - m[0] * m[10] * m[13] - m[8] * m[1] * m[14] + m[8] * m[2] * m[13] +
            m[12] * m[1] * m[10] - m[12] * m[2] * m[9];
  inv[2] = m[1] * m[6] * m[15] - m[1] * m[7] * m[14] - m[5] * m[2] * m[15] + m[5] * m[3] * m[14] +
           m[13] * m[2] * m[7] - m[13] * m[3] * m[6];
  inv[6] = -m[0] * m[6] * m[15] + m[0] * m[7] * m[14] + m[4] * m[2] * m[15] - m[4] * m[3] * m[14] -
           m[12] * m[2] * m[7] + m[12] * m[3] * m[6];
  inv[10] = m[0] * m[5] * m[15] - m[0] * m[7] * m[13] - m[4] * m[1] * m[15] + m[4] * m[3] * m[13] +
            m[12] * m[1] * m[7] - m[12] * m[3] * m[5];
  inv[14] = -m[0] * m[5] * m[14] + m[0] * m[6] * m[13] + m[4] * m[1] * m[14] - m[4] * m[2] * m[13] -
            m[12] * m[1] * m[6] + m[12] * m[2] * m[5];
  inv[3] = -m[1] * m[6] * m[11] + m[1] * m[7] * m[10] + m[5] * m[2] * m[11] - m[5] * m[3] * m[10] -
           m[9] * m[2] * m[7] + m[9] * m[3] * m[6];
  inv[7] = m[0] * m[6] * m[11] - m[0] * m[7] * m[10] - m[4] * m[2] * m[11] + m[4] * m[3] * m[10] +
           m[8] * m[2] * m[7] - m[8] * m[3] * m[6];
  inv[11] = -m[0] * m[5] * m[11] + m[0] * m[7] * m[9] + m[4] * m[1] * m[11] - m[4] * m[3] * m[9] -
            m[8] * m[1] * m[7] + m[8] * m[3] * m[5];
  inv[15] = m[0] * m[5] * m[10] - m[0] * m[6] * m[9] - m[4] * m[1] * m[10] + m[4] * m[2] * m[9] +
            m[8] * m[1] * m[6] - m[8] * m[2] * m[5];
  const float det = m[0] * inv[0] + m[1] * inv[4] + m[2] * inv[8] + m[3] * inv[12];
  ATOLL_ASSERT(det != 0.0f, "Mat44::inversed of a singular matrix");
  const float inv_det = 1.0f / det;
  Mat44 r;
  for (int c = 0; c < 4; ++c)
    for (int row = 0; row < 4; ++row) r.set(row, c, inv[c * 4 + row] * inv_det);
  return r;
}

Mat44 Mat44::inversed_rotation_translation() const {
  Mat44 r = transposed3x3();
  r.set_translation(-r.multiply3x3(translation()));
  return r;
}

Mat44 Mat44::orthonormalized() const {
  const Vec3 x = axis_x().normalized();
  const Vec3 z = x.cross(axis_y()).normalized();
  const Vec3 y = z.cross(x);
  Mat44 r(Vec4(x, 0), Vec4(y, 0), Vec4(z, 0), c_[3]);
  return r;
}

}  // namespace atl
