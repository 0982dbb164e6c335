#pragma once
// The XPBD constraint projections of soft bodies (seed 002; LAWS.md G1–G3): each moves the
// predicted positions of its vertices toward C = 0 by
//
//   Δλ = (−C − α̃λ) / (Σ wᵢ|∇ᵢC|² + α̃),   xᵢ += wᵢ ∇ᵢC Δλ,   λ += Δλ,   α̃ = α / h²
//
// where α is the constraint's compliance (s²/kg for a distance: the inverse of a stiffness),
// h the real sub-step (s) and λ the constraint's own accumulated multiplier. λ belongs to one
// constraint, lives for one sub-step (the caller sets it to 0 at the sub-step's start, never
// between iterations) and is never shared: with it, a compliant constraint settles at
// C + α̃λ = 0 — the stretch its compliance allows — however many iterations run. Resetting it
// every iteration would converge to C = 0 instead, and make a rope stiffer with every extra
// iteration (1/3¹⁰ of the seed's stretch after ten).
//
// A pinned vertex (inverse mass w = 0) takes no motion; a constraint whose vertices are all
// pinned is skipped. The `project_…` functions are the solver's inner loop: they trust their
// inputs (SoftBody validated its settings and the step). `solve_distance` is the checked
// entry with the seed's contract: it validates, computes the candidate, checks it and only then
// commits, so that invalid input or an unrepresentable result leaves positions and λ as they
// were.

#include <array>
#include <cmath>
#include <cstdint>
#include <span>

#include "atoll/core/Result.h"
#include "atoll/math/Vec3.h"

namespace atl {

/// A triangle of a soft body's surface: three vertex indices, counter-clockwise seen from
/// outside (the outward normal is (x1 − x0) × (x2 − x0)).
using SoftBodyFace = std::array<uint32_t, 3>;

/// One projection of a distance constraint |b − a| = rest between two vertices with inverse
/// masses wa, wb (1/kg) and scaled compliance alpha_tilde = α / h². Skipped (false) when both
/// are pinned or the two vertices coincide (no direction to push along).
inline bool project_distance(Vec3& a, Vec3& b, float wa, float wb, float rest, float alpha_tilde,
                             float& lambda) {
  const float w = wa + wb;
  if (w == 0.0f) return false;
  const Vec3 d = b - a;
  const float length_sq = d.length_sq();
  if (!(length_sq > 1.0e-18f)) return false;
  const float length = std::sqrt(length_sq);
  const float c = length - rest;
  const float delta = (-c - alpha_tilde * lambda) / (w + alpha_tilde);
  // ∇_b C = d / |d| = −∇_a C.
  const Vec3 step = d * (delta / length);
  a -= step * wa;
  b += step * wb;
  lambda += delta;
  return true;
}

/// The seed's checked distance projection (LAWS.md G1–G3): validates every input (finite
/// positions; inverse masses and compliance finite and ≥ 0; rest length finite and > 0; h
/// finite and > 0), projects, checks the result, and only then writes `a`, `b` and `lambda`.
/// Error (nothing changed) for invalid input or a result that is not finite; false (nothing
/// changed) when both ends are pinned or coincide.
Result<bool> solve_distance(Vec3& a, Vec3& b, float wa, float wb, float rest, float compliance,
                            float h, float& lambda);

/// One projection of a dihedral bend constraint: the angle between the triangles (x0, x1, x2)
/// and (x1, x0, x3), which share the edge x0–x1, kept at `rest_angle` (radians, in [−π, π];
/// 0 = flat). Skipped (false) when all four are pinned or a triangle is degenerate.
bool project_dihedral(Vec3& x0, Vec3& x1, Vec3& x2, Vec3& x3, float w0, float w1, float w2,
                      float w3, float rest_angle, float alpha_tilde, float& lambda);

/// The dihedral angle (radians, in [−π, π]) of the triangles (x0, x1, x2) and (x1, x0, x3): 0
/// when they are coplanar and on opposite sides of their shared edge; negative when x3 lies on
/// the side the first triangle's normal (x1 − x0) × (x2 − x0) points to.
float dihedral_angle(const Vec3& x0, const Vec3& x1, const Vec3& x2, const Vec3& x3);

/// The volume (m³) a closed surface of outward-facing triangles encloses (negative when they
/// face inward).
float mesh_volume(std::span<const Vec3> x, std::span<const SoftBodyFace> faces);

/// One projection of a volume constraint on a closed surface: its volume kept at
/// `target_volume` (m³), each vertex moved along the gradient of the volume (the area-weighted
/// normals of its faces, / 3). `gradient` is scratch of one entry per vertex. Compliance in
/// m⁴·s²/kg. Skipped (false) when every vertex is pinned.
bool project_volume(std::span<Vec3> x, std::span<const float> w,
                    std::span<const SoftBodyFace> faces, float target_volume, float alpha_tilde,
                    float& lambda, std::span<Vec3> gradient);

/// One projection of a long-range attachment (a unilateral constraint): a vertex may be at most
/// `max_distance` (m) from its anchor, a pinned vertex; when it is farther it is put back on
/// that sphere. No compliance: it only keeps cloth from stretching away from its pins.
inline void project_long_range(Vec3& x, const Vec3& anchor, float max_distance) {
  const Vec3 d = x - anchor;
  const float length_sq = d.length_sq();
  if (length_sq <= max_distance * max_distance) return;
  x = anchor + d * (max_distance / std::sqrt(length_sq));
}

}  // namespace atl
