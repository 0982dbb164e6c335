#include "atoll/constraint/MotorSettings.h"

#include <cmath>
#include <sstream>
#include <string>

namespace atl {

const char* to_string(MotorState state) {
  switch (state) {
    case MotorState::Off:
      return "off";
    case MotorState::Velocity:
      return "velocity";
    case MotorState::Position:
      return "position";
    case MotorState::PositionAndVelocity:
      return "position_and_velocity";
  }
  return "unknown";
}

Status MotorSettings::validate(std::string_view path) const {
  const Status spring_status = spring.validate(std::string(path) + ".spring");
  if (!spring_status) return spring_status;
  struct Range {
    const char* min_name;
    float min;
    const char* max_name;
    float max;
  };
  const Range ranges[] = {
      {"min_force_limit", min_force_limit, "max_force_limit", max_force_limit},
      {"min_torque_limit", min_torque_limit, "max_torque_limit", max_torque_limit}};
  for (const Range& r : ranges) {
    for (const auto& [name, value] : {std::pair{r.min_name, r.min}, std::pair{r.max_name, r.max}}) {
      if (std::isnan(value)) {
        std::ostringstream os;
        os << path << '.' << name << ": must not be NaN";
        return Error(os.str());
      }
    }
    if (r.min > r.max) {
      std::ostringstream os;
      os << path << '.' << r.min_name << ": must be <= " << r.max_name << " (" << r.max << "), got "
         << r.min;
      return Error(os.str());
    }
  }
  return Ok{};
}

}  // namespace atl
