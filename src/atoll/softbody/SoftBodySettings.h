#pragma once
// What a soft body is made of (shared between the soft bodies made from it, like Jolt's
// SoftBodySharedSettings): vertices with inverse masses, and the XPBD constraints between them
// (softbody/XpbdParts.h) — edges (distances), bend edges (distances that resist bending, as a
// rope's second neighbours), dihedral bends (the angle between two triangles), long-range
// attachments (a vertex may not stray farther from a pinned one than it started) and a volume
// kept by a pressure factor over the closed surface of its faces. Built by hand, from faces
// (create_edges_from_faces, create_bends_from_faces) or by the generators of
// softbody/SoftBodyGenerators.h; validate() names the first bad field.
//
// Units: positions m, velocities m/s, inverse masses 1/kg (0 pins a vertex), compliances are
// inverse stiffnesses — s²/kg for distances, s²/(kg·m²) for dihedral bends, m⁴·s²/kg for the
// volume — 0 is rigid.

#include <cstdint>
#include <vector>

#include "atoll/core/Ref.h"
#include "atoll/core/Result.h"
#include "atoll/softbody/XpbdParts.h"

namespace atl {

struct SoftBodyVertex {
  /// Position (m, world space; each coordinate within ±k_max_position, as a body's).
  Vec3 position;
  /// Initial velocity (m/s).
  Vec3 velocity = Vec3::zero();
  /// 1 / mass (1/kg), finite and ≥ 0; 0 pins the vertex where it is.
  float inverse_mass = 1.0f;
};

/// A distance constraint between two vertices.
struct SoftBodyEdge {
  uint32_t vertex[2] = {0, 0};
  /// Rest length (m), finite and > 0 (compute_rest_values sets it from the positions).
  float rest_length = 0.0f;
  /// Compliance (s²/kg), finite and ≥ 0; 0 is inextensible.
  float compliance = 0.0f;
};

/// A dihedral bend: the angle between the triangles (v0, v1, v2) and (v1, v0, v3), which share
/// the edge v0–v1.
struct SoftBodyBend {
  uint32_t vertex[4] = {0, 0, 0, 0};
  /// Rest angle (radians, in [−π, π]; 0 = flat; compute_rest_values sets it).
  float rest_angle = 0.0f;
  /// Compliance (s²/(kg·m²)), finite and ≥ 0.
  float compliance = 0.0f;
};

/// A long-range attachment: `vertex` stays within `max_distance` of the pinned `anchor`.
struct SoftBodyLongRangeAttachment {
  uint32_t vertex = 0;
  uint32_t anchor = 0;
  /// Largest distance (m), finite and ≥ 0.
  float max_distance = 0.0f;
};

class SoftBodySettings : public RefTarget<SoftBodySettings> {
 public:
  std::vector<SoftBodyVertex> vertices;
  /// Structural edges: the soft body's max_strain measures them.
  std::vector<SoftBodyEdge> edges;
  /// Distance constraints that resist bending (a rope's vertices two apart).
  std::vector<SoftBodyEdge> bend_edges;
  std::vector<SoftBodyBend> bends;
  std::vector<SoftBodyLongRangeAttachment> long_range;
  /// Surface triangles (collision and rendering; the volume constraint's closed surface),
  /// counter-clockwise seen from outside.
  std::vector<SoftBodyFace> faces;

  /// Whether the volume the faces enclose is kept at pressure × rest_volume.
  bool keep_volume = false;
  /// Target volume as a multiple of the rest volume (> 0; 1 keeps the rest volume, more
  /// inflates the body: the overpressure factor of Müller et al.'s position-based balloons).
  float pressure = 1.0f;
  /// Compliance of the volume constraint (m⁴·s²/kg, ≥ 0; 0 holds the target volume).
  float volume_compliance = 0.0f;
  /// Volume (m³) the faces enclose at rest (> 0 when keep_volume; compute_rest_values sets it).
  float rest_volume = 0.0f;

  /// Largest vertex_radius (m): a vertex is a small sphere, not a body.
  static constexpr float k_max_vertex_radius = 100.0f;
  /// Collision radius of every vertex (m, in [0, k_max_vertex_radius]).
  float vertex_radius = 0.02f;
  /// Friction coefficient of the vertices against rigid shapes (≥ 0), combined with the
  /// shape's as sqrt(a·b).
  float friction = 0.5f;
  /// Linear damping of the vertices' velocities (1/s, ≥ 0): v *= max(0, 1 − damping · h) per
  /// sub-step. 0 conserves energy up to the solver's own dissipation.
  float linear_damping = 0.05f;

  /// Adds one edge per distinct edge of the faces (in the order the faces name them) with
  /// `compliance` (s²/kg); rest lengths from the positions.
  void create_edges_from_faces(float compliance);
  /// Adds a dihedral bend for every edge shared by two faces, with `compliance`
  /// (s²/(kg·m²)); rest angles from the positions.
  void create_bends_from_faces(float compliance);
  /// Adds a long-range attachment from every free vertex to its nearest pinned vertex
  /// (straight-line distance at rest; ties to the lower index), allowed to stretch by
  /// `max_stretch` (a fraction, ≥ 0). None when no vertex is pinned.
  void create_long_range_attachments(float max_stretch = 0.0f);
  /// Sets every rest length, rest angle and the rest volume from the vertices' positions.
  void compute_rest_values();

  /// Whether the faces form a closed surface: every edge of a face is shared by exactly two
  /// faces (false without faces). Only a closed surface encloses a volume.
  bool is_closed() const;
  /// Total mass (kg) of the free vertices.
  float total_mass() const;
  /// Checks every field; the error names the first bad one ("edges[3].vertex[1]: vertex 12
  /// out of range (10 vertices)").
  Status validate() const;
};

}  // namespace atl
