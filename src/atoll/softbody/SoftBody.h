#pragma once
// A soft body's simulation state and its XPBD step (seed 002; LAWS.md G1–G3). A step of dt
// runs `substeps` sub-steps of the real h = dt / substeps, each:
//
//   1. begin_substep  — every constraint's λ set to 0 (the only place λ is reset);
//   2. predict        — free vertices: v += h·g, x_prev = x, x += h·v (pinned ones stay);
//   3. project        — `iterations` passes over the constraints in a fixed order: edges,
//                       bend edges, dihedral bends, the volume, then long-range attachments;
//   4. finish_substep — v = (x − x_prev) / h, then damping v *= max(0, 1 − damping·h).
//
// λ lives in the soft body, one per constraint, for one sub-step: more iterations converge to
// the stretch the compliance allows (C + α̃λ = 0) instead of stiffening the material.
//
// A step checks its inputs before changing anything and commits only a finite result: when it
// fails, positions and velocities are as they were (seed 002's atomic commit).

#include <memory>
#include <span>
#include <vector>

#include "atoll/geometry/AABox.h"
#include "atoll/math/Mat44.h"
#include "atoll/shape/Shape.h"
#include "atoll/softbody/SoftBodySettings.h"

namespace atl {

/// A rigid shape a soft body's vertices collide with during a step (the world gathers the
/// bodies near the soft body). The vertices are spheres of the settings' vertex_radius; each
/// takes the deepest contact it finds at the step's start, and its deepest with a second
/// collider (a cloth between a box and the floor), as planes that move with their colliders,
/// is kept out of them every iteration and slides on them with Coulomb friction. A
/// static or kinematic collider (inverse_mass 0) moves at its velocity and is not pushed. A
/// dynamic one is pushed within the step: after each sub-step's iterations the vertices' pushes
/// and the pulls of the vertices tied to it are shared between vertex and collider by their
/// inverse masses (the collider's at the point, its inertia included), and the collider's
/// velocity and pose for the later sub-steps change at once. (Pushed only a step later, a body
/// lighter than about ten vertices tied to a rope was thrown further each step: a rope bridge
/// of 2.5 kg planks exploded.) The impulse the vertices gave it comes back in `impulse` /
/// `angular_impulse` for the caller to apply. Not owned; must outlive the step.
struct SoftBodyCollider {
  const Shape* shape = nullptr;
  /// Where the shape is (a rotation and translation, world space).
  Mat44 transform;
  /// The collider's centre of mass (m, world space); angular velocity and impulses are about it.
  Vec3 center_of_mass = Vec3::zero();
  Vec3 linear_velocity = Vec3::zero();
  Vec3 angular_velocity = Vec3::zero();
  /// Acceleration (m/s², finite) and angular acceleration (rad/s², finite) the rest of the world
  /// gives a dynamic collider over a step — gravity and whatever else holds it (constraints,
  /// contacts), without the soft bodies — as last measured (SoftBodyManager). The step moves
  /// the collider with them, so that vertices holding a body up hold its weight within the
  /// step while a body held by something else stays held. (Without them, a plank resting on a
  /// rope sank by g·dt² each step and the correction that pushed it back became velocity: the
  /// lighter the plank, the faster it was thrown about. With gravity alone, a box hanging from
  /// a rod was expected to fall away from the cloth lying on it, and threw the cloth off.)
  /// Ignored for a static or kinematic collider.
  Vec3 acceleration = Vec3::zero();
  Vec3 angular_acceleration = Vec3::zero();
  /// Friction coefficient (≥ 0), combined with the soft body's as sqrt(a·b).
  float friction = 0.5f;
  /// 1 / mass (1/kg, finite, ≥ 0) and the inverse inertia about the centre of mass (world
  /// space, 1/(kg·m²); its 3 × 3 part is used) of a dynamic collider; 0 for one the vertices
  /// cannot move (static, kinematic).
  float inverse_mass = 0.0f;
  Mat44 inverse_inertia = Mat44::zero();
  /// Out: the impulse (N·s) and angular impulse about the centre of mass (N·m·s) the step's
  /// vertices gave the collider (contacts and attachments). Added to, not reset.
  Vec3 impulse = Vec3::zero();
  Vec3 angular_impulse = Vec3::zero();
};

/// A free vertex tied to a point of a collider: it follows the point, and pulls the collider
/// by what its constraints pull it with (a rope tied to a crate).
struct SoftBodyAttachment {
  uint32_t vertex = 0;
  /// Index in the step's colliders.
  uint32_t collider = 0;
  /// The point in the collider's shape space (its transform's local space).
  Vec3 local_point = Vec3::zero();
};

/// How a soft body steps.
struct SoftBodyStepSettings {
  /// Sub-steps per step (≥ 1): more shortens h, which stiffens nothing (compliance is scaled by
  /// h²) but resolves fast motion and collisions better, at their cost.
  int substeps = 4;
  /// Constraint iterations per sub-step (≥ 1): more converges a chain of constraints further
  /// (each alone is solved in one), at their cost.
  int iterations = 4;
  /// Gravity (m/s²), finite.
  Vec3 gravity{0.0f, -9.81f, 0.0f};
};

class SoftBody {
 public:
  /// A soft body at the settings' vertices. Error (the first bad field) when the settings are
  /// invalid.
  static Result<std::unique_ptr<SoftBody>> create(Ref<const SoftBodySettings> settings);

