#pragma once
// Eight manifold contacts solved at once, one per SIMD lane (math/Lanes.h): the wide form of
// the contact solver's velocity iteration for contacts with manifold friction (seed 000 §4.1).
// Box2D v3 solves the contacts of one graph colour four or eight at a time in SIMD lanes; Atoll
// does the same with the splits of the large-island splitter (solver/LargeIslandSplitter.h),
// whose contacts share no moving body, so that eight of them can be solved side by side and the
// result is the one of solving them one after the other in any order.
//
// Each lane does exactly what the scalar solve does for its contact, in the same order
// (solver/ContactConstraintManager.cpp, solve_velocity_constraints): in the first iteration a
// contact without normal impulse yet solves its normals first; then the two friction rows at
// the manifold's mean point, clamped together to μ·Σλ (each point's λ counted as the larger of
// the accumulated one and the one its normal row is about to reach), and the twist row about
// the normal, bounded by μ·Σ(lever·λ); then the non-penetration — as the face block of
// FaceContactPart when the contact has one and its step pushes at every point, else point by
// point. Warm start too is done in lanes, as the scalar parts do it. A lane is set up in lanes
// with the others of its block (setup), or takes its data from the contact's scalar parts once
// they are set up (set_lane), and gives the accumulated impulses back for the impulse cache
// after the last iteration.
//
// Branches become masks: every lane computes both the face block and the point rows, and each
// keeps the result its contact's scalar solve would have used; a lane's result is the scalar
// one to float round-off (the compiler fuses other multiply-adds, and a contact with a face
// block keeps only the block's rows, from which its points' rows are made). A lane holds each
// body's scaled inverse inertia (6 numbers: it is symmetric) and turns a row's angular impulse
// into a change of angular velocity with it as the solve goes, where the scalar parts store
// I⁻¹·(r × axis) for every row: 114 numbers per lane instead of 146 (the pyramid's 8 400 contacts
// in 3.8 MB instead of 4.9), and the solve, bound by memory, streams a fifth less per iteration
// for a few more multiply-adds. A lane without a contact has no points, no friction and no
// face, and applies nothing. Every number in a block stays finite (drop_non_finite): rows of
// empty lanes and points are multiplied by zero impulses.

#include <cstdint>
#include <span>

#include "atoll/constraint/SolverBody.h"
#include "atoll/constraint/parts/AngularFrictionPart.h"
#include "atoll/constraint/parts/AxisConstraintPart.h"
#include "atoll/constraint/parts/FaceContactPart.h"
#include "atoll/math/Lanes.h"

namespace atl {

struct ContactBodyLanes;  // one side of a block's contacts, for setup (ContactLanes.cpp)

class ContactLanes {
 public:
  static constexpr uint32_t k_width = Lanes::k_width;
  static constexpr uint32_t k_max_points = FaceContactPart::k_max_points;

  /// One contact's set-up parts, as the scalar solver holds them.
  struct Source {
    /// Solver body indices, and whether the solve may write each body (an immovable body is
    /// read, never written: SolverBody.h).
    uint32_t body1 = 0;
    uint32_t body2 = 0;
    bool write1 = false;
    bool write2 = false;
    uint32_t num_points = 0;
    /// Contact normal and tangents (world, unit).
    Vec3 normal;
    Vec3 tangent1;
    Vec3 tangent2;
    /// Friction coefficient (0: no friction rows are solved).
    float friction = 0.0f;
    /// The bodies' inverse masses (SolverBody::inv_mass) and world inverse inertias
    /// (SolverBody::inv_inertia, symmetric), and the contact's scales of them.
    Vec3 inv_mass1;
    Vec3 inv_mass2;
    const Mat44* inv_inertia1 = nullptr;
    const Mat44* inv_inertia2 = nullptr;
    InverseMassScales scales;
    /// num_points non-penetration rows (hard, λ ≥ 0).
    const AxisConstraintPart* normal_rows = nullptr;
    /// Each point's distance from the mean point in the contact plane (m).
    const float* twist_lever = nullptr;
    /// Manifold friction rows along tangent1 and tangent2, and the twist row about the normal.
    const AxisConstraintPart* friction1 = nullptr;
    const AxisConstraintPart* friction2 = nullptr;
    const AngularFrictionPart* twist = nullptr;
    /// The face block (used when active).
    const FaceContactPart* face = nullptr;
  };

