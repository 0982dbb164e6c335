#include "atoll/constraint/PathConstraint.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "atoll/constraint/ConstraintState.h"
#include "atoll/math/Mat44.h"

namespace atl {

namespace {

constexpr std::string_view k_path = "PathConstraintSettings";
// Most fractions a rigid position motor moves the point in one step.
constexpr float k_rigid_motor_step = 0.25f;

Status check_friction(float force, std::string_view path) {
  if (!std::isfinite(force) || force < 0.0f)
    return Error(std::string(path) + ".max_friction_force: must be finite and >= 0, got " +
                 std::to_string(force));
  return Ok{};
}

}  // namespace

const char* to_string(PathRotationConstraintType type) {
  switch (type) {
    case PathRotationConstraintType::Free:
      return "free";
    case PathRotationConstraintType::ConstrainAroundTangent:
      return "constrain_around_tangent";
    case PathRotationConstraintType::ConstrainAroundNormal:
      return "constrain_around_normal";
    case PathRotationConstraintType::ConstrainAroundBinormal:
      return "constrain_around_binormal";
    case PathRotationConstraintType::ConstrainToPath:
      return "constrain_to_path";
    case PathRotationConstraintType::FullyConstrained:
      return "fully_constrained";
  }
  return "unknown";
}

Result<Ref<Constraint>> PathConstraintSettings::create(const BodyInterface& bodies, BodyID body1,
                                                       BodyID body2) const {
  const std::string p(k_path);
  if (Status s = common.validate(k_path); !s) return s.error();
  if (path == nullptr) return Error(p + ".path: must be set");
  if (Status s = path->validate(p + ".path"); !s) return s.error();
  if (Status s = check_finite(path_position, k_path, "path_position"); !s) return s.error();
  if (!path_rotation.is_finite() || std::fabs(path_rotation.length() - 1.0f) > 1.0e-3f)
    return Error(p + ".path_rotation: must be a finite unit quaternion");
  if (!std::isfinite(path_fraction) || path_fraction < 0.0f || path_fraction > path->max_fraction())
    return Error(p + ".path_fraction: must be in [0, " + std::to_string(path->max_fraction()) +
                 "], got " + std::to_string(path_fraction));
  if (static_cast<uint8_t>(rotation_constraint_type) >
      static_cast<uint8_t>(PathRotationConstraintType::FullyConstrained))
    return Error(p + ".rotation_constraint_type: unknown value " +
                 std::to_string(static_cast<int>(rotation_constraint_type)));
  if (Status s = check_friction(max_friction_force, k_path); !s) return s.error();
  if (Status s = position_motor_settings.validate(p + ".position_motor_settings"); !s)
    return s.error();
  Result<std::array<ConstraintBodyPose, 2>> poses =
      constraint_body_poses(bodies, body1, body2, k_path);
  if (!poses) return poses.error();
  const auto& b = poses.value();

  PathConstraintSettings local = *this;
  local.path_rotation = path_rotation.normalized();
  const PathConstraintPath::Frame frame = path->frame(path_fraction);
  const Quat path_to_world = b[0].rotation * local.path_rotation;
  const Vec3 world_point =
      b[0].com_position + b[0].rotation * path_position + path_to_world * frame.position;
  const Vec3 local_point2 = b[1].to_local(world_point);
  const Quat frame2 =
      (b[1].rotation.conjugated() * path_to_world * PathConstraint::frame_rotation(frame))
          .normalized();
  const Quat relative_rotation =
      RotationEulerConstraintPart::relative_rotation(b[0].rotation, b[1].rotation);
  return Ref<Constraint>(
      new PathConstraint(body1, body2, local, local_point2, frame2, relative_rotation));
}

PathConstraintSettings PathConstraint::settings() const {
  PathConstraintSettings s = s_;
  s.common = common_settings();
  return s;
}

Status PathConstraint::set_target_velocity(float velocity) {
  if (!std::isfinite(velocity))
    return Error("PathConstraint::set_target_velocity: velocity: must be finite");
  target_velocity_ = velocity;
  return Ok{};
}

Status PathConstraint::set_target_path_fraction(float fraction) {
  if (!std::isfinite(fraction))
    return Error("PathConstraint::set_target_path_fraction: fraction: must be finite");
  target_path_fraction_ = s_.path->wrap_fraction(fraction);
  return Ok{};
}

Status PathConstraint::set_max_friction_force(float force) {
  if (Status s = check_friction(force, "PathConstraint"); !s) return s;
  s_.max_friction_force = force;
  return Ok{};
}

Vec3 PathConstraint::total_lambda_rotation() const {
  if (s_.rotation_constraint_type == PathRotationConstraintType::FullyConstrained)
    return rotation_euler_.total_lambda();
  Vec3 sum;
  for (int i = 0; i < num_rotation_rows_; ++i)
    sum += rotation_axes_[i] * rotation_[static_cast<size_t>(i)].total_lambda();
  return sum;
}

float PathConstraint::linear_impulse() const {
  const std::array<float, 2> p = position_.total_lambda();
  const float l = limits_.total_lambda();
  return std::sqrt(p[0] * p[0] + p[1] * p[1] + l * l);
}

void PathConstraint::reset_warm_start() {
  position_.set_total_lambda({0.0f, 0.0f});
  limits_.set_total_lambda(0.0f);
  motor_.set_total_lambda(0.0f);
  for (AngleConstraintPart& row : rotation_) row.set_total_lambda(0.0f);
  rotation_euler_.set_total_lambda(Vec3::zero());
}

Quat PathConstraint::frame_rotation(const PathConstraintPath::Frame& frame) {
  return Mat44(Vec4(frame.tangent, 0.0f), Vec4(frame.normal, 0.0f), Vec4(frame.binormal, 0.0f),
               Vec4(0.0f, 0.0f, 0.0f, 1.0f))
      .quaternion()
      .normalized();
}

Vec3 PathConstraint::frame_turn_rate(float fraction) const {
  // Central difference over ±0.01 of a fraction (one-sided at an open path's ends).
  constexpr float k_h = 0.01f;
  const PathConstraintPath& path = *s_.path;
  float a = fraction - k_h, b = fraction + k_h;
  if (!path.is_looping()) {
    a = std::max(a, 0.0f);
    b = std::min(b, path.max_fraction());
  }
  if (!(b > a)) return Vec3::zero();
  const Quat qa = frame_rotation(path.frame(a));
  const Quat qb = frame_rotation(path.frame(b));
  Vec3 axis;
  float angle = 0.0f;
  (qb * qa.conjugated()).normalized().to_axis_angle(axis, angle);
  return axis * (angle / (b - a));
}

void PathConstraint::measure(const SolverBody& body1, const SolverBody& body2) {
  const PathConstraintPath& path = *s_.path;
  path_to_world_ = body1.rotation * s_.path_rotation;
  const Vec3 origin = body1.com_position + body1.rotation * s_.path_position;
  r2_ = body2.rotation * local_point2_;
  const Vec3 point2 = body2.com_position + r2_;
  fraction_ = path.closest_fraction(path_to_world_.conjugated() * (point2 - origin), fraction_);
  frame_ = path.frame(fraction_);
  const Vec3 point1 = origin + path_to_world_ * frame_.position;
  r1_ = point1 - body1.com_position;
  u_ = point2 - point1;
  tangent_ = path_to_world_ * frame_.tangent;
  normal_ = path_to_world_ * frame_.normal;
  binormal_ = path_to_world_ * frame_.binormal;
}

int PathConstraint::rotation_rows(Vec3 axes[3]) const {
  switch (s_.rotation_constraint_type) {
    case PathRotationConstraintType::ConstrainAroundTangent:
      axes[0] = normal_;
      axes[1] = binormal_;
      return 2;
    case PathRotationConstraintType::ConstrainAroundNormal:
      axes[0] = tangent_;
      axes[1] = binormal_;
      return 2;
    case PathRotationConstraintType::ConstrainAroundBinormal:
      axes[0] = tangent_;
      axes[1] = normal_;
      return 2;
    case PathRotationConstraintType::ConstrainToPath:
      axes[0] = tangent_;
      axes[1] = normal_;
      axes[2] = binormal_;
      return 3;
    case PathRotationConstraintType::Free:
    case PathRotationConstraintType::FullyConstrained:
      break;
  }
  return 0;
}

Vec3 PathConstraint::rotation_error(const SolverBody& body1, const SolverBody& body2) const {
  // Body 2's frame axes (the path's frame at creation, carried by body 2).
  const Quat frame2_world = body2.rotation * frame2_;
  switch (s_.rotation_constraint_type) {
    case PathRotationConstraintType::ConstrainAroundTangent:
      return tangent_.cross(frame2_world.rotate_axis_x());
    case PathRotationConstraintType::ConstrainAroundNormal:
      return normal_.cross(frame2_world.rotate_axis_y());
    case PathRotationConstraintType::ConstrainAroundBinormal:
      return binormal_.cross(frame2_world.rotate_axis_z());
    case PathRotationConstraintType::ConstrainToPath: {
      // Held: q2 · frame2 = path_to_world · F(fraction), i.e. q1⁻¹·q2 = q0 below.
      const Quat q0 = s_.path_rotation * frame_rotation(frame_) * frame2_.conjugated();
      return RotationEulerConstraintPart::error(body1, body2, q0);
    }
    case PathRotationConstraintType::Free:
    case PathRotationConstraintType::FullyConstrained:
      break;
  }
  return Vec3::zero();
}

void PathConstraint::setup_motor(const SolverBody& body1, const SolverBody& body2, float dt,
                                 const Vec3& r1u, const Vec3& axis) {
  const PathConstraintPath& path = *s_.path;
  const MotorSettings& m = s_.position_motor_settings;
  motor_min_lambda_ = m.min_force_limit * dt;
  motor_max_lambda_ = m.max_force_limit * dt;
  switch (motor_state_) {
    case MotorState::Off:
      if (s_.max_friction_force > 0.0f) {
        motor_min_lambda_ = -s_.max_friction_force * dt;
        motor_max_lambda_ = s_.max_friction_force * dt;
        motor_.calculate_constraint_properties(body1, r1u, body2, r2_, axis, 0.0f);
      } else {
        motor_.deactivate();
      }
      break;
    case MotorState::Velocity:
      motor_.calculate_constraint_properties(body1, r1u, body2, r2_, axis, target_velocity_);
      break;
    case MotorState::Position:
    case MotorState::PositionAndVelocity: {
      const float velocity =
          motor_state_ == MotorState::PositionAndVelocity ? target_velocity_ : 0.0f;
      // Path length from the target to the point, to first order (m). A rigid motor would
      // close it within one step along the tangent: it is given at most a quarter of a
      // fraction per step (the path bends away from its tangent, and a point a segment away
      // is no longer near last step's closest fraction).
      float error = -path.fraction_delta(fraction_, target_path_fraction_) * frame_.speed;
      if (!m.spring.has_stiffness())
        error = std::clamp(error, -k_rigid_motor_step * frame_.speed,
                           k_rigid_motor_step * frame_.speed);
      motor_.calculate_constraint_properties_for_motor(dt, body1, r1u, body2, r2_, axis, velocity,
                                                       error, m.spring, motor_min_lambda_,
                                                       motor_max_lambda_);
      break;
    }
  }
}

void PathConstraint::setup_velocity_constraint(const SolverBody& body1, const SolverBody& body2,
                                               float dt) {
  const PathConstraintPath& path = *s_.path;
  measure(body1, body2);
  const Vec3 r1u = r1_ + u_;

  // Speed along the path (fractions per second) and the frame at the step's midpoint.
  const Vec3 relative_velocity = (body2.linear_velocity + body2.angular_velocity.cross(r2_)) -
                                 (body1.linear_velocity + body1.angular_velocity.cross(r1u));
  float along = relative_velocity.dot(tangent_);
  if (motor_state_ != MotorState::Off) {
    // A motor changes the speed within the step: the prediction takes the speed its impulse
    // alone would give (tried on copies of the bodies, from a zero accumulated impulse).
    const float warm = motor_.total_lambda();
    motor_.set_total_lambda(0.0f);
    setup_motor(body1, body2, dt, r1u, tangent_);
    if (motor_.is_active()) {
      const float lambda = std::clamp(motor_.lambda_for_target(body1, body2, tangent_),
                                      motor_min_lambda_, motor_max_lambda_);
      SolverBody trial1 = body1, trial2 = body2;
      motor_.apply(trial1, trial2, lambda);
      along = motor_.relative_velocity(trial1, trial2, tangent_);
    }
    motor_.set_total_lambda(warm);
  }
  float fraction_rate = along / frame_.speed;
  // On an open path the point will not pass an end this step (the ends' row below sees to it).
  if (!path.is_looping())
    fraction_rate =
        std::clamp(fraction_rate, -fraction_ / dt, (path.max_fraction() - fraction_) / dt);
  const float mid = path.wrap_fraction(fraction_ + 0.5f * fraction_rate * dt);
  const PathConstraintPath::Frame mid_frame = path.frame(mid);
  axis_ = path_to_world_ * mid_frame.tangent;
  n1_ = path_to_world_ * mid_frame.normal;
  n2_ = path_to_world_ * mid_frame.binormal;
  position_.calculate_constraint_properties(body1, r1u, body2, r2_, n1_, n2_);

  // The ends of an open path: a row along the path that lets the point reach the nearer end
  // within this step but not pass it (its target is the distance left over dt).
  if (!path.is_looping()) {
    const float max = path.max_fraction();
    const int end = fraction_ > 0.5f * max ? 1 : -1;
    if (end != limit_end_) limits_.set_total_lambda(0.0f);
    limit_end_ = end;
    float target = 0.0f;
    if (end > 0) {
      target = (max - fraction_) * frame_.speed / dt;
      limit_min_lambda_ = -k_float_max;
      limit_max_lambda_ = 0.0f;
    } else {
      target = -fraction_ * frame_.speed / dt;
      limit_min_lambda_ = 0.0f;
      limit_max_lambda_ = k_float_max;
    }
    limits_.calculate_constraint_properties(body1, r1u, body2, r2_, axis_, target);
  } else {
    limit_end_ = 0;
    limits_.deactivate();
  }

  setup_motor(body1, body2, dt, r1u, axis_);

  if (s_.rotation_constraint_type == PathRotationConstraintType::FullyConstrained) {
    rotation_euler_.calculate_constraint_properties(body1, body2);
    num_rotation_rows_ = 0;
  } else {
    // The frame turns as the point moves along the path: the rows drive body 2's angular
    // velocity relative to body 1 to the frame's about the rows' axes.
    num_rotation_rows_ = rotation_rows(rotation_axes_);
    const Vec3 frame_velocity =
        num_rotation_rows_ > 0 ? path_to_world_ * (frame_turn_rate(mid) * fraction_rate) : Vec3();
    for (int i = 0; i < num_rotation_rows_; ++i)
      rotation_[static_cast<size_t>(i)].calculate_constraint_properties(
          body1, body2, rotation_axes_[i], frame_velocity.dot(rotation_axes_[i]));
  }
}

void PathConstraint::warm_start_velocity_constraint(SolverBody& body1, SolverBody& body2,
                                                    float ratio) {
  if (motor_.is_active()) motor_.warm_start(body1, body2, ratio);
  if (limits_.is_active()) limits_.warm_start(body1, body2, ratio);
  if (s_.rotation_constraint_type == PathRotationConstraintType::FullyConstrained)
    rotation_euler_.warm_start(body1, body2, ratio);
  for (int i = 0; i < num_rotation_rows_; ++i)
    rotation_[static_cast<size_t>(i)].warm_start(body1, body2, ratio);
  position_.warm_start(body1, body2, ratio);
}

bool PathConstraint::solve_velocity_constraint(SolverBody& body1, SolverBody& body2, float /*dt*/) {
  bool applied = false;
  if (motor_.is_active())
    applied |=
        motor_.solve_velocity_constraint(body1, body2, axis_, motor_min_lambda_, motor_max_lambda_);
  if (limits_.is_active())
    applied |= limits_.solve_velocity_constraint(body1, body2, axis_, limit_min_lambda_,
                                                 limit_max_lambda_);
  if (s_.rotation_constraint_type == PathRotationConstraintType::FullyConstrained)
    applied |= rotation_euler_.solve_velocity_constraint(body1, body2);
  for (int i = 0; i < num_rotation_rows_; ++i)
    applied |= rotation_[static_cast<size_t>(i)].solve_velocity_constraint(body1, body2);
  applied |= position_.solve_velocity_constraint(body1, body2);
  return applied;
}

bool PathConstraint::solve_position_constraint(SolverBody& body1, SolverBody& body2, float /*dt*/,
                                               float baumgarte) {
  const PathConstraintPath& path = *s_.path;
  bool moved = false;
  if (s_.rotation_constraint_type == PathRotationConstraintType::FullyConstrained) {
    rotation_euler_.calculate_constraint_properties(body1, body2);
    moved |= rotation_euler_.solve_position_constraint(body1, body2, relative_rotation_, baumgarte);
  } else if (s_.rotation_constraint_type != PathRotationConstraintType::Free) {
    // Each row in turn on a fresh measurement: a fresh hard row at the current pose whose
    // error is the rotation error about its axis; the velocity impulse of the step is kept.
    Vec3 axes[3];
    const int rows = rotation_rows(axes);
    for (int i = 0; i < rows; ++i) {
      measure(body1, body2);
      rotation_rows(axes);
      AngleConstraintPart& row = rotation_[static_cast<size_t>(i)];
      const float lambda = row.total_lambda();
      row.calculate_constraint_properties(body1, body2, axes[i]);
      row.set_total_lambda(lambda);
      moved |= row.solve_position_constraint(body1, body2,
                                             rotation_error(body1, body2).dot(axes[i]), baumgarte);
    }
  }
  if (!path.is_looping()) {
    measure(body1, body2);
    // Past an end the closest point is the end: the point's overshoot is u along the tangent.
    const float along = u_.dot(tangent_);
    float c = 0.0f;
    if (fraction_ >= path.max_fraction() && along > 0.0f) c = along;
    if (fraction_ <= 0.0f && along < 0.0f) c = along;
    if (c != 0.0f)
      moved |= AxisConstraintPart::solve_position_constraint(body1, r1_ + u_, body2, r2_, tangent_,
                                                             c, baumgarte);
  }
  measure(body1, body2);
  // As SliderConstraint: the position pass gives the part body 1's own point on the path (r1),
  // against which it measures the separation along N and B.
  const std::array<float, 2> lambda = position_.total_lambda();
  position_.calculate_constraint_properties(body1, r1_, body2, r2_, normal_, binormal_);
  position_.set_total_lambda(lambda);
  moved |= position_.solve_position_constraint(body1, body2, baumgarte);
  return moved;
}

void PathConstraint::visit_type_state(StateStream& s) {
  visit_setting<1>(s, {"max_friction_force"}, {s_.max_friction_force},
                   [this](const std::array<float, 1>& v) { return set_max_friction_force(v[0]); });
  visit_motor_states(s, "motor_state", &motor_state_, 1);
  visit_finite(s, "target_velocity", target_velocity_);
  visit_finite(s, "target_path_fraction", target_path_fraction_);
  // Where the next step's search for body 2's point starts (a path may pass one place twice).
  float fraction = fraction_;
  s.floats("path_fraction", &fraction, 1);
  if (s.restoring() && s.ok()) {
    if (!(fraction >= 0.0f && fraction <= s_.path->max_fraction()))
      s.fail("path_fraction: saved " + std::to_string(fraction) + ", not in [0, " +
             std::to_string(s_.path->max_fraction()) + "]");
    else
      fraction_ = fraction;
  }
  position_.visit_state(s, "position_lambda");
  limits_.visit_state(s, "limits_lambda");
  motor_.visit_state(s, "motor_lambda");
  constexpr const char* k_rows[3] = {"rotation_row1_lambda", "rotation_row2_lambda",
                                     "rotation_row3_lambda"};
  for (int i = 0; i < 3; ++i) rotation_[i].visit_state(s, k_rows[i]);
  rotation_euler_.visit_state(s, "rotation_lambda");
}

}  // namespace atl