  const SoftBodySettings& settings() const { return *settings_; }

  /// Advances by dt (s, finite, > 0), colliding with `colliders` and moving the attached
  /// vertices with theirs. Error, nothing changed (the colliders' impulses included): an
  /// invalid dt, step setting, collider or attachment, or a result that is not finite.
  Status step(float dt, const SoftBodyStepSettings& step_settings,
              std::span<SoftBodyCollider> colliders = {},
              std::span<const SoftBodyAttachment> attachments = {});

  // --- The sub-step's parts, for tests of the solver (step runs them) -------------------------

  /// Sets every constraint's λ to 0.
  void begin_substep();
  /// Integrates the free vertices' velocities with `gravity` over h and predicts positions.
  void predict(float h, const Vec3& gravity);
  /// One pass over every constraint with sub-step h.
  void project(float h);
  /// Velocities from the sub-step's motion, then damping.
  void finish_substep(float h);
  /// Number of vertices that found a collider at the last step's start.
  uint32_t num_contacts() const;

  // --- State and measures -----------------------------------------------------------------------

  uint32_t vertex_count() const { return uint32_t(x_.size()); }
  std::span<const Vec3> positions() const { return x_; }
  std::span<const Vec3> velocities() const { return v_; }
  /// Sets a vertex's position (m) and velocity (m/s); error for an index out of range or a
  /// value that is not finite.
  Status set_vertex(uint32_t index, const Vec3& position, const Vec3& velocity);
  /// The accumulated λ of every edge, then every bend edge, dihedral bend and the volume (the
  /// solver's state within a sub-step).
  std::span<const float> lambdas() const { return lambda_; }

  /// Mass-weighted centre of the free vertices (m); the mean of all when every one is pinned.
  Vec3 center_of_mass() const;
  /// Mass-weighted mean velocity of the free vertices (m/s; 0 when every one is pinned).
  Vec3 linear_velocity() const;
  /// Bounds of the vertices (m), without their radius.
  AABox bounds() const;
  /// Largest (length − rest) / rest over the structural edges (0 without edges).
  float max_strain() const;
  /// Volume the faces enclose (m³; 0 when they are not a closed surface: a cloth, a sheet).
  float volume() const;
  /// Kinetic energy of the free vertices (J).
  float kinetic_energy() const;

  // --- Queries (world/WorldQuery.h) -------------------------------------------------------------
  // A query sees the soft body as its faces (thin, two-sided), its vertices as spheres of
  // vertex_radius and its structural edges as capsules of that radius, and, when its faces are
  // a closed surface, the volume they enclose. (Its contacts with rigid shapes are the vertex
  // spheres alone.) Each query costs one test per face, edge and vertex.

