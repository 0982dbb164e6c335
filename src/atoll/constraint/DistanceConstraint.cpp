#include "atoll/constraint/DistanceConstraint.h"

#include <cmath>
#include <utility>

#include "atoll/constraint/ConstraintState.h"

namespace atl {

namespace {

Status check_distance_limits(float min_distance, float max_distance, std::string_view path) {
  if (!std::isfinite(min_distance) || min_distance < 0.0f)
    return Error(std::string(path) + ".min_distance: must be finite and >= 0 (or -1), got " +
                 std::to_string(min_distance));
  if (!std::isfinite(max_distance) || max_distance < min_distance)
    return Error(std::string(path) + ".max_distance: must be finite and >= min_distance (" +
                 std::to_string(min_distance) + "), got " + std::to_string(max_distance));
  return Ok{};
}

}  // namespace

Result<Ref<Constraint>> DistanceConstraintSettings::create(const BodyInterface& bodies,
                                                           BodyID body1, BodyID body2) const {
  constexpr std::string_view path = "DistanceConstraintSettings";
  if (Status s = common.validate(path); !s) return s.error();
  if (Status s = check_finite(point1, path, "point1"); !s) return s.error();
  if (Status s = check_finite(point2, path, "point2"); !s) return s.error();
  for (auto [value, name] :
       {std::pair{min_distance, "min_distance"}, std::pair{max_distance, "max_distance"}})
    if (!std::isfinite(value) || (value < 0.0f && value != -1.0f))
      return Error(std::string(path) + "." + name + ": must be finite and >= 0, or -1, got " +
                   std::to_string(value));
  if (Status s = limits_spring_settings.validate(std::string(path) + ".limits_spring_settings"); !s)
    return s.error();
  Result<std::array<ConstraintBodyPose, 2>> poses =
      constraint_body_poses(bodies, body1, body2, path);
  if (!poses) return poses.error();
  const auto& p = poses.value();
  DistanceConstraintSettings s = *this;
  const bool world = space == ConstraintSpace::WorldSpace;
  const Vec3 world1 = world ? point1 : p[0].com_position + p[0].rotation * point1;
  const Vec3 world2 = world ? point2 : p[1].com_position + p[1].rotation * point2;
  const float distance = (world2 - world1).length();
  if (s.min_distance < 0.0f) s.min_distance = distance;
  if (s.max_distance < 0.0f) s.max_distance = distance;
  if (Status valid = check_distance_limits(s.min_distance, s.max_distance, path); !valid)
    return valid.error();
  s.space = ConstraintSpace::LocalToBodyCOM;
  s.point1 = p[0].to_local(world1);
  s.point2 = p[1].to_local(world2);
  return Ref<Constraint>(new DistanceConstraint(body1, body2, s));
}

DistanceConstraintSettings DistanceConstraint::settings() const {
  DistanceConstraintSettings s;
  s.common = common_settings();
  s.space = ConstraintSpace::LocalToBodyCOM;
  s.point1 = local1_;
  s.point2 = local2_;
  s.min_distance = min_distance_;
  s.max_distance = max_distance_;
  s.limits_spring_settings = spring_;
  return s;
}

Status DistanceConstraint::set_distance(float min_distance, float max_distance) {
  if (Status s = check_distance_limits(min_distance, max_distance, "DistanceConstraint"); !s)
    return s;
  min_distance_ = min_distance;
  max_distance_ = max_distance;
  return Ok{};
}

void DistanceConstraint::measure(const SolverBody& body1, const SolverBody& body2) {
  r1_ = body1.rotation * local1_;
  r2_ = body2.rotation * local2_;
  const Vec3 delta = (body2.com_position + r2_) - (body1.com_position + r1_);
  distance_ = delta.length();
  // Coincident points: keep the last direction.
  if (distance_ > 1.0e-6f) axis_dir_ = delta / distance_;
}

float DistanceConstraint::violation() {
  if (min_distance_ == max_distance_) {
    min_lambda_ = -k_float_max;
    max_lambda_ = k_float_max;
    return distance_ - min_distance_;
  }
  if (distance_ <= min_distance_) {
    min_lambda_ = 0.0f;
    max_lambda_ = k_float_max;
    return distance_ - min_distance_;
  }
  if (distance_ >= max_distance_) {
    min_lambda_ = -k_float_max;
    max_lambda_ = 0.0f;
    return distance_ - max_distance_;
  }
  return 0.0f;
}

void DistanceConstraint::setup_velocity_constraint(const SolverBody& body1, const SolverBody& body2,
                                                   float dt) {
  measure(body1, body2);
  const bool at_limit =
      min_distance_ == max_distance_ || distance_ <= min_distance_ || distance_ >= max_distance_;
  if (!at_limit) {
    axis_.deactivate();
    return;
  }
  const float c = violation();
  axis_.calculate_constraint_properties_for_limit(dt, body1, r1_, body2, r2_, axis_dir_, 0.0f, c,
                                                  spring_);
}

void DistanceConstraint::warm_start_velocity_constraint(SolverBody& body1, SolverBody& body2,
                                                        float ratio) {
  if (axis_.is_active()) axis_.warm_start(body1, body2, ratio);
}

bool DistanceConstraint::solve_velocity_constraint(SolverBody& body1, SolverBody& body2,
                                                   float /*dt*/) {
  if (!axis_.is_active()) return false;
  return axis_.solve_velocity_constraint(body1, body2, axis_dir_, min_lambda_, max_lambda_);
}

bool DistanceConstraint::solve_position_constraint(SolverBody& body1, SolverBody& body2,
                                                   float /*dt*/, float baumgarte) {
  if (spring_.has_stiffness()) return false;  // a soft limit has no position correction
  measure(body1, body2);
  const float c = violation();
  if (c == 0.0f) return false;
  return AxisConstraintPart::solve_position_constraint(body1, r1_, body2, r2_, axis_dir_, c,
                                                       baumgarte);
}

void DistanceConstraint::visit_type_state(StateStream& s) {
  visit_setting<2>(s, {"min_distance", "max_distance"}, {min_distance_, max_distance_},
                   [this](const std::array<float, 2>& v) { return set_distance(v[0], v[1]); });
  visit_finite(s, "axis_direction", axis_dir_);
  axis_.visit_state(s, "position_lambda");
}

}  // namespace atl
