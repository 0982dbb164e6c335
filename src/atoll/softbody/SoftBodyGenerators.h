#pragma once
// Soft bodies made from a few numbers (the scene file's `rope`, `cloth` and `pressure_ball`,
// docs/scene-format.md): each validates its parameters (the error names the parameter) and
// returns finished settings — rest lengths, angles and volume computed — that the caller may
// still pin (an inverse mass of 0) before validating them again.

#include <cstdint>

#include "atoll/softbody/SoftBodySettings.h"

namespace atl {

/// A rope of `segments` (≥ 1) equal segments from `from` to `to` (m, not equal): segments + 1
/// vertices sharing `mass` (kg, > 0), an edge per segment of `compliance` (s²/kg) and a bend
/// edge between vertices two apart of `bend_compliance` (s²/kg); vertex radius `radius` (m).
Result<Ref<SoftBodySettings>> make_rope(const Vec3& from, const Vec3& to, uint32_t segments,
                                        float mass, float compliance, float bend_compliance,
                                        float radius);

/// A horizontal sheet centred at `center` (m), `width` × `depth` (m, along x and z, > 0), with
/// `nx` × `nz` vertices (each ≥ 2) sharing `mass` (kg, > 0): two triangles per cell facing up
/// (+y), an edge per triangle side of `compliance` (s²/kg) and a dihedral bend across every
/// inner edge of `bend_compliance` (s²/(kg·m²)). Vertex i·nx + j is column j (x) of row i (z).
Result<Ref<SoftBodySettings>> make_cloth(const Vec3& center, float width, float depth, uint32_t nx,
                                         uint32_t nz, float mass, float compliance,
                                         float bend_compliance);

/// A sphere of `radius` (m, > 0) at `center`: an icosahedron subdivided `subdivisions` times
/// (0–5; 12, 42, 162, 642, 2562, 10242 vertices) sharing `mass` (kg, > 0), an edge per
/// triangle side of `compliance` (s²/kg), and its volume kept at `pressure` (> 0) times the
/// rest volume.
Result<Ref<SoftBodySettings>> make_pressure_ball(const Vec3& center, float radius,
                                                 uint32_t subdivisions, float mass, float pressure,
                                                 float compliance);

}  // namespace atl
