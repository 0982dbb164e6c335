#include "atoll/constraint/parts/FaceStackPart.h"

#include <cmath>

#include "atoll/core/Assert.h"

namespace atl {

namespace {

using Mat3d = double[3][3];

bool invert(const Mat3d m, Mat3d out) {
  const double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                     m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                     m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  if (!std::isfinite(det) || !(std::fabs(det) > 1.0e-12 * std::fabs(m[0][0] * m[1][1] * m[2][2])))
    return false;
  const double inv = 1.0 / det;
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l) {
      // Cofactor (l, k) / det: the inverse is the transposed cofactor matrix over det.
      const int r0 = (l + 1) % 3, r1 = (l + 2) % 3, c0 = (k + 1) % 3, c1 = (k + 2) % 3;
      out[k][l] = (m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0]) * inv;
    }
  return true;
}

void multiply(const Mat3d a, const Mat3d b, Mat3d out) {
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l)
      out[k][l] = a[k][0] * b[0][l] + a[k][1] * b[1][l] + a[k][2] * b[2][l];
}

void multiply(const Mat3d a, const double v[3], double out[3]) {
  for (int k = 0; k < 3; ++k) out[k] = a[k][0] * v[0] + a[k][1] * v[1] + a[k][2] * v[2];
}

}  // namespace

void FaceStackPart::clear() {
  links_.clear();
  last_ = nullptr;
}

bool FaceStackPart::push_back(const FaceContactPart& face, bool previous_via_body2,
                              bool next_via_body2) {
  // Block Thomas factorisation: D_0 = A_0, D_k = A_k − C(k,k−1) D(k−1)⁻¹ C(k−1,k).
  Mat3d d;
  face.effective_mass(d);
  Link link;
  link.next_via_body2 = next_via_body2;
  if (!links_.empty()) {
    Link& below = links_.back();
    last_->coupling(below.next_via_body2, face, previous_via_body2, below.up);
    Mat3d c_down;  // C(k, k−1)
    face.coupling(previous_via_body2, *last_, below.next_via_body2, c_down);
    multiply(c_down, below.inv_d, link.down);
    Mat3d correction;
    multiply(link.down, below.up, correction);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) d[i][j] -= correction[i][j];
  }
  if (!invert(d, link.inv_d)) {
    clear();
    return false;
  }
  links_.push_back(link);
  last_ = &face;
  return true;
}

void FaceStackPart::solve(std::span<const std::array<float, 3>> errors,
                          std::span<std::array<float, 3>> impulses) {
  const size_t n = links_.size();
  ATOLL_ASSERT(errors.size() == n && impulses.size() == n);
  solution_.resize(n);
  // Forward: y_k = e_k − C(k,k−1) D(k−1)⁻¹ y(k−1).
  for (size_t k = 0; k < n; ++k) {
    for (int i = 0; i < 3; ++i) solution_[k][i] = static_cast<double>(errors[k][i]);
    if (k > 0) {
      double carried[3];
      multiply(links_[k].down, solution_[k - 1].data(), carried);
      for (int i = 0; i < 3; ++i) solution_[k][i] -= carried[i];
    }
  }
  // Backward: x_k = D_k⁻¹ (y_k − C(k,k+1) x(k+1)).
  for (size_t k = n; k-- > 0;) {
    double rhs[3] = {solution_[k][0], solution_[k][1], solution_[k][2]};
    if (k + 1 < n) {
      double carried[3];
      multiply(links_[k].up, solution_[k + 1].data(), carried);
      for (int i = 0; i < 3; ++i) rhs[i] -= carried[i];
    }
    multiply(links_[k].inv_d, rhs, solution_[k].data());
    for (int i = 0; i < 3; ++i) impulses[k][i] = static_cast<float>(solution_[k][i]);
  }
}

}  // namespace atl
