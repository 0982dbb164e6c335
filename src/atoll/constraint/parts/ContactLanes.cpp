#include "atoll/constraint/parts/ContactLanes.h"

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "atoll/core/Prefetch.h"

namespace atl {

namespace {

constexpr float k_float_max_value = 3.402823466e+38f;

// Clamps each lane of x to [lo, hi]; a NaN in x stays NaN (the second operand of the SSE min
// and max is returned when either is NaN), as std::clamp leaves it in the scalar solve.
Lanes clamp_lanes(Lanes x, Lanes lo, Lanes hi) { return min(hi, max(lo, x)); }

Lanes3 select3(LaneMask mask, const Lanes3& a, const Lanes3& b) {
  return {select(mask, a.x, b.x), select(mask, a.y, b.y), select(mask, a.z, b.z)};
}

// Lane `lane` of a symmetric 3×3 matrix, element (r, c) = at(r, c), as its diagonal (to[0]) and
// its off-diagonal xy, xz, yz (to[1]): the layout symmetric_times reads.
template <class At>
void put_symmetric(LaneFloat3s* to, uint32_t lane, const At& at) {
  to[0].set_lane(lane, std::array<float, 3>{at(0, 0), at(1, 1), at(2, 2)});
  to[1].set_lane(lane, std::array<float, 3>{at(0, 1), at(0, 2), at(1, 2)});
}

}  // namespace

#if ATOLL_USE_AVX2
// With AVX2 a body's vectors are 16-byte registers (Vec3 keeps z in its fourth float): four
// lanes' vectors become x, y, z rows by one 4×4 transpose, and back.
static_assert(sizeof(Vec3) == 16 && alignof(Vec3) == 16);
static_assert(std::is_standard_layout_v<SolverBody>);
static_assert(offsetof(SolverBody, linear_velocity) == 0);
static_assert(offsetof(SolverBody, angular_velocity) == 16);

namespace {
// The velocities of an empty lane: zero, as the rows of an empty lane expect.
alignas(16) constexpr float k_no_velocity[8] = {};

// Loads the 16-byte vector at `offset` floats into each of four lanes' bodies (0: linear, 4:
// angular velocity) as x, y, z and w rows.
inline void load_rows4(const float* const* body, int offset, __m128& x, __m128& y, __m128& z,
                       __m128& w) {
  __m128 r0 = _mm_load_ps(body[0] + offset);
  __m128 r1 = _mm_load_ps(body[1] + offset);
  __m128 r2 = _mm_load_ps(body[2] + offset);
  __m128 r3 = _mm_load_ps(body[3] + offset);
  _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
  x = r0;
  y = r1;
  z = r2;
  w = r3;
}

// The same for eight lanes; their fourth numbers to `w` when asked for.
inline Lanes3 load_rows(const float* const* body, int offset, Lanes* w = nullptr) {
  __m128 x0, y0, z0, w0, x1, y1, z1, w1;
  load_rows4(body, offset, x0, y0, z0, w0);
  load_rows4(body + 4, offset, x1, y1, z1, w1);
  if (w != nullptr) *w = Lanes{_mm256_set_m128(w1, w0)};
  return {Lanes{_mm256_set_m128(x1, x0)}, Lanes{_mm256_set_m128(y1, y0)},
          Lanes{_mm256_set_m128(z1, z0)}};
}

// Transposes x, y, z rows of eight lanes back into eight Vec3 registers (z mirrored into the
// fourth float, as Vec3 keeps it).
inline void to_vectors(const Lanes3& rows, __m128 (&out)[8]) {
  for (int half = 0; half < 2; ++half) {
    __m128 x = half == 0 ? _mm256_castps256_ps128(rows.x.v) : _mm256_extractf128_ps(rows.x.v, 1);
    __m128 y = half == 0 ? _mm256_castps256_ps128(rows.y.v) : _mm256_extractf128_ps(rows.y.v, 1);
    __m128 z = half == 0 ? _mm256_castps256_ps128(rows.z.v) : _mm256_extractf128_ps(rows.z.v, 1);
    __m128 w = z;
    _MM_TRANSPOSE4_PS(x, y, z, w);
    out[4 * half + 0] = x;
    out[4 * half + 1] = y;
    out[4 * half + 2] = z;
    out[4 * half + 3] = w;
  }
}
}  // namespace
#endif

void ContactLanes::clear_lane(uint32_t lane) {
  body1_[lane] = body2_[lane] = 0;
  write_bits_ &= ~((1u << lane) | (1u << (k_width + lane)));
  num_points_.v[lane] = 0.0f;
  friction_.v[lane] = 0.0f;
  face_inv_n_.v[lane] = 0.0f;
  for (uint32_t p = 0; p < k_max_points; ++p) {
    points_[p].effective_mass.v[lane] = 0.0f;
    points_[p].lambda.v[lane] = 0.0f;
  }
  for (Row& row : friction_rows_) row.lambda.v[lane] = 0.0f;
  twist_lambda_.v[lane] = 0.0f;
}

void ContactLanes::set_lane(uint32_t lane, const Source& s) {
  clear_lane(lane);
  const auto put = [lane](LaneFloats& to, float x) { to.v[lane] = x; };
  const auto put3 = [&put](LaneFloat3s& to, const auto& a) {
    put(to.x, a[0]);
    put(to.y, a[1]);
    put(to.z, a[2]);
  };
  const auto put_row = [&](Row& row, const AxisConstraintPart& part) {
    put3(row.r1_cross_axis, part.r1_cross_axis_);
    put3(row.r2_cross_axis, part.r2_cross_axis_);
    put(row.effective_mass, part.effective_mass());
    put(row.target, part.target_velocity());
    put(row.lambda, part.total_lambda());
  };

  put(friction_, s.friction);
  put3(normal_, s.normal);
  const FaceContactPart& face = *s.face;
  for (uint32_t p = 0; p < s.num_points; ++p) {
    const AxisConstraintPart& part = s.normal_rows[p];
    put(points_[p].effective_mass, part.effective_mass());
    put(points_[p].target, part.target_velocity());
    put(points_[p].lambda, part.total_lambda());
    put(lever_[p], s.friction > 0.0f ? s.twist_lever[p] : 0.0f);
    if (face.is_active()) continue;
    put3(geometry_[2 * p], part.r1_cross_axis_);
    put3(geometry_[2 * p + 1], part.r2_cross_axis_);
  }
  put3(inv_mass1_, s.inv_mass1 * s.scales.inv_mass1);
  put3(inv_mass2_, s.inv_mass2 * s.scales.inv_mass2);
  // Each body's inverse inertia times its scale.
  put_symmetric(inv_inertia1_, lane,
                [&s](int r, int c) { return (*s.inv_inertia1)(r, c) * s.scales.inv_inertia1; });
  put_symmetric(inv_inertia2_, lane,
                [&s](int r, int c) { return (*s.inv_inertia2)(r, c) * s.scales.inv_inertia2; });

  // Without friction the friction rows are not set up (all zero): zero tangents make their
  // M⁻¹·tangent zero too.
  const bool has_friction = s.friction > 0.0f;
  const Vec3 tangents[2] = {has_friction ? s.tangent1 : Vec3::zero(),
                            has_friction ? s.tangent2 : Vec3::zero()};
  const AxisConstraintPart* rows[2] = {s.friction1, s.friction2};
  for (int k = 0; k < 2; ++k) {
    put3(tangent_[k], tangents[k]);
    put_row(friction_rows_[k], *rows[k]);
  }

  const AngleConstraintPart& twist = *s.twist;
  put(twist_mass_, twist.effective_mass());
  put(twist_target_, twist.row_.spring().target());
  put(twist_lambda_, twist.total_lambda());

  face_inv_n_.v[lane] = face.is_active() ? face.distribute_[0][0] : 0.0f;
  if (face.is_active()) {
    for (uint32_t k = 0; k < 3; ++k) {
      put3(geometry_[k_face_angular1 + k], face.angular1_[k]);
      put(face_target_[k], face.target_[k]);
    }
    // A and A⁻¹ are symmetric: their upper triangles.
    put_symmetric(&geometry_[k_face_a], lane, [&face](int r, int c) { return face.a_[r][c]; });
    put_symmetric(&geometry_[k_face_inv_a], lane,
                  [&face](int r, int c) { return face.inv_a_[r][c]; });
    put3(geometry_[k_face_angular2], face.angular2_);
    for (uint32_t p = 0; p < k_max_points; ++p) {
      const bool in = p < s.num_points;
      for (int k = 0; k < 2; ++k)
        put(face_distribute_[p][k], in ? face.distribute_[p][k + 1] : 0.0f);
      for (int k = 0; k < 2; ++k) put(face_offset_[p][k], in ? face.offset_[p][k] : 0.0f);
      put(face_null_[p], in ? face.null_[p] : 0.0f);
    }
  }
  body1_[lane] = s.body1;
  body2_[lane] = s.body2;
  write_bits_ |= (s.write1 ? 1u << lane : 0u) | (s.write2 ? 1u << (k_width + lane) : 0u);
  num_points_.v[lane] = static_cast<float>(s.num_points);
}

void ContactLanes::SetupInputs::clear_lane(uint32_t lane) {
  body1[lane] = body2[lane] = 0;
  num_points.v[lane] = 0.0f;
  friction.v[lane] = 0.0f;
  for (LaneFloats* scale :
       {&inv_mass_scale1, &inv_inertia_scale1, &inv_mass_scale2, &inv_inertia_scale2})
    scale->v[lane] = 1.0f;
  // A unit normal, so that the empty lane's numbers stay finite.
  local_normal.set_lane(lane, std::array<float, 3>{0.0f, 1.0f, 0.0f});
  for (uint32_t p = 0; p < k_max_points; ++p) {
    local_on_1[p].set_lane(lane, std::array<float, 3>{});
    local_on_2[p].set_lane(lane, std::array<float, 3>{});
    normal_lambda[p].v[lane] = 0.0f;
  }
  friction_lambda1.v[lane] = friction_lambda2.v[lane] = twist_lambda.v[lane] = 0.0f;
  restitution.v[lane] = 0.0f;
}

namespace {

Lanes3 cross(const Lanes3& a, const Lanes3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

Lanes3 zero3() { return {Lanes::zero(), Lanes::zero(), Lanes::zero()}; }

// -x, as float negation (0 - x would turn -0 into +0).
Lanes negative(Lanes x) { return x * Lanes::broadcast(-1.0f); }

}  // namespace

// One side of eight contacts: each lane's body, its numbers in lanes. The masses and inertias
// are the body's; the contact's scales of them are applied where the scalar parts apply them,
// so that each product rounds as theirs (with the same operations in the same order, a lane's
// numbers are the scalar setup's bit for bit where the compiler fuses no multiply-add, as in a
// cross-platform deterministic build).
struct ContactBodyLanes {
  Lanes3 rotation;  // the quaternion's x, y, z
  Lanes rotation_w;
  Lanes3 com_position;
  Lanes3 inv_mass;
  // World inverse inertia, by columns: all nine numbers, as the scalar parts multiply by it (a
  // world inertia made in float may be asymmetric by an ulp).
  Lanes3 inertia[3];
  Lanes mass_scale, inertia_scale;
  // For AxisConstraintPart::is_solvable: the largest inverse mass and the inertia's trace.
  Lanes max_inv_mass, inertia_trace;

