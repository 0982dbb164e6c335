#include "atoll/constraint/parts/FaceContactPart.h"

namespace atl {

namespace {

double det3(const double m[3][3]) {
  return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
         m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
         m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

}  // namespace

void FaceContactPart::calculate_constraint_properties(const SolverBody& body1,
                                                      const SolverBody& body2, const Vec3* r1,
                                                      const Vec3* r2, const float* targets,
                                                      uint32_t num_points, const Vec3& normal,
                                                      const Vec3& t1, const Vec3& t2,
                                                      const InverseMassScales& scales) {
  num_points_ = 0;
  if (num_points < 3 || num_points > k_max_points) return;
  const float inv_n = 1.0f / static_cast<float>(num_points);

  // Face coordinates of the points around their centroid.
  Vec3 centroid1;
  Vec3 centroid2;
  for (uint32_t i = 0; i < num_points; ++i) {
    centroid1 += r1[i];
    centroid2 += r2[i];
  }
  centroid1 *= inv_n;
  centroid2 *= inv_n;
  float sxx = 0.0f;
  float sxy = 0.0f;
  float syy = 0.0f;
  for (uint32_t i = 0; i < num_points; ++i) {
    const Vec3 d = r1[i] - centroid1;
    offset_[i][0] = d.dot(t1);
    offset_[i][1] = d.dot(t2);
    sxx += offset_[i][0] * offset_[i][0];
    sxy += offset_[i][0] * offset_[i][1];
    syy += offset_[i][1] * offset_[i][1];
  }
  const float trace = sxx + syy;
  const float det = sxx * syy - sxy * sxy;
  if (trace < k_min_face_spread_sq || det < k_min_face_flatness * trace * trace) return;
  // (D·Dᵀ) = diag(n, S) because the offsets sum to zero; S⁻¹ in closed form.
  const float inv_det = 1.0f / det;
  const float s_inv[2][2] = {{syy * inv_det, -sxy * inv_det}, {-sxy * inv_det, sxx * inv_det}};

  // Targets: mean push and tilt rates of the least-squares affine fit, which must be exact.
  float mean_target = 0.0f;
  float moment_x = 0.0f;
  float moment_y = 0.0f;
  for (uint32_t i = 0; i < num_points; ++i) {
    mean_target += targets[i];
    moment_x += targets[i] * offset_[i][0];
    moment_y += targets[i] * offset_[i][1];
  }
  target_[0] = mean_target * inv_n;
  target_[1] = s_inv[0][0] * moment_x + s_inv[0][1] * moment_y;
  target_[2] = s_inv[1][0] * moment_x + s_inv[1][1] * moment_y;
  for (uint32_t i = 0; i < num_points; ++i) {
    const float fit = target_[0] + offset_[i][0] * target_[1] + offset_[i][1] * target_[2];
    if (std::fabs(fit - targets[i]) > k_max_target_misfit) return;
  }

  // Rows: a point's r × n is (centroid × n) + dx (t1 × n) + dy (t2 × n); the normal offset
  // between the points on body 1 and body 2 drops out of the cross product.
  const Vec3 angular1[3] = {centroid1.cross(normal), t1.cross(normal), t2.cross(normal)};
  const Vec3 angular2[3] = {centroid2.cross(normal), angular1[1], angular1[2]};
  const Vec3 linear1 = body1.inv_mass * normal * scales.inv_mass1;
  const Vec3 linear2 = body2.inv_mass * normal * scales.inv_mass2;
  Vec3 inv_i_angular1[3];
  Vec3 inv_i_angular2[3];
  for (int k = 0; k < 3; ++k) {
    inv_i_angular1[k] = body1.inv_inertia.multiply3x3(angular1[k]) * scales.inv_inertia1;
    inv_i_angular2[k] = body2.inv_inertia.multiply3x3(angular2[k]) * scales.inv_inertia2;
  }
  normal_ = normal.to_float3();
  angular2_ = angular2[0].to_float3();
  linear1_ = linear1.to_float3();
  linear2_ = linear2.to_float3();
  for (int k = 0; k < 3; ++k) {
    angular1_[k] = angular1[k].to_float3();
    inv_i_angular1_[k] = inv_i_angular1[k].to_float3();
    inv_i_angular2_[k] = inv_i_angular2[k].to_float3();
  }

  float dots1[3][3];
  float dots2[3][3];
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l) {
      dots1[k][l] = angular1[k].dot(inv_i_angular1[l]);
      dots2[k][l] = angular2[k].dot(inv_i_angular2[l]);
    }
  if (!invert_block(dots1, dots2, normal.dot(linear1 + linear2), a_, inv_a_)) return;

  // Generalised impulse (push, moment about t1, moment about t2) → point impulses, with the
  // least change: λ = Dᵀ (D Dᵀ)⁻¹ P.
  for (uint32_t i = 0; i < num_points; ++i) {
    distribute_[i][0] = inv_n;
    distribute_[i][1] = s_inv[0][0] * offset_[i][0] + s_inv[0][1] * offset_[i][1];
    distribute_[i][2] = s_inv[1][0] * offset_[i][0] + s_inv[1][1] * offset_[i][1];
  }