  /// Fills lane `lane` from `source`. Call drop_non_finite once the block is filled.
  void set_lane(uint32_t lane, const Source& source);

  /// What setup() reads of each lane's contact: its bodies, its manifold in its bodies' frames
  /// and last step's impulses (the impulse cache's), put lane by lane.
  struct SetupInputs {
    /// Solver body indices.
    uint32_t body1[k_width] = {};
    uint32_t body2[k_width] = {};
    /// As a float; 0 for an empty lane, which solves nothing.
    LaneFloats num_points;
    /// Friction coefficient (0: no friction rows are solved).
    LaneFloats friction;
    /// The contact's InverseMassScales.
    LaneFloats inv_mass_scale1, inv_inertia_scale1, inv_mass_scale2, inv_inertia_scale2;
    /// The normal in body 1's rotation frame (the world normal is made unit from it).
    LaneFloat3s local_normal;
    /// Each point from body 1's / body 2's centre of mass, in that body's rotation frame.
    LaneFloat3s local_on_1[k_max_points];
    LaneFloat3s local_on_2[k_max_points];
    /// Accumulated impulses of last step: each point's normal one (N·s), the manifold
    /// friction rows' (N·s) and the twist row's (N·m·s).
    LaneFloats normal_lambda[k_max_points];
    LaneFloats friction_lambda1, friction_lambda2, twist_lambda;
    /// Restitution (0: none). A lane with restitution also needs its bodies' velocities now
    /// and before this step's forces (m/s, rad/s), for its bounce target; no other lane's are
    /// read.
    LaneFloats restitution;
    LaneFloat3s linear1, angular1, linear2, angular2;
    LaneFloat3s linear1_before, angular1_before, linear2_before, angular2_before;
    /// PhysicsSettings::min_velocity_for_restitution (m/s), for every lane.
    float min_velocity_for_restitution = 0.0f;
    /// Makes lane `lane` empty.
    void clear_lane(uint32_t lane);
  };
  /// Sets up every lane from `in`, eight contacts at a time: what the scalar setup of a contact
  /// without surface velocity computes and set_lane then copies
  /// (solver/ContactConstraintManager.cpp, setup_velocity_constraints; seed 000 §3, §4.1, §7):
  /// the world normal and tangents, each point's non-penetration row with its speculative or
  /// bounce target, manifold friction and twist at the mean point, the face block (with
  /// `face_block`, of the lanes with 3 or 4 points; its 3×3 inverse and null vector are made lane
  /// by lane, in double, by FaceContactPart) and last step's impulses. The lanes do the scalar
  /// parts' operations in their order: where the compiler fuses no multiply-add (a cross-platform
  /// deterministic build) a lane's numbers are the scalar setup's bit for bit, else to float
  /// round-off. Writes each lane's world normal to `normals[lane]`. Call drop_non_finite once
  /// the block is filled.
  void setup(std::span<const SolverBody> bodies, const SetupInputs& in, float inv_dt,
             bool face_block, Vec3 normals[k_width]);
  /// Empties the lanes that hold a number that is not finite (a body's pose went non-finite:
  /// the scalar solve applies nothing for such a contact either, and the world quarantines the
  /// body after the step) and zeroes their numbers: the solve multiplies the rows of empty lanes
  /// and points by zero impulses, and 0 × NaN would carry a NaN into a body. Returns the
  /// dropped lanes as bits.
  uint32_t drop_non_finite();
  /// Empties lane `lane`: it solves nothing.
  void clear_lane(uint32_t lane);

  /// Warm start (stage 7): scales every row's accumulated impulse by `ratio` (dt / previous dt;
  /// 0 = no warm start) and applies it, rows in the scalar warm start's order (friction,
  /// twist, then the points).
  void warm_start(std::span<SolverBody> bodies, float ratio);

  /// Asks for the velocities of the bodies this block's solve writes, to be written
  /// (core/Prefetch.h, prefetch_for_write): a block or two before solving it: in a split the
  /// other worker may have written them last.
  void prefetch_velocities(std::span<SolverBody> bodies) const;

  /// One velocity iteration of every lane (`first_iteration`: iteration 0, when contacts without
  /// normal impulse solve their normals first). Returns true when any lane applied an impulse
  /// that counts for the early exit (AxisConstraintPart::is_significant, FaceContactPart).
  bool solve_velocity_constraints(std::span<SolverBody> bodies, bool first_iteration);

