#include "atoll/shape/MassProperties.h"

#include <cmath>

namespace atl {

namespace {

// The tensor operations work on the upper 3×3 in double: they are used at shape/body creation,
// not per step, and double keeps the Jacobi sweeps and the scale/rotate round trips exact to
// well below float precision.
struct Mat3d {
  double m[3][3] = {};
};

Mat3d load(const Mat44& src) {
  Mat3d r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = static_cast<double>(src(i, j));
  return r;
}

// Writes the upper 3×3 and leaves the rest of `dst` as it was.
void store(const Mat3d& src, Mat44& dst) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) dst.set(i, j, static_cast<float>(src.m[i][j]));
}

Mat3d multiply(const Mat3d& a, const Mat3d& b) {
  Mat3d r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double sum = 0.0;
      for (int k = 0; k < 3; ++k) sum += a.m[i][k] * b.m[k][j];
      r.m[i][j] = sum;
    }
  return r;
}

Mat3d transpose(const Mat3d& a) {
  Mat3d r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = a.m[j][i];
  return r;
}

double trace(const Mat3d& a) { return a.m[0][0] + a.m[1][1] + a.m[2][2]; }

// Cyclic Jacobi: rotates away the largest off-diagonal element until the matrix is diagonal.
// A fixed pivot order and a fixed sweep limit make the result the same on every platform.
void jacobi_eigen(Mat3d& a, Mat3d& v) {
  v = Mat3d();
  for (int i = 0; i < 3; ++i) v.m[i][i] = 1.0;
  constexpr int k_max_sweeps = 50;
  for (int sweep = 0; sweep < k_max_sweeps; ++sweep) {
    const double off = std::fabs(a.m[0][1]) + std::fabs(a.m[0][2]) + std::fabs(a.m[1][2]);
    const double diag = std::fabs(a.m[0][0]) + std::fabs(a.m[1][1]) + std::fabs(a.m[2][2]);
    if (off <= 1.0e-15 * diag || off == 0.0) return;
    for (int p = 0; p < 2; ++p)
      for (int q = p + 1; q < 3; ++q) {
        const double apq = a.m[p][q];
        if (apq == 0.0) continue;
        // Choose the rotation angle θ with tan(2θ) = 2·a_pq / (a_qq − a_pp), using the smaller
        // root for t = tan θ so that the rotation is at most 45° (stable, converges fast).
        const double theta = (a.m[q][q] - a.m[p][p]) / (2.0 * apq);
        const double t =
            (theta >= 0.0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1.0));
        const double c = 1.0 / std::sqrt(t * t + 1.0);
        const double s = t * c;
        // A ← Jᵀ A J and V ← V J, with J the Givens rotation in the (p, q) plane.
        for (int k = 0; k < 3; ++k) {
          const double akp = a.m[k][p], akq = a.m[k][q];
          a.m[k][p] = c * akp - s * akq;
          a.m[k][q] = s * akp + c * akq;
        }
        for (int k = 0; k < 3; ++k) {
          const double apk = a.m[p][k], aqk = a.m[q][k];
          a.m[p][k] = c * apk - s * aqk;
          a.m[q][k] = s * apk + c * aqk;
        }
        a.m[p][q] = a.m[q][p] = 0.0;
        for (int k = 0; k < 3; ++k) {
          const double vkp = v.m[k][p], vkq = v.m[k][q];
          v.m[k][p] = c * vkp - s * vkq;
          v.m[k][q] = s * vkp + c * vkq;
        }
      }
  }
}

}  // namespace

void MassProperties::scale_to_mass(float new_mass) {
  ATOLL_ASSERT(new_mass > 0.0f, "scale_to_mass needs a positive mass");
  if (mass > 0.0f) {
    const double factor = static_cast<double>(new_mass) / static_cast<double>(mass);
    Mat3d i = load(inertia);
    for (auto& row : i.m)
      for (double& e : row) e *= factor;
    store(i, inertia);
  }
  mass = new_mass;
}

void MassProperties::translate(const Vec3& offset) {
  const double o[3] = {offset.x(), offset.y(), offset.z()};
  const double len_sq = o[0] * o[0] + o[1] * o[1] + o[2] * o[2];
  Mat3d i = load(inertia);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      i.m[r][c] += static_cast<double>(mass) * ((r == c ? len_sq : 0.0) - o[r] * o[c]);
  store(i, inertia);
}

