#include "atoll/softbody/XpbdParts.h"

#include <string>

#include "atoll/math/Math.h"
#include "atoll/shape/Validation.h"

namespace atl {

Result<bool> solve_distance(Vec3& a, Vec3& b, float wa, float wb, float rest, float compliance,
                            float h, float& lambda) {
  constexpr const char* call = "solve_distance: ";
  const auto bad = [&](const char* field, const std::string& problem) {
    return Error(std::string(call) + field + ": " + problem);
  };
  if (!a.is_finite()) return bad("a", "must be finite");
  if (!b.is_finite()) return bad("b", "must be finite");
  if (!(std::isfinite(wa) && wa >= 0.0f))
    return bad("wa", "inverse mass must be finite and >= 0, got " + format_float(wa));
  if (!(std::isfinite(wb) && wb >= 0.0f))
    return bad("wb", "inverse mass must be finite and >= 0, got " + format_float(wb));
  if (!(std::isfinite(rest) && rest > 0.0f))
    return bad("rest", "rest length must be finite and > 0, got " + format_float(rest));
  if (!(std::isfinite(compliance) && compliance >= 0.0f))
    return bad("compliance", "must be finite and >= 0, got " + format_float(compliance));
  if (!(std::isfinite(h) && h > 0.0f))
    return bad("h", "the sub-step must be finite and > 0, got " + format_float(h));
  if (!std::isfinite(lambda)) return bad("lambda", "must be finite");
  const float alpha_tilde = compliance / (h * h);
  if (!std::isfinite(alpha_tilde))
    return bad("compliance", "compliance / h² is not representable: " + format_float(compliance) +
                                 " / " + format_float(h) + "²");
  Vec3 next_a = a, next_b = b;
  float next_lambda = lambda;
  if (!project_distance(next_a, next_b, wa, wb, rest, alpha_tilde, next_lambda)) return false;
  if (!next_a.is_finite() || !next_b.is_finite() || !std::isfinite(next_lambda))
    return Error(std::string(call) + "the result is not finite (nothing was changed)");
  a = next_a;
  b = next_b;
  lambda = next_lambda;
  return true;
}

namespace {

// The dihedral angle's pieces: the shared edge e = x1 − x0 and the two triangles' normals
// n1 = e × (x2 − x0), n2 = (x3 − x1) × e (not normalized).
struct Dihedral {
  Vec3 e, n1, n2;
  float angle;
};

Dihedral dihedral(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& x3) {
  Dihedral d;
  d.e = x1 - x0;
  d.n1 = d.e.cross(x2 - x0);
  d.n2 = (x3 - x1).cross(d.e);
  const float e_length = d.e.length();
  const float sin_part = e_length > 0.0f ? d.n1.cross(d.n2).dot(d.e) / e_length : 0.0f;
  d.angle = atan2(sin_part, d.n1.dot(d.n2));
  return d;
}

}  // namespace

float dihedral_angle(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& x3) {
  return dihedral(x0, x1, x2, x3).angle;
}

bool project_dihedral(Vec3& x0, Vec3& x1, Vec3& x2, Vec3& x3, float w0, float w1, float w2,
                      float w3, float rest_angle, float alpha_tilde, float& lambda) {
  if (w0 + w1 + w2 + w3 == 0.0f) return false;
  const Dihedral d = dihedral(x0, x1, x2, x3);
  const float e_length_sq = d.e.length_sq();
  const float n1_sq = d.n1.length_sq();
  const float n2_sq = d.n2.length_sq();
  // A degenerate triangle or edge has no defined angle.
  constexpr float k_min_sq = 1.0e-24f;
  if (!(e_length_sq > k_min_sq && n1_sq > k_min_sq && n2_sq > k_min_sq)) return false;
  const float e_length = std::sqrt(e_length_sq);
  // Gradients of the angle (Bridson, Marino and Fedkiw 2003, "Simulation of clothing with
  // folds and wrinkles", with this angle's sign): the wing tips move along their triangle's
  // normal, the edge's ends share the opposite, weighted by where the tips project onto the
  // edge; they sum to zero (checked against finite differences in XpbdPartsTest).
  const Vec3 u1 = d.n1 / n1_sq;
  const Vec3 u2 = d.n2 / n2_sq;
  const Vec3 g2 = u1 * -e_length;
  const Vec3 g3 = u2 * -e_length;
  const Vec3 g0 =
      (u1 * ((x2 - x1).dot(d.e) / e_length) + u2 * ((x3 - x1).dot(d.e) / e_length)) * -1.0f;
  const Vec3 g1 = u1 * ((x2 - x0).dot(d.e) / e_length) + u2 * ((x3 - x0).dot(d.e) / e_length);
  const float c = center_angle_around_zero(d.angle - rest_angle);
  const float denominator = w0 * g0.length_sq() + w1 * g1.length_sq() + w2 * g2.length_sq() +
                            w3 * g3.length_sq() + alpha_tilde;
  if (!(denominator > 0.0f)) return false;
  const float delta = (-c - alpha_tilde * lambda) / denominator;
  x0 += g0 * (w0 * delta);
  x1 += g1 * (w1 * delta);
  x2 += g2 * (w2 * delta);
  x3 += g3 * (w3 * delta);
  lambda += delta;
  return true;
}

float mesh_volume(std::span<const Vec3> x, std::span<const SoftBodyFace> faces) {
  float six_volume = 0.0f;
  for (const SoftBodyFace& f : faces) six_volume += x[f[0]].dot(x[f[1]].cross(x[f[2]]));
  return six_volume / 6.0f;
}

bool project_volume(std::span<Vec3> x, std::span<const float> w,
                    std::span<const SoftBodyFace> faces, float target_volume, float alpha_tilde,
                    float& lambda, std::span<Vec3> gradient) {
  for (Vec3& g : gradient) g = Vec3::zero();
  float six_volume = 0.0f;
  for (const SoftBodyFace& f : faces) {
    const Vec3& a = x[f[0]];
    const Vec3& b = x[f[1]];
    const Vec3& c = x[f[2]];
    six_volume += a.dot(b.cross(c));
    gradient[f[0]] += b.cross(c);
    gradient[f[1]] += c.cross(a);
    gradient[f[2]] += a.cross(b);
  }
  float denominator = alpha_tilde;
  bool movable = false;
  for (size_t i = 0; i < x.size(); ++i) {
    gradient[i] /= 6.0f;
    denominator += w[i] * gradient[i].length_sq();
    movable = movable || w[i] > 0.0f;
  }
  if (!movable || !(denominator > 0.0f)) return false;
  const float c = six_volume / 6.0f - target_volume;
  const float delta = (-c - alpha_tilde * lambda) / denominator;
  for (size_t i = 0; i < x.size(); ++i) x[i] += gradient[i] * (w[i] * delta);
  lambda += delta;
  return true;
}

}  // namespace atl