  /// The accumulated impulses of lane `lane`: its points' normal impulses (N·s), the friction
  /// rows' (N·s) and the twist row's (N·m·s). Returns false (and sets nothing) for an empty lane.
  bool get_lambdas(uint32_t lane, float* normal_lambdas, float& friction1, float& friction2,
                   float& twist) const;

 private:
  struct Velocities {
    Lanes3 v1, w1, v2, w2;
  };
  // M⁻¹·axis of body 1 and 2 for rows along `axis` (scaled inverse mass per component).
  Lanes3 linear1(const Lanes3& axis) const { return times(inv_mass1_.get(), axis); }
  Lanes3 linear2(const Lanes3& axis) const { return times(inv_mass2_.get(), axis); }
  static Lanes3 times(const Lanes3& a, const Lanes3& b) {
    return {a.x * b.x, a.y * b.y, a.z * b.z};
  }
  // S·v for the symmetric 3×3 matrix S with diagonal `diag` and off-diagonal (xy, xz, yz) `off`.
  static Lanes3 symmetric_times(const LaneFloat3s& diag, const LaneFloat3s& off, const Lanes3& v) {
    const Lanes3 d = diag.get();
    const Lanes3 o = off.get();
    return {d.x * v.x + o.x * v.y + o.y * v.z, o.x * v.x + d.y * v.y + o.z * v.z,
            o.y * v.x + o.z * v.y + d.z * v.z};
  }
  // The change of body 1's / body 2's angular velocity for the angular impulse `l` (I⁻¹·l).
  Lanes3 inv_inertia1(const Lanes3& l) const {
    return symmetric_times(inv_inertia1_[0], inv_inertia1_[1], l);
  }
  Lanes3 inv_inertia2(const Lanes3& l) const {
    return symmetric_times(inv_inertia2_[0], inv_inertia2_[1], l);
  }
  // Calls f(LaneFloats&) for every number of the block but num_points_.
  template <class F>
  void for_each_number(F&& f);
  void gather(std::span<const SolverBody> bodies, Velocities& out) const;
  // setup's face blocks: FaceContactPart::calculate_constraint_properties in lanes, from the
  // points' levers on body 1 and their targets, the centroids of the levers on each body, the
  // normal and the tangents; the lanes whose block applies get the face form.
  void setup_faces(const ContactBodyLanes& b1, const ContactBodyLanes& b2,
                   const LaneFloat3s (&lever1)[k_max_points],
                   const LaneFloats (&targets)[k_max_points], const Lanes3& centroid1,
                   const Lanes3& centroid2, const Lanes3& normal, const Lanes3& tangent1,
                   const Lanes3& tangent2);
  void scatter(std::span<SolverBody> bodies, const Velocities& in) const;
  // Non-penetration of the lanes in `mask`: face block, else point rows. Returns the lanes
  // that applied a significant impulse.
  LaneMask solve_normals(Velocities& vel, LaneMask mask);
  // Friction rows and twist of the lanes with friction.
  LaneMask solve_friction(Velocities& vel);

  // One row of the scalar solver (AxisConstraintPart) per lane, but its I⁻¹ (r × axis).
  struct Row {
    LaneFloat3s r1_cross_axis, r2_cross_axis;  // r × axis
    LaneFloats effective_mass, target, lambda;
  };
  // A point's non-penetration row but its geometry, which geometry_ holds.
  struct PointRow {
    LaneFloats effective_mass, target, lambda;
  };
  // The geometry of point p's non-penetration row: r × n of both bodies.
  struct PointGeometry {
    Lanes3 r1_cross_normal, r2_cross_normal;
  };
  // Point p's row geometry in every lane: read from the point form, or made from the block's
  // rows in the lanes of `face` (FaceContactPart.h: a point's row is row 0 + x·row 1 + y·row 2
  // at its face coordinates x, y).
  PointGeometry point_geometry(uint32_t p, LaneMask face) const;
  // The lanes that hold the face form.
  LaneMask face_lanes() const { return face_inv_n_.get() != Lanes::zero(); }
  // LaneMask::bits() of a mask with every lane set.
  static constexpr uint32_t k_all_lanes = (1u << k_width) - 1u;
  // The face block's generalised velocity (push, two tilt rates) from the bodies' velocities and
  // the normal's part of the push, dot(normal, v2 - v1); meaningful in the face-form lanes.
  void face_velocity(const Velocities& vel, Lanes normal_dv, Lanes g[3]) const {
    const Lanes3 dw = vel.w2 - vel.w1;
    g[0] = normal_dv + dot(geometry_[k_face_angular2].get(), vel.w2) -
           dot(geometry_[k_face_angular1].get(), vel.w1);
    g[1] = dot(geometry_[k_face_angular1 + 1].get(), dw);
    g[2] = dot(geometry_[k_face_angular1 + 2].get(), dw);
  }