  // The body's rotation applied to `v` (as Quat * Vec3: v + 2w(q×v) + 2 q×(q×v)).
  Lanes3 rotate(const Lanes3& v) const {
    const Lanes3 t = cross(rotation, v) * Lanes::broadcast(2.0f);
    return v + t * rotation_w + cross(rotation, t);
  }
  // I⁻¹·v, summed as Mat44::multiply3x3 does (column 0, then 1, then 2).
  Lanes3 inv_inertia_times(const Lanes3& v) const {
    return (inertia[0] * v.x + inertia[1] * v.y) + inertia[2] * v.z;
  }
  // The scaled M⁻¹·axis and I⁻¹·v of a row (AxisConstraintPart::jacobian).
  Lanes3 linear(const Lanes3& axis) const {
    return Lanes3{inv_mass.x * axis.x, inv_mass.y * axis.y, inv_mass.z * axis.z} * mass_scale;
  }
  Lanes3 angular(const Lanes3& v) const { return inv_inertia_times(v) * inertia_scale; }
};

namespace {

// The bodies `index[lane]` of the used lanes (a lane of no contact reads a body at rest with
// no mass), with the contacts' scales of their masses and inertias. `movable` gets a bit per
// lane whose body the solve may write.
ContactBodyLanes gather_bodies(std::span<const SolverBody> bodies, const uint32_t* index,
                               uint32_t used, const LaneFloats& mass_scale,
                               const LaneFloats& inertia_scale, uint32_t& movable) {
  static const SolverBody k_no_body{};
  ContactBodyLanes out;
  movable = 0;
  const SolverBody* body[Lanes::k_width];
  for (uint32_t lane = 0; lane < Lanes::k_width; ++lane) {
    body[lane] = (used >> lane & 1u) != 0 ? &bodies[index[lane]] : &k_no_body;
    if (!body[lane]->is_immovable()) movable |= 1u << lane;
  }
#if ATOLL_USE_AVX2
  // Each 16-byte vector of the eight bodies by two 4×4 transposes (as gather does).
  const float* numbers[Lanes::k_width];
  for (uint32_t lane = 0; lane < Lanes::k_width; ++lane)
    numbers[lane] = body[lane]->linear_velocity.data();
  constexpr int k_float = sizeof(float);
  out.rotation = load_rows(numbers, offsetof(SolverBody, rotation) / k_float, &out.rotation_w);
  out.com_position = load_rows(numbers, offsetof(SolverBody, com_position) / k_float);
  out.inv_mass = load_rows(numbers, offsetof(SolverBody, inv_mass) / k_float);
  for (int column = 0; column < 3; ++column)
    out.inertia[column] =
        load_rows(numbers, offsetof(SolverBody, inv_inertia) / k_float + 4 * column);
#else
  // Where each number goes in f: the rotation's x, y, z, w, the centre of mass, the inverse
  // mass, and the inverse inertia's columns.
  enum : uint32_t { k_rotation = 0, k_com = 4, k_inv_mass = 7, k_inertia = 10, count = 19 };
  LaneFloats f[count];
  for (uint32_t lane = 0; lane < Lanes::k_width; ++lane) {
    const SolverBody& b = *body[lane];
    const float numbers[k_inertia] = {
        b.rotation.x(),     b.rotation.y(),     b.rotation.z(), b.rotation.w(), b.com_position.x(),
        b.com_position.y(), b.com_position.z(), b.inv_mass.x(), b.inv_mass.y(), b.inv_mass.z()};
    for (uint32_t k = 0; k < k_inertia; ++k) f[k].v[lane] = numbers[k];
    for (int column = 0; column < 3; ++column)
      for (int r = 0; r < 3; ++r) f[k_inertia + 3 * column + r].v[lane] = b.inv_inertia(r, column);
  }
  const auto vec = [&f](uint32_t first) -> Lanes3 {
    return {f[first].get(), f[first + 1].get(), f[first + 2].get()};
  };
  out.rotation = vec(k_rotation);
  out.rotation_w = f[k_rotation + 3].get();
  out.com_position = vec(k_com);
  out.inv_mass = vec(k_inv_mass);
  for (uint32_t column = 0; column < 3; ++column) out.inertia[column] = vec(k_inertia + 3 * column);
#endif
  out.mass_scale = mass_scale.get();
  out.inertia_scale = inertia_scale.get();
  out.max_inv_mass = max(max(out.inv_mass.x, out.inv_mass.y), out.inv_mass.z);
  out.inertia_trace = out.inertia[0].x + out.inertia[1].y + out.inertia[2].z;
  return out;
}

// A velocity row along `axis` at lever arms r1, r2 (AxisConstraintPart's Jacobian): r × axis
// of both bodies and the effective mass 1/K, 0 where the bodies cannot respond (is_solvable).
struct RowLanes {
  Lanes3 r1_cross_axis, r2_cross_axis;
  Lanes effective_mass;
};

RowLanes row_lanes(const ContactBodyLanes& b1, const Lanes3& r1, const ContactBodyLanes& b2,
                   const Lanes3& r2, const Lanes3& axis) {
  RowLanes row;
  row.r1_cross_axis = cross(r1, axis);
  row.r2_cross_axis = cross(r2, axis);
  const Lanes k = dot(axis, b1.linear(axis)) + dot(axis, b2.linear(axis)) +
                  dot(row.r1_cross_axis, b1.angular(row.r1_cross_axis)) +
                  dot(row.r2_cross_axis, b2.angular(row.r2_cross_axis));
  const Lanes scale =
      b1.max_inv_mass * b1.mass_scale + b2.max_inv_mass * b2.mass_scale +
      dot(row.r1_cross_axis, row.r1_cross_axis) * b1.inertia_trace * b1.inertia_scale +
      dot(row.r2_cross_axis, row.r2_cross_axis) * b2.inertia_trace * b2.inertia_scale;
  const LaneMask solvable = (k > Lanes::zero()) & (k > Lanes::broadcast(1.0e-8f) * scale);
  row.effective_mass = select(solvable, Lanes::broadcast(1.0f) / k, Lanes::zero());
  return row;
}

Vec3 lane_of(const LaneFloat3s& a, uint32_t lane) {
  return Vec3(a.x.v[lane], a.y.v[lane], a.z.v[lane]);
}

}  // namespace

void ContactLanes::setup(std::span<const SolverBody> bodies, const SetupInputs& in, float inv_dt,
                         bool face_block, Vec3 normals[k_width]) {
  const Lanes num_points = in.num_points.get();
  const LaneMask used_mask = num_points > Lanes::zero();
  const uint32_t used = used_mask.bits();
  uint32_t movable1 = 0;
  uint32_t movable2 = 0;
  const ContactBodyLanes b1 =
      gather_bodies(bodies, in.body1, used, in.inv_mass_scale1, in.inv_inertia_scale1, movable1);
  const ContactBodyLanes b2 =
      gather_bodies(bodies, in.body2, used, in.inv_mass_scale2, in.inv_inertia_scale2, movable2);
  const Lanes zero = Lanes::zero();
  const auto keep = [](LaneMask mask, const Lanes3& a) { return select3(mask, a, zero3()); };

  // The normal was stored in body 1's frame when the manifold was found.
  Lanes3 normal = b1.rotate(in.local_normal.get());
  const Lanes length = sqrt(dot(normal, normal));
  normal = {normal.x / length, normal.y / length, normal.z / length};
  // Vec3::normalized_perpendicular, then normal × tangent1.
  const LaneMask x_larger = abs(normal.x) > abs(normal.y);
  const Lanes3 perpendicular{select(x_larger, normal.z, zero), select(x_larger, zero, normal.z),
                             select(x_larger, negative(normal.x), negative(normal.y))};
  const Lanes perpendicular_length =
      sqrt(select(x_larger, normal.x * normal.x, normal.y * normal.y) + normal.z * normal.z);
  const Lanes3 tangent1{perpendicular.x / perpendicular_length,
                        perpendicular.y / perpendicular_length,
                        perpendicular.z / perpendicular_length};
  const Lanes3 tangent2 = cross(normal, tangent1);

  // Each point's non-penetration row, its target the speculative one (seed 000 §7): a separated
  // pair may still close the gap this step. A point of a lane with restitution that will hit
  // during this step bounces instead, with e × the approach speed, the slower of the approach
  // now and before this step's forces (the scalar setup says why).
  const Lanes restitution = in.restitution.get();
  const LaneMask bouncy = used_mask & (restitution > zero);
  const bool any_bouncy = bouncy.any();
  LaneMask point_in[k_max_points];
  LaneFloat3s lever1[k_max_points];
  LaneFloats targets[k_max_points];
  Lanes3 mean1 = zero3();
  Lanes3 mean2 = zero3();
  for (uint32_t p = 0; p < k_max_points; ++p) {
    const LaneMask point = point_in[p] = num_points > Lanes::broadcast(static_cast<float>(p));
    const Lanes3 r1 = keep(point, b1.rotate(in.local_on_1[p].get()));
    const Lanes3 r2 = keep(point, b2.rotate(in.local_on_2[p].get()));
    lever1[p].set(r1);
    mean1 += r1;
    mean2 += r2;
    const Lanes separation = dot((b2.com_position + r2) - (b1.com_position + r1), normal);
    const Lanes speculative = max(zero, separation) * Lanes::broadcast(inv_dt);
    Lanes target = select(point, negative(speculative), zero);
    if (any_bouncy) {
      const Lanes3 v1 = in.linear1.get() + cross(in.angular1.get(), r1);
      const Lanes3 v2 = in.linear2.get() + cross(in.angular2.get(), r2);
      const Lanes normal_velocity = dot(v2 - v1, normal);
      const Lanes3 before1 = in.linear1_before.get() + cross(in.angular1_before.get(), r1);
      const Lanes3 before2 = in.linear2_before.get() + cross(in.angular2_before.get(), r2);
      const Lanes approach = max(normal_velocity, dot(before2 - before1, normal));
      const LaneMask bounce = point & bouncy & (normal_velocity < negative(speculative)) &
                              (approach < Lanes::broadcast(-in.min_velocity_for_restitution));
      target = select(bounce, negative(restitution) * approach, target);
    }
    targets[p].set(target);
    const RowLanes row = row_lanes(b1, r1, b2, r2, normal);
    points_[p].effective_mass.set(select(point, row.effective_mass, zero));
    points_[p].target.set(target);
    points_[p].lambda.set(select(point, in.normal_lambda[p].get(), zero));
    geometry_[2 * p].set(keep(point, row.r1_cross_axis));
    geometry_[2 * p + 1].set(keep(point, row.r2_cross_axis));
  }

  // Manifold friction (seed 000 §4.1): two linear rows at the mean contact point and a twist row
  // about the normal, each point's twist lever its distance from the mean point in the contact
  // plane. A lane without friction keeps them all zero.
  const Lanes friction = in.friction.get();
  const LaneMask with_friction = used_mask & (friction > zero);
  const Lanes inv_n = select(used_mask, Lanes::broadcast(1.0f) / num_points, zero);
  mean1 = mean1 * inv_n;
  mean2 = mean2 * inv_n;
  for (uint32_t p = 0; p < k_max_points; ++p) {
    const Lanes3 d = lever1[p].get() - mean1;
    const Lanes3 in_plane = d - normal * dot(d, normal);
    lever_[p].set(select(point_in[p] & with_friction, sqrt(dot(in_plane, in_plane)), zero));
  }
  const Lanes3 tangents[2] = {tangent1, tangent2};
  const LaneFloats* friction_lambdas[2] = {&in.friction_lambda1, &in.friction_lambda2};
  for (int k = 0; k < 2; ++k) {
    const RowLanes row = row_lanes(b1, mean1, b2, mean2, tangents[k]);
    tangent_[k].set(keep(with_friction, tangents[k]));
    friction_rows_[k].r1_cross_axis.set(keep(with_friction, row.r1_cross_axis));
    friction_rows_[k].r2_cross_axis.set(keep(with_friction, row.r2_cross_axis));
    friction_rows_[k].effective_mass.set(select(with_friction, row.effective_mass, zero));
    friction_rows_[k].target.set(zero);
    friction_rows_[k].lambda.set(select(with_friction, friction_lambdas[k]->get(), zero));
  }
  // The twist row (AngleConstraintPart about the normal): K = n·I1⁻¹n + n·I2⁻¹n.
  const Lanes twist_k = dot(normal, b1.angular(normal)) + dot(normal, b2.angular(normal));
  twist_mass_.set(select(with_friction & (twist_k > zero), Lanes::broadcast(1.0f) / twist_k, zero));
  twist_target_.set(zero);
  twist_lambda_.set(select(with_friction, in.twist_lambda.get(), zero));

  friction_.set(select(with_friction, friction, zero));
  normal_.set(keep(used_mask, normal));
  inv_mass1_.set(b1.inv_mass * b1.mass_scale);
  inv_mass2_.set(b2.inv_mass * b2.mass_scale);
  // Symmetric in the solve: the diagonal and the upper triangle (xy, xz, yz), as set_lane.
  for (const auto& [b, to] : {std::pair{&b1, inv_inertia1_}, std::pair{&b2, inv_inertia2_}}) {
    const Lanes3* i = b->inertia;
    to[0].set(Lanes3{i[0].x, i[1].y, i[2].z} * b->inertia_scale);
    to[1].set(Lanes3{i[1].x, i[2].x, i[2].y} * b->inertia_scale);
  }
  num_points_.set(select(used_mask, num_points, zero));
  face_inv_n_.set(zero);
  write_bits_ = (movable1 & used) | (movable2 & used) << k_width;
  for (uint32_t lane = 0; lane < k_width; ++lane) {
    const bool lane_used = (used >> lane & 1u) != 0;
    body1_[lane] = lane_used ? in.body1[lane] : 0;
    body2_[lane] = lane_used ? in.body2[lane] : 0;
    normals[lane] = lane_of(normal_, lane);
  }

  if (face_block) setup_faces(b1, b2, lever1, targets, mean1, mean2, normal, tangent1, tangent2);
}

void ContactLanes::setup_faces(const ContactBodyLanes& b1, const ContactBodyLanes& b2,
                               const LaneFloat3s (&lever1)[k_max_points],
                               const LaneFloats (&targets)[k_max_points], const Lanes3& centroid1,
                               const Lanes3& centroid2, const Lanes3& normal,
                               const Lanes3& tangent1, const Lanes3& tangent2) {
  // FaceContactPart::calculate_constraint_properties in lanes, operation for operation (see
  // there for the why of each step), but for the inversion of A in double, lane by lane with the
  // part's own invert_block. Where the block does not apply, the lane keeps its point form.
  const Lanes zero = Lanes::zero();
  const Lanes num_points = num_points_.get();
  LaneMask face = num_points >= Lanes::broadcast(3.0f);
  if (!face.any()) return;
  LaneMask point[k_max_points];
  Lanes offset[k_max_points][2];
  Lanes sxx = zero;
  Lanes sxy = zero;
  Lanes syy = zero;
  for (uint32_t p = 0; p < k_max_points; ++p) {
    point[p] = num_points > Lanes::broadcast(static_cast<float>(p));
    const Lanes3 d = lever1[p].get() - centroid1;
    offset[p][0] = select(point[p], dot(d, tangent1), zero);
    offset[p][1] = select(point[p], dot(d, tangent2), zero);
    sxx = select(point[p], sxx + offset[p][0] * offset[p][0], sxx);
    sxy = select(point[p], sxy + offset[p][0] * offset[p][1], sxy);
    syy = select(point[p], syy + offset[p][1] * offset[p][1], syy);
  }
  const Lanes trace = sxx + syy;
  const Lanes det = sxx * syy - sxy * sxy;
  face = and_not(
      face, (trace < Lanes::broadcast(FaceContactPart::k_min_face_spread_sq)) |
                (det < Lanes::broadcast(FaceContactPart::k_min_face_flatness) * trace * trace));
  const Lanes inv_det = Lanes::broadcast(1.0f) / det;
  const Lanes s00 = syy * inv_det;
  const Lanes s01 = negative(sxy) * inv_det;
  const Lanes s11 = sxx * inv_det;
  Lanes mean_target = zero;
  Lanes moment_x = zero;
  Lanes moment_y = zero;
  for (uint32_t p = 0; p < k_max_points; ++p) {
    const Lanes t = targets[p].get();
    mean_target = select(point[p], mean_target + t, mean_target);
    moment_x = select(point[p], moment_x + t * offset[p][0], moment_x);
    moment_y = select(point[p], moment_y + t * offset[p][1], moment_y);
  }
  const Lanes inv_n = select(face, Lanes::broadcast(1.0f) / num_points, zero);
  const Lanes target[3] = {mean_target * inv_n, s00 * moment_x + s01 * moment_y,
                           s01 * moment_x + s11 * moment_y};
  for (uint32_t p = 0; p < k_max_points; ++p) {
    const Lanes fit = target[0] + offset[p][0] * target[1] + offset[p][1] * target[2];
    face = and_not(face, point[p] & (abs(fit - targets[p].get()) >
                                     Lanes::broadcast(FaceContactPart::k_max_target_misfit)));
  }
  if (!face.any()) return;

  const Lanes3 angular1[3] = {cross(centroid1, normal), cross(tangent1, normal),
                              cross(tangent2, normal)};
  const Lanes3 angular2[3] = {cross(centroid2, normal), angular1[1], angular1[2]};
  Lanes3 inv_i_angular1[3];
  Lanes3 inv_i_angular2[3];
  for (int k = 0; k < 3; ++k) {
    inv_i_angular1[k] = b1.angular(angular1[k]);
    inv_i_angular2[k] = b2.angular(angular2[k]);
  }
  LaneFloats dots1[3][3];
  LaneFloats dots2[3][3];
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l) {
      dots1[k][l].set(dot(angular1[k], inv_i_angular1[l]));
      dots2[k][l].set(dot(angular2[k], inv_i_angular2[l]));
    }
  LaneFloats linear;
  linear.set(dot(normal, b1.linear(normal) + b2.linear(normal)));
  LaneFloats offsets[k_max_points][2];
  for (uint32_t p = 0; p < k_max_points; ++p)
    for (int k = 0; k < 2; ++k) offsets[p][k].set(offset[p][k]);

