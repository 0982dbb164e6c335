#include "atoll/constraint/SpringSettings.h"

#include <cmath>
#include <sstream>

namespace atl {

const char* to_string(SpringMode mode) {
  switch (mode) {
    case SpringMode::FrequencyAndDamping:
      return "frequency_and_damping";
    case SpringMode::StiffnessAndDamping:
      return "stiffness_and_damping";
    case SpringMode::MassNormalizedStiffnessAndDamping:
      return "mass_normalized_stiffness_and_damping";
  }
  return "unknown";
}

Status SpringSettings::validate(std::string_view path) const {
  if (mode != SpringMode::FrequencyAndDamping && mode != SpringMode::StiffnessAndDamping &&
      mode != SpringMode::MassNormalizedStiffnessAndDamping) {
    std::ostringstream os;
    os << path << ".mode: unknown value " << static_cast<int>(mode);
    return Error(os.str());
  }
  const std::pair<const char*, float> fields[] = {
      {"frequency", frequency}, {"stiffness", stiffness}, {"damping", damping}};
  for (const auto& [name, value] : fields) {
    if (!std::isfinite(value) || value < 0.0f) {
      std::ostringstream os;
      os << path << '.' << name << ": must be finite and >= 0, got " << value;
      return Error(os.str());
    }
  }
  return Ok{};
}

}  // namespace atl