  // Four points carry one more unknown than the three degrees of freedom: the null vector z
  // (D z = 0) shifts load between diagonal corners without moving anything. Its entries are
  // the signed 3×3 minors of D.
  null_[0] = null_[1] = null_[2] = null_[3] = 0.0f;
  if (num_points == 4) null_vector(offset_, null_);
  num_points_ = num_points;
}

bool FaceContactPart::invert_block(const float (&dots1)[3][3], const float (&dots2)[3][3],
                                   float linear, float (&a_out)[3][3], float (&inv_a_out)[3][3]) {
  // A = J M⁻¹ Jᵀ over the three rows, inverted in double: tall boxes on light ones make it
  // poorly scaled, and it is computed once per step.
  double a[3][3];
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l) {
      double value = static_cast<double>(dots1[k][l]) + static_cast<double>(dots2[k][l]);
      if (k == 0 && l == 0) value += static_cast<double>(linear);
      a[k][l] = value;
    }
  const double det_a = det3(a);
  // Singular when the bodies cannot tilt (rotation locked by allowed DOFs, or both immovable).
  if (!(a[0][0] > 0.0 && a[1][1] > 0.0 && a[2][2] > 0.0) ||
      det_a <= 1.0e-6 * a[0][0] * a[1][1] * a[2][2])
    return false;
  const double inv_det_a = 1.0 / det_a;
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l) {
      // Cofactor (l, k) / det: the inverse is the transposed cofactor matrix over det.
      const int r0 = (l + 1) % 3, r1i = (l + 2) % 3, c0 = (k + 1) % 3, c1 = (k + 2) % 3;
      inv_a_out[k][l] =
          static_cast<float>((a[r0][c0] * a[r1i][c1] - a[r0][c1] * a[r1i][c0]) * inv_det_a);
      a_out[k][l] = static_cast<float>(a[k][l]);
    }
  return true;
}

void FaceContactPart::null_vector(const float (&offset)[k_max_points][2],
                                  float (&null)[k_max_points]) {
  // Four points carry one more unknown than the three degrees of freedom: the null vector z
  // (D z = 0) shifts load between diagonal corners without moving anything. Its entries are
  // the signed 3×3 minors of D.
  float largest = 0.0f;
  for (uint32_t i = 0; i < 4; ++i) {
    double m[3][3];
    int column = 0;
    for (uint32_t j = 0; j < 4; ++j) {
      if (j == i) continue;
      m[0][column] = 1.0;
      m[1][column] = offset[j][0];
      m[2][column] = offset[j][1];
      ++column;
    }
    null[i] = static_cast<float>((i % 2 == 0 ? 1.0 : -1.0) * det3(m));
    largest = std::max(largest, std::fabs(null[i]));
  }
  for (uint32_t i = 0; i < 4; ++i) null[i] /= largest;
}

void FaceContactPart::generalised_velocity(const SolverBody& body1, const SolverBody& body2,
                                           float g[3]) const {
  const Vec3 dv = body2.linear_velocity - body1.linear_velocity;
  g[0] = Vec3(normal_).dot(dv) + Vec3(angular2_).dot(body2.angular_velocity) -
         Vec3(angular1_[0]).dot(body1.angular_velocity);
  const Vec3 dw = body2.angular_velocity - body1.angular_velocity;
  g[1] = Vec3(angular1_[1]).dot(dw);
  g[2] = Vec3(angular1_[2]).dot(dw);
}

FaceContactPart::Outcome FaceContactPart::solve_velocity_constraint(SolverBody& body1,
                                                                    SolverBody& body2,
                                                                    float* lambdas) const {
  float g[3];
  generalised_velocity(body1, body2, g);
  const float error[3] = {target_[0] - g[0], target_[1] - g[1], target_[2] - g[2]};
  float impulse[3];
  for (int k = 0; k < 3; ++k)
    impulse[k] = inv_a_[k][0] * error[0] + inv_a_[k][1] * error[1] + inv_a_[k][2] * error[2];

  // A body whose state is already non-finite gives a non-finite impulse; applying it would
  // spread the NaN to the other body (even to a static one, through 0 · NaN, whose solver entry
  // every island touching it shares). Leave it alone: the world quarantines it after the step.
  if (!is_finite(impulse[0]) || !is_finite(impulse[1]) || !is_finite(impulse[2]))
    return Outcome::Settled;

  float new_lambdas[k_max_points];
  if (!push_only_lambdas(impulse, lambdas, new_lambdas)) return Outcome::NotPushOnly;
  return apply_lambdas(body1, body2, lambdas, new_lambdas);
}

void FaceContactPart::velocity_error(const SolverBody& body1, const SolverBody& body2,
                                     float out[3]) const {
  float g[3];
  generalised_velocity(body1, body2, g);
  for (int k = 0; k < 3; ++k) out[k] = target_[k] - g[k];
}

void FaceContactPart::effective_mass(double out[3][3]) const {
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l) out[k][l] = static_cast<double>(a_[k][l]);
}

void FaceContactPart::coupling(bool via_body2, const FaceContactPart& other, bool other_via_body2,
                               double out[3][3]) const {
  // Row k of this block's Jacobian on the shared body is ±[lin_k, ang_k] (+ on body 2); the
  // other block's M⁻¹Jᵀ on that body is ±[M⁻¹ lin_l, I⁻¹ ang_l].
  const Vec3 other_linear(other_via_body2 ? other.linear2_ : other.linear1_);
  const Float3* other_inv_i_angular =
      other_via_body2 ? other.inv_i_angular2_ : other.inv_i_angular1_;
  const double sign = via_body2 == other_via_body2 ? 1.0 : -1.0;
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l) {
      const Vec3 angular = via_body2 ? angular2(k) : Vec3(angular1_[k]);
      double value = static_cast<double>(angular.dot(Vec3(other_inv_i_angular[l])));
      if (k == 0 && l == 0) value += static_cast<double>(Vec3(normal_).dot(other_linear));
      out[k][l] = sign * value;
    }
}

}  // namespace atl