  // A and its inverse, lane by lane in double; the null vector of four points likewise.
  LaneFloat3s a[2];
  LaneFloat3s inv_a[2];
  LaneFloats null[k_max_points];
  uint32_t active = face.bits();
  for (uint32_t lane = 0; lane < k_width; ++lane) {
    if ((active >> lane & 1u) == 0) continue;
    float lane_dots1[3][3];
    float lane_dots2[3][3];
    for (int k = 0; k < 3; ++k)
      for (int l = 0; l < 3; ++l) {
        lane_dots1[k][l] = dots1[k][l].v[lane];
        lane_dots2[k][l] = dots2[k][l].v[lane];
      }
    float lane_a[3][3];
    float lane_inv_a[3][3];
    if (!FaceContactPart::invert_block(lane_dots1, lane_dots2, linear.v[lane], lane_a,
                                       lane_inv_a)) {
      active &= ~(1u << lane);
      continue;
    }
    put_symmetric(a, lane, [&lane_a](int r, int c) { return lane_a[r][c]; });
    put_symmetric(inv_a, lane, [&lane_inv_a](int r, int c) { return lane_inv_a[r][c]; });
    if (num_points_.v[lane] == 4.0f) {
      float lane_offset[k_max_points][2];
      float lane_null[k_max_points];
      for (uint32_t p = 0; p < k_max_points; ++p)
        for (int k = 0; k < 2; ++k) lane_offset[p][k] = offsets[p][k].v[lane];
      FaceContactPart::null_vector(lane_offset, lane_null);
      for (uint32_t p = 0; p < k_max_points; ++p) null[p].v[lane] = lane_null[p];
    }
  }
  if (active == 0) return;