  /// Smallest sphere a vertex is collided as (m; a vertex radius of 0 still needs a shape).
  static constexpr float k_min_vertex_sphere_radius = 1.0e-3f;
  /// Radius of the sphere each vertex collides as (m): vertex_radius, at least
  /// k_min_vertex_sphere_radius.
  float vertex_sphere_radius() const {
    return settings_->vertex_radius > k_min_vertex_sphere_radius ? settings_->vertex_radius
                                                                 : k_min_vertex_sphere_radius;
  }
  /// First hit fraction t ≥ 0 of the ray origin + t·direction against the soft body (0 when
  /// the origin is inside), k_float_max when it misses. `normal` (when not null) takes the
  /// unit normal of the surface hit: a face's turned toward the ray's origin, a vertex
  /// sphere's or edge capsule's outward one (−direction, normalized, from inside).
  float cast_ray(const Vec3& origin, const Vec3& direction, Vec3* normal = nullptr) const;
  /// Whether `point` (m) is within vertex_radius of a vertex or structural edge, or inside the
  /// closed surface of the faces.
  bool contains_point(const Vec3& point) const;
  /// Potential energy of the free vertices in `gravity` (J), relative to the origin.
  float potential_energy(const Vec3& gravity) const;

 private:
  explicit SoftBody(Ref<const SoftBodySettings> settings);

  Ref<const SoftBodySettings> settings_;
  std::vector<Vec3> x_;
  std::vector<Vec3> previous_x_;
  std::vector<Vec3> v_;
  std::vector<float> w_;
  // λ of edges, bend edges, bends, then the volume, in that order.
  std::vector<float> lambda_;
  // A vertex's contact of this step: the plane (normal n out of the collider, through `point`
  // at the step's start, moving with the collider) it is kept out of.
  struct Contact {
    int32_t collider = -1;
    Vec3 normal;
    Vec3 point;
    float friction = 0.0f;
  };
  // A collider as the step moves it: its velocities now, and its displacement and (small)
  // rotation since the step's start, up to the current sub-step's end.
  struct Moving {
    Vec3 center_of_mass;
    Vec3 linear_velocity, angular_velocity;
    Vec3 acceleration, angular_acceleration;
    Vec3 offset, turn;
    float inverse_mass = 0.0f;
    Mat44 inverse_inertia;
    // Where `point` (world space at the step's start) is now.
    Vec3 at(const Vec3& point) const { return point + offset + turn.cross(point - center_of_mass); }
    // The velocity of the collider's point that was at `point` at the step's start.
    Vec3 velocity_at(const Vec3& point) const {
      return linear_velocity + angular_velocity.cross(point - center_of_mass);
    }
  };
  // Contacts a vertex keeps in a step: the deepest, and the deepest with another collider.
  static constexpr size_t k_contacts_per_vertex = 2;
  // Finds each free vertex's contacts among the colliders.
  void find_contacts(float dt, std::span<const SoftBodyCollider> colliders);
  // Keeps the vertices out of their planes where the colliders are now; adds each push to
  // its contact's `pushed_` and its normal part to `depth_`.
  void project_contacts();
  // Coulomb friction on the sub-step's motion relative to the planes.
  void apply_friction(float h);
  // Shares the correction `move` (m) the vertex `vertex` was given against collider `c` at
  // `point` (world space at the step's start) between them by their inverse masses: the vertex
  // keeps its part (it is moved back by the rest), the collider is moved by the rest and its
  // velocity changes by it over h. Returns the impulse (N·s) the collider got.
  Vec3 share(uint32_t vertex, uint32_t c, const Vec3& move, const Vec3& point, float h);

  // Scratch of the volume projection and of the step's atomic commit.
  std::vector<Vec3> volume_gradient_;
  // The faces are a closed surface (SoftBodySettings::is_closed): volume() is meaningful.
  bool closed_ = false;
  std::vector<Vec3> saved_x_, saved_v_;
  // The step's contacts (k_contacts_per_vertex per vertex, in vertex order; collider −1 for
  // none), and per sub-step each contact's push of its vertex by the plane and friction (m)
  // and the normal depth it pushed it out by (m).
  std::vector<Contact> contacts_;
  std::vector<Vec3> pushed_;
  std::vector<float> depth_;
  // Where each attachment's point was at the step's start, and where its vertex is held this
  // sub-step.
  std::vector<Vec3> anchors_, targets_;
  // Whether a vertex is attached this step.
  std::vector<uint8_t> attached_;
  // The impulses of this step, per collider, until the step commits.
  std::vector<Vec3> impulses_, angular_impulses_;
  // The colliders as the step moves them.
  std::vector<Moving> moving_;
};

}  // namespace atl