void MassProperties::rotate(const Mat44& rotation) {
  const Mat3d r = load(rotation);
  store(multiply(multiply(r, load(inertia)), transpose(r)), inertia);
}

void MassProperties::scale(const Vec3& s) {
  // With the covariance C = ∫ρ·r·rᵀ dV the inertia is I = tr(C)·1 − C, so C = ½·tr(I)·1 − I.
  // Scaling the geometry by S = diag(s) at constant density maps C to |det S|·S·C·S.
  const double sv[3] = {s.x(), s.y(), s.z()};
  const double volume_factor = std::fabs(sv[0] * sv[1] * sv[2]);
  const Mat3d i = load(inertia);
  const double half_trace = 0.5 * trace(i);
  Mat3d cov;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      cov.m[r][c] = volume_factor * sv[r] * sv[c] * ((r == c ? half_trace : 0.0) - i.m[r][c]);
  const double cov_trace = trace(cov);
  Mat3d result;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) result.m[r][c] = (r == c ? cov_trace : 0.0) - cov.m[r][c];
  store(result, inertia);
  mass = static_cast<float>(static_cast<double>(mass) * volume_factor);
}

bool MassProperties::decompose_principal_moments(Mat44& out_rotation, Vec3& out_moments) const {
  Mat3d a = load(inertia);
  double scale = 0.0;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      if (!std::isfinite(a.m[r][c])) return false;
      scale = std::fmax(scale, std::fabs(a.m[r][c]));
    }
  for (int r = 0; r < 3; ++r)
    for (int c = r + 1; c < 3; ++c)
      if (std::fabs(a.m[r][c] - a.m[c][r]) > 1.0e-5 * scale) return false;
  // Symmetrize exactly so that float noise in the input does not bias the rotation.
  for (int r = 0; r < 3; ++r)
    for (int c = r + 1; c < 3; ++c) a.m[r][c] = a.m[c][r] = 0.5 * (a.m[r][c] + a.m[c][r]);

  Mat3d v;
  jacobi_eigen(a, v);

  // Largest moment first; a fixed 3-element sorting network keeps ties in index order.
  int order[3] = {0, 1, 2};
  auto sort_pair = [&](int i, int j) {
    if (a.m[order[j]][order[j]] > a.m[order[i]][order[i]]) std::swap(order[i], order[j]);
  };
  sort_pair(0, 1);
  sort_pair(1, 2);
  sort_pair(0, 1);

  Mat3d axes;
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) axes.m[r][c] = v.m[r][order[c]];
  // Jacobi rotations keep det = +1, but the column permutation may flip it: make the frame
  // right-handed by negating the last axis (still an eigenvector).
  const double det = axes.m[0][0] * (axes.m[1][1] * axes.m[2][2] - axes.m[2][1] * axes.m[1][2]) -
                     axes.m[0][1] * (axes.m[1][0] * axes.m[2][2] - axes.m[2][0] * axes.m[1][2]) +
                     axes.m[0][2] * (axes.m[1][0] * axes.m[2][1] - axes.m[2][0] * axes.m[1][1]);
  if (det < 0.0)
    for (int r = 0; r < 3; ++r) axes.m[r][2] = -axes.m[r][2];

  out_rotation = Mat44::identity();
  store(axes, out_rotation);
  out_moments =
      Vec3(static_cast<float>(a.m[order[0]][order[0]]), static_cast<float>(a.m[order[1]][order[1]]),
           static_cast<float>(a.m[order[2]][order[2]]));
  return true;
}

MassProperties MassProperties::box(const Vec3& size, float density) {
  const double x = size.x(), y = size.y(), z = size.z();
  const double m = static_cast<double>(density) * x * y * z;
  MassProperties mp;
  mp.mass = static_cast<float>(m);
  mp.inertia.set(0, 0, static_cast<float>(m * (y * y + z * z) / 12.0));
  mp.inertia.set(1, 1, static_cast<float>(m * (x * x + z * z) / 12.0));
  mp.inertia.set(2, 2, static_cast<float>(m * (x * x + y * y) / 12.0));
  return mp;
}

}  // namespace atl