  // The face form in the lanes whose block applies (ContactLanes.h: geometry_).
  const LaneMask in = LaneMask::from_bits(active);
  const auto put = [&in](LaneFloat3s& to, const Lanes3& face_value) {
    to.set(select3(in, face_value, to.get()));
  };
  for (uint32_t k = 0; k < 3; ++k) put(geometry_[k_face_angular1 + k], angular1[k]);
  put(geometry_[k_face_angular2], angular2[0]);
  for (uint32_t k = 0; k < 2; ++k) {
    put(geometry_[k_face_a + k], a[k].get());
    put(geometry_[k_face_inv_a + k], inv_a[k].get());
  }
  face_inv_n_.set(select(in, inv_n, zero));
  for (uint32_t k = 0; k < 3; ++k) face_target_[k].set(select(in, target[k], zero));
  const Lanes distribute[2][2] = {{s00, s01}, {s01, s11}};
  for (uint32_t p = 0; p < k_max_points; ++p) {
    const LaneMask here = in & point[p];
    for (int k = 0; k < 2; ++k) {
      face_distribute_[p][k].set(
          select(here, distribute[k][0] * offset[p][0] + distribute[k][1] * offset[p][1], zero));
      face_offset_[p][k].set(select(here, offset[p][k], zero));
    }
    face_null_[p].set(select(here & (num_points == Lanes::broadcast(4.0f)), null[p].get(), zero));
  }
}

template <class F>
void ContactLanes::for_each_number(F&& f) {
  const auto f3 = [&f](LaneFloat3s& v) {
    f(v.x);
    f(v.y);
    f(v.z);
  };
  const auto row = [&](Row& r) {
    f3(r.r1_cross_axis);
    f3(r.r2_cross_axis);
    f(r.effective_mass);
    f(r.target);
    f(r.lambda);
  };
  f(friction_);
  f3(normal_);
  f3(inv_mass1_);
  f3(inv_mass2_);
  for (LaneFloat3s& v : inv_inertia1_) f3(v);
  for (LaneFloat3s& v : inv_inertia2_) f3(v);
  for (PointRow& r : points_) {
    f(r.effective_mass);
    f(r.target);
    f(r.lambda);
  }
  for (LaneFloat3s& v : geometry_) f3(v);
  for (LaneFloats& lever : lever_) f(lever);
  for (int k = 0; k < 2; ++k) {
    f3(tangent_[k]);
    row(friction_rows_[k]);
  }
  f(twist_mass_);
  f(twist_target_);
  f(twist_lambda_);
  f(face_inv_n_);
  for (LaneFloats& t : face_target_) f(t);
  for (uint32_t p = 0; p < k_max_points; ++p) {
    for (LaneFloats& d : face_distribute_[p]) f(d);
    for (LaneFloats& o : face_offset_[p]) f(o);
    f(face_null_[p]);
  }
}

uint32_t ContactLanes::drop_non_finite() {
  // One vector test per number of the block, where a test per number as it was written cost
  // more than the lanes saved.
  LaneMask bad = LaneMask::none();
  for_each_number([&bad](LaneFloats& x) { bad = bad | is_not_finite(x.get()); });
  const uint32_t bits = bad.bits();
  if (bits == 0) return 0;
  const Lanes zero = Lanes::zero();
  for_each_number([&](LaneFloats& x) { x.set(select(bad, zero, x.get())); });
  for (uint32_t lane = 0; lane < k_width; ++lane)
    if ((bits >> lane) & 1u) clear_lane(lane);
  return bits;
}

bool ContactLanes::get_lambdas(uint32_t lane, float* normal_lambdas, float& friction1,
                               float& friction2, float& twist) const {
  if (!used(lane)) return false;
  const uint32_t n = static_cast<uint32_t>(num_points_.v[lane]);
  for (uint32_t p = 0; p < n; ++p) normal_lambdas[p] = points_[p].lambda.v[lane];
  friction1 = friction_rows_[0].lambda.v[lane];
  friction2 = friction_rows_[1].lambda.v[lane];
  twist = twist_lambda_.v[lane];
  return true;
}

#if ATOLL_USE_AVX2
void ContactLanes::gather(std::span<const SolverBody> bodies, Velocities& out) const {
  const float* body1[k_width];
  const float* body2[k_width];
  for (uint32_t i = 0; i < k_width; ++i) {
    const bool in_use = used(i);
    body1[i] = in_use ? bodies[body1_[i]].linear_velocity.data() : k_no_velocity;
    body2[i] = in_use ? bodies[body2_[i]].linear_velocity.data() : k_no_velocity;
  }
  out.v1 = load_rows(body1, 0);
  out.w1 = load_rows(body1, 4);
  out.v2 = load_rows(body2, 0);
  out.w2 = load_rows(body2, 4);
}

void ContactLanes::scatter(std::span<SolverBody> bodies, const Velocities& in) const {
  __m128 v1[k_width], w1[k_width], v2[k_width], w2[k_width];
  to_vectors(in.v1, v1);
  to_vectors(in.w1, w1);
  to_vectors(in.v2, v2);
  to_vectors(in.w2, w2);
  for (uint32_t i = 0; i < k_width; ++i) {
    if (writes1(i)) {
      SolverBody& b1 = bodies[body1_[i]];
      b1.linear_velocity = Vec3(v1[i]);
      b1.angular_velocity = Vec3(w1[i]);
    }
    if (writes2(i)) {
      SolverBody& b2 = bodies[body2_[i]];
      b2.linear_velocity = Vec3(v2[i]);
      b2.angular_velocity = Vec3(w2[i]);
    }
  }
}
#else
void ContactLanes::gather(std::span<const SolverBody> bodies, Velocities& out) const {
  alignas(32) float f[12][k_width];
  for (uint32_t i = 0; i < k_width; ++i) {
    if (!used(i)) {
      for (auto& component : f) component[i] = 0.0f;
      continue;
    }
    const SolverBody& b1 = bodies[body1_[i]];
    const SolverBody& b2 = bodies[body2_[i]];
    for (int c = 0; c < 3; ++c) {
      f[c][i] = b1.linear_velocity[c];
      f[3 + c][i] = b1.angular_velocity[c];
      f[6 + c][i] = b2.linear_velocity[c];
      f[9 + c][i] = b2.angular_velocity[c];
    }
  }
  out.v1 = {Lanes::load(f[0]), Lanes::load(f[1]), Lanes::load(f[2])};
  out.w1 = {Lanes::load(f[3]), Lanes::load(f[4]), Lanes::load(f[5])};
  out.v2 = {Lanes::load(f[6]), Lanes::load(f[7]), Lanes::load(f[8])};
  out.w2 = {Lanes::load(f[9]), Lanes::load(f[10]), Lanes::load(f[11])};
}

void ContactLanes::scatter(std::span<SolverBody> bodies, const Velocities& in) const {
  alignas(32) float f[12][k_width];
  const Lanes3* vectors[4] = {&in.v1, &in.w1, &in.v2, &in.w2};
  for (int k = 0; k < 4; ++k) {
    vectors[k]->x.store(f[3 * k]);
    vectors[k]->y.store(f[3 * k + 1]);
    vectors[k]->z.store(f[3 * k + 2]);
  }
  for (uint32_t i = 0; i < k_width; ++i) {
    if (writes1(i)) {
      SolverBody& b1 = bodies[body1_[i]];
      b1.linear_velocity = Vec3(f[0][i], f[1][i], f[2][i]);
      b1.angular_velocity = Vec3(f[3][i], f[4][i], f[5][i]);
    }
    if (writes2(i)) {
      SolverBody& b2 = bodies[body2_[i]];
      b2.linear_velocity = Vec3(f[6][i], f[7][i], f[8][i]);
      b2.angular_velocity = Vec3(f[9][i], f[10][i], f[11][i]);
    }
  }
}

#endif

void ContactLanes::prefetch_velocities(std::span<SolverBody> bodies) const {
  // The two velocities (32 bytes from the start of the body) may straddle a line.
  const auto ask = [](const SolverBody& body) {
    prefetch_for_write(&body.linear_velocity);
    prefetch_for_write(reinterpret_cast<const char*>(&body.angular_velocity) + 15);
  };
  for (uint32_t i = 0; i < k_width; ++i) {
    if (writes1(i)) ask(bodies[body1_[i]]);
    if (writes2(i)) ask(bodies[body2_[i]]);
  }
}

ContactLanes::PointGeometry ContactLanes::point_geometry(uint32_t p, LaneMask face) const {
  // A block of one form does not compute the other.
  const uint32_t face_bits = face.bits();
  PointGeometry stored;
  if (face_bits != k_all_lanes) {
    stored = {geometry_[2 * p].get(), geometry_[2 * p + 1].get()};
    if (face_bits == 0) return stored;
  }
  const Lanes x = face_offset_[p][0].get();
  const Lanes y = face_offset_[p][1].get();
  // The tilt rows are the same on both bodies (FaceContactPart.h).
  const Lanes3 tilt =
      geometry_[k_face_angular1 + 1].get() * x + geometry_[k_face_angular1 + 2].get() * y;
  const PointGeometry made{geometry_[k_face_angular1].get() + tilt,
                           geometry_[k_face_angular2].get() + tilt};
  if (face_bits == k_all_lanes) return made;
  return {select3(face, made.r1_cross_normal, stored.r1_cross_normal),
          select3(face, made.r2_cross_normal, stored.r2_cross_normal)};
}

LaneMask ContactLanes::solve_normals(Velocities& vel, LaneMask mask) {
  const Lanes zero = Lanes::zero();
  const Lanes n = num_points_.get();
  LaneMask point_in[k_max_points];
  for (uint32_t p = 0; p < k_max_points; ++p)
    point_in[p] = Lanes::broadcast(static_cast<float>(p)) < n;

  // The face block (FaceContactPart::solve_velocity_constraint).
  LaneMask significant = LaneMask::none();
  LaneMask fallback = mask;
  const LaneMask face = mask & face_lanes();
  if (face.any()) {
    const Lanes3 normal = normal_.get();
    const Lanes3 dv = vel.v2 - vel.v1;
    Lanes g[3];
    face_velocity(vel, dot(normal, dv), g);
    const Lanes3 error{face_target_[0].get() - g[0], face_target_[1].get() - g[1],
                       face_target_[2].get() - g[2]};
    const Lanes3 impulse3 =
        symmetric_times(geometry_[k_face_inv_a], geometry_[k_face_inv_a + 1], error);
    const Lanes impulse[3] = {impulse3.x, impulse3.y, impulse3.z};
    // A non-finite impulse (a body already non-finite): the block applies nothing and the
    // points are not solved either.
    const LaneMask finite = is_finite(impulse[0]) & is_finite(impulse[1]) & is_finite(impulse[2]);

    Lanes lambdas[k_max_points];
    Lanes new_lambdas[k_max_points];
    Lanes smallest = Lanes::broadcast(k_float_max_value);
    // Column 0 of the distribution is 1/n at every point of the face (past the points, where
    // the scalar block has 0, the new λ is never used: the lanes there are masked out).
    const Lanes inv_n = face_inv_n_.get();
    for (uint32_t p = 0; p < k_max_points; ++p) {
      lambdas[p] = points_[p].lambda.get();
      new_lambdas[p] = lambdas[p] + inv_n * impulse[0] + face_distribute_[p][0].get() * impulse[1] +
                       face_distribute_[p][1].get() * impulse[2];
      smallest = select(point_in[p], min(smallest, new_lambdas[p]), smallest);
    }
    const LaneMask push_only = smallest >= zero;
    // Four points: move along the null vector to the nearest split that pushes everywhere.
    const LaneMask four = n == Lanes::broadcast(4.0f);
    LaneMask shifted = LaneMask::none();
    const LaneMask try_shift = and_not(four & face, push_only);
    if (try_shift.any()) {
      Lanes low = Lanes::broadcast(-k_float_max_value);
      Lanes high = Lanes::broadcast(k_float_max_value);
      LaneMask blocked = LaneMask::none();
      for (uint32_t p = 0; p < k_max_points; ++p) {
        const Lanes null = face_null_[p].get();
        const Lanes bound = zero - new_lambdas[p] / null;
        const LaneMask positive = null > zero;
        const LaneMask negative = null < zero;
        low = select(positive, max(low, bound), low);
        high = select(negative, min(high, bound), high);
        blocked = blocked | and_not(and_not(new_lambdas[p] < zero, positive), negative);
      }
      shifted = and_not(try_shift & (low <= high), blocked);
      // std::clamp(0, low, high).
      const Lanes shift = select(zero < low, low, select(high < zero, high, zero));
      for (uint32_t p = 0; p < k_max_points; ++p)
        new_lambdas[p] = select(shifted, max(zero, new_lambdas[p] + shift * face_null_[p].get()),
                                new_lambdas[p]);
    }
    const LaneMask solved = face & finite & (push_only | shifted);
    fallback = and_not(mask, face) | and_not(face & finite, solved);

    if (solved.any()) {
      // FaceContactPart::apply_lambdas.
      Lanes applied[3] = {zero, zero, zero};
      Lanes largest_change = zero;
      Lanes largest_lambda = zero;
      for (uint32_t p = 0; p < k_max_points; ++p) {
        const LaneMask take = solved & point_in[p];
        const Lanes delta = select(take, new_lambdas[p] - lambdas[p], zero);
        applied[0] += delta;
        applied[1] += delta * face_offset_[p][0].get();
        applied[2] += delta * face_offset_[p][1].get();
        points_[p].lambda.set(select(take, new_lambdas[p], lambdas[p]));
        largest_change = max(largest_change, abs(delta));
        largest_lambda = select(take, max(largest_lambda, new_lambdas[p]), largest_lambda);
      }
      vel.v1 -= linear1(normal) * applied[0];
      vel.v2 += linear2(normal) * applied[0];
      // The block's angular impulses: Σ ang_k · applied_k on each body (the tilt rows are the
      // same on both).
      const Lanes3 tilt = geometry_[k_face_angular1 + 1].get() * applied[1] +
                          geometry_[k_face_angular1 + 2].get() * applied[2];
      vel.w1 -= inv_inertia1(geometry_[k_face_angular1].get() * applied[0] + tilt);
      vel.w2 += inv_inertia2(geometry_[k_face_angular2].get() * applied[0] + tilt);

      const Lanes3 change3 = symmetric_times(geometry_[k_face_a], geometry_[k_face_a + 1],
                                             Lanes3{applied[0], applied[1], applied[2]});
      const Lanes change[3] = {change3.x, change3.y, change3.z};
      const LaneMask moving =
          solved & (largest_change > Lanes::broadcast(1.0e-5f) * largest_lambda);
      const Lanes threshold = Lanes::broadcast(AxisConstraintPart::k_min_velocity_change);
      for (uint32_t p = 0; p < k_max_points; ++p) {
        const Lanes point_change =
            change[0] + face_offset_[p][0].get() * change[1] + face_offset_[p][1].get() * change[2];
        significant = significant | (moving & point_in[p] & (abs(point_change) > threshold));
      }
    }
  }

  // Point by point (AxisConstraintPart::solve_velocity_constraint with λ ≥ 0).
  if (fallback.any()) {
    const Lanes3 normal = normal_.get();
    const Lanes3 linear1 = this->linear1(normal);
    const Lanes3 linear2 = this->linear2(normal);
    const Lanes threshold = Lanes::broadcast(AxisConstraintPart::k_min_velocity_change);
    const Lanes max_lambda = Lanes::broadcast(k_float_max_value);
    const LaneMask face_form = face_lanes();
    for (uint32_t p = 0; p < k_max_points; ++p) {
      const LaneMask take = fallback & point_in[p];
      if (!take.any()) continue;
      PointRow& row = points_[p];
      // Made from the block only where a face lane falls back: the other lanes apply nothing
      // (their rows, read in the point form, are finite numbers times a zero impulse).
      const PointGeometry geometry = point_geometry(p, take & face_form);
      const Lanes jv = dot(normal, vel.v2 - vel.v1) + dot(geometry.r2_cross_normal, vel.w2) -
                       dot(geometry.r1_cross_normal, vel.w1);
      const Lanes mass = row.effective_mass.get();
      const Lanes lambda = row.lambda.get();
      const Lanes total = clamp_lanes(lambda + mass * (row.target.get() - jv), zero, max_lambda);
      const Lanes delta = select(take, total - lambda, zero);
      row.lambda.set(select(take, total, lambda));
      const Lanes apply = select(is_finite(delta), delta, zero);
      vel.v1 -= linear1 * apply;
      vel.w1 -= inv_inertia1(geometry.r1_cross_normal * apply);
      vel.v2 += linear2 * apply;
      vel.w2 += inv_inertia2(geometry.r2_cross_normal * apply);
      significant = significant | (take & (abs(delta) > threshold * mass));
    }
  }
  return significant;
}

LaneMask ContactLanes::solve_friction(Velocities& vel) {
  const Lanes zero = Lanes::zero();
  const Lanes friction = friction_.get();
  const LaneMask mask = friction > zero;
  if (!mask.any()) return LaneMask::none();
  const Lanes n = num_points_.get();
  const Lanes3 normal = normal_.get();
  const Lanes3 dv = vel.v2 - vel.v1;

  // Budgets: each point's λ as the larger of the accumulated one and the one its normal row is
  // about to reach.
  // A point's normal velocity is dot(normal, dv) + r2 × n · w2 - r1 × n · w1; in the face form
  // it is the block's generalised velocity at the point's face coordinates, g0 + x g1 + y g2.
  const LaneMask face = face_lanes();
  const uint32_t face_bits = face.bits();
  const Lanes normal_dv = dot(normal, dv);
  Lanes g[3] = {zero, zero, zero};
  if (face_bits != 0) face_velocity(vel, normal_dv, g);
  Lanes sum = zero;
  Lanes moment = zero;
  for (uint32_t p = 0; p < k_max_points; ++p) {
    const LaneMask in = Lanes::broadcast(static_cast<float>(p)) < n;
    const PointRow& row = points_[p];
    Lanes jv = zero;
    if (face_bits != k_all_lanes)
      jv =
          normal_dv + dot(geometry_[2 * p + 1].get(), vel.w2) - dot(geometry_[2 * p].get(), vel.w1);
    if (face_bits != 0)
      jv = select(face, g[0] + face_offset_[p][0].get() * g[1] + face_offset_[p][1].get() * g[2],
                  jv);
    const Lanes lambda = row.lambda.get();
    const Lanes budget = max(lambda, lambda + row.effective_mass.get() * (row.target.get() - jv));
    sum = select(in, sum + budget, sum);
    moment = select(in, moment + lever_[p].get() * budget, moment);
  }

  // The two linear rows, clamped together to the disc of radius μ·Σλ (solve_friction_cone).
  const Lanes max_lambda = friction * sum;
  Lanes old_lambda[2];
  Lanes new_lambda[2];
  for (int k = 0; k < 2; ++k) {
    const Row& row = friction_rows_[k];
    const Lanes jv = dot(tangent_[k].get(), dv) + dot(row.r2_cross_axis.get(), vel.w2) -
                     dot(row.r1_cross_axis.get(), vel.w1);
    old_lambda[k] = row.lambda.get();
    new_lambda[k] = old_lambda[k] + row.effective_mass.get() * (row.target.get() - jv);
  }
  const Lanes len_sq = new_lambda[0] * new_lambda[0] + new_lambda[1] * new_lambda[1];
  const LaneMask outside = len_sq > max_lambda * max_lambda;
  const Lanes scale = max_lambda / sqrt(len_sq);
  const Lanes threshold = Lanes::broadcast(AxisConstraintPart::k_min_velocity_change);
  LaneMask significant = LaneMask::none();
  // Both rows' angular impulses, turned into velocity changes together.
  Lanes3 angular1{zero, zero, zero};
  Lanes3 angular2{zero, zero, zero};
  for (int k = 0; k < 2; ++k) {
    Row& row = friction_rows_[k];
    new_lambda[k] = select(outside, new_lambda[k] * scale, new_lambda[k]);
    const Lanes delta = select(mask, new_lambda[k] - old_lambda[k], zero);
    row.lambda.set(select(mask, new_lambda[k], old_lambda[k]));
    const Lanes apply = select(is_finite(delta), delta, zero);
    const Lanes3 tangent = tangent_[k].get();
    vel.v1 -= linear1(tangent) * apply;
    vel.v2 += linear2(tangent) * apply;
    angular1 += row.r1_cross_axis.get() * apply;
    angular2 += row.r2_cross_axis.get() * apply;
    significant = significant | (mask & (abs(delta) > threshold * row.effective_mass.get()));
  }
  vel.w1 -= inv_inertia1(angular1);
  vel.w2 += inv_inertia2(angular2);

  // Twist about the normal, bounded by μ·Σ(lever·λ) (torsional friction is not taken here).
  const Lanes max_twist = max(friction * moment, zero);
  const Lanes mass = twist_mass_.get();
  const Lanes lambda = twist_lambda_.get();
  const Lanes jv = dot(normal, vel.w2 - vel.w1);
  const Lanes total =
      clamp_lanes(lambda + mass * (twist_target_.get() - jv), zero - max_twist, max_twist);
  const Lanes delta = select(mask, total - lambda, zero);
  twist_lambda_.set(select(mask, total, lambda));
  const Lanes apply = select(is_finite(delta), delta, zero);
  vel.w1 -= inv_inertia1(normal * apply);
  vel.w2 += inv_inertia2(normal * apply);
  significant = significant | (mask & (abs(delta) > threshold * mass));
  return significant;
}

void ContactLanes::warm_start(std::span<SolverBody> bodies, float ratio) {
  Velocities vel;
  gather(bodies, vel);
  const Lanes zero = Lanes::zero();
  const Lanes scale = Lanes::broadcast(ratio);
  // AxisConstraintPart::warm_start: λ ×= ratio, applied unless non-finite. Empty lanes and
  // points hold λ = 0 and apply nothing.
  const auto warm = [&](LaneFloats& lambda_storage) {
    const Lanes lambda = lambda_storage.get() * scale;
    lambda_storage.set(lambda);
    return select(is_finite(lambda), lambda, zero);
  };
  // Every row's angular impulse, summed and turned into a velocity change once per body.
  Lanes3 angular1{zero, zero, zero};
  Lanes3 angular2{zero, zero, zero};
  for (int k = 0; k < 2; ++k) {
    Row& row = friction_rows_[k];
    const Lanes apply = warm(row.lambda);
    const Lanes3 tangent = tangent_[k].get();
    vel.v1 -= linear1(tangent) * apply;
    vel.v2 += linear2(tangent) * apply;
    angular1 += row.r1_cross_axis.get() * apply;
    angular2 += row.r2_cross_axis.get() * apply;
  }
  const Lanes twist = warm(twist_lambda_);
  const Lanes3 normal = normal_.get();
  angular1 += normal * twist;
  angular2 += normal * twist;
  const Lanes3 linear1 = this->linear1(normal);
  const Lanes3 linear2 = this->linear2(normal);
  const LaneMask face = face_lanes();
  for (uint32_t p = 0; p < k_max_points; ++p) {
    const Lanes apply = warm(points_[p].lambda);
    const PointGeometry geometry = point_geometry(p, face);
    vel.v1 -= linear1 * apply;
    vel.v2 += linear2 * apply;
    angular1 += geometry.r1_cross_normal * apply;
    angular2 += geometry.r2_cross_normal * apply;
  }
  vel.w1 -= inv_inertia1(angular1);
  vel.w2 += inv_inertia2(angular2);
  scatter(bodies, vel);
}

bool ContactLanes::solve_velocity_constraints(std::span<SolverBody> bodies, bool first_iteration) {
  Velocities vel;
  gather(bodies, vel);
  const Lanes zero = Lanes::zero();
  const LaneMask used = zero < num_points_.get();
  LaneMask significant = LaneMask::none();
  if (first_iteration) {
    // A contact without normal impulse yet solves its normals first, so that friction has a
    // budget in the first iteration (LAWS.md B1).
    LaneMask no_lambda = used & (zero < friction_.get());
    for (uint32_t p = 0; p < k_max_points; ++p)
      no_lambda = no_lambda & (points_[p].lambda.get() == zero);
    if (no_lambda.any()) significant = significant | solve_normals(vel, no_lambda);
  }
  significant = significant | solve_friction(vel);
  significant = significant | solve_normals(vel, used);
  scatter(bodies, vel);
  return significant.any();
}

}  // namespace atl