  uint32_t body1_[k_width] = {};
  uint32_t body2_[k_width] = {};
  // Whether the solve writes body 1 (bit `lane`) and body 2 (bit k_width + `lane`) of a lane.
  // One word of bits rather than an array of byte flags: GCC 12.2 at -O1 and -O2 deleted every
  // call to scatter when its stores were guarded by byte flags (it judged the call free of
  // effects: the lanes solved and wrote nothing back), which ContactLanesTest caught once it was
  // built at those levels (tests/CMakeLists.txt builds it at -O1 and -O2 on its own).
  uint32_t write_bits_ = 0;
  bool writes1(uint32_t lane) const { return (write_bits_ >> lane & 1u) != 0; }
  bool writes2(uint32_t lane) const { return (write_bits_ >> (k_width + lane) & 1u) != 0; }

  LaneFloats num_points_;  // as a float, 0 for an empty lane (a contact has at least one)
  bool used(uint32_t lane) const { return num_points_.v[lane] != 0.0f; }
  LaneFloats friction_;
  LaneFloat3s normal_;
  // Each body's inverse mass times the contact's scale of it: M⁻¹·axis of a row along the
  // normal or a tangent is computed in the solve, rather than stored per axis (18 numbers); a
  // lane without friction has zero tangents, so that its friction rows' M⁻¹·tangent are 0 as in
  // its scalar parts.
  LaneFloat3s inv_mass1_, inv_mass2_;
  // Each body's world inverse inertia times the contact's scale of it: diagonal at [0],
  // off-diagonal (xy, xz, yz) at [1].
  LaneFloat3s inv_inertia1_[2], inv_inertia2_[2];
  PointRow points_[k_max_points];
  LaneFloats lever_[k_max_points];

  // The non-penetration rows' geometry, 8 vectors per lane in one of two forms:
  // - point form, a lane without face block: point p's r1 × n and r2 × n at 2p and 2p + 1;
  // - face form, a lane with a face block (FaceContactPart's members): the block's rows ang1_k
  //   at k_face_angular1 + k, ang2_0 at k_face_angular2, and A = J M⁻¹ Jᵀ and A⁻¹, which are
  //   symmetric, as diagonal and off-diagonal (xy, xz, yz) at k_face_a / k_face_inv_a and the
  //   next. Its points' rows follow from the block's (point_geometry).
  // A face contact needs its points' rows too (the block falls back to them when it would
  // pull), and holding them besides the block took 48 of 194 numbers per lane: the solve
  // streams every number of a block in every iteration and is bound by memory.
  static constexpr uint32_t k_face_angular1 = 0;
  static constexpr uint32_t k_face_angular2 = 3;
  static constexpr uint32_t k_face_a = 4;
  static constexpr uint32_t k_face_inv_a = 6;
  LaneFloat3s geometry_[2 * k_max_points];
  static_assert(k_face_inv_a + 2 == 2 * k_max_points, "the face form fills the point form's room");

  LaneFloat3s tangent_[2];
  Row friction_rows_[2];

  // Twist: angular row about the normal (its axis).
  LaneFloats twist_mass_, twist_target_, twist_lambda_;

  // The rest of the face block (FaceContactPart's members, per lane; its M⁻¹·normal are the
  // point rows', computed the same way). Column 0 of FaceContactPart::distribute_ is 1/n at
  // every point: it is kept once, as face_inv_n_, which is 0 when the lane has no face block.
  LaneFloats face_inv_n_;  // 1 / points when active, else 0
  LaneFloats face_target_[3];
  LaneFloats face_distribute_[k_max_points][2];  // columns 1 and 2 of distribute_
  LaneFloats face_offset_[k_max_points][2];
  LaneFloats face_null_[k_max_points];
};

}  // namespace atl
