#include "atoll/collision/narrowphase/CollideShapeSettings.h"

#include "atoll/shape/Validation.h"

namespace atl {

Status CollideShapeSettings::validate() const {
  if (auto e = check_non_negative("CollideShapeSettings.max_separation_distance",
                                  max_separation_distance))
    return *e;
  if (auto e = check_positive("CollideShapeSettings.collision_tolerance", collision_tolerance))
    return *e;
  if (auto e = check_positive("CollideShapeSettings.penetration_tolerance", penetration_tolerance))
    return *e;
  if (auto e = check_non_negative("CollideShapeSettings.manifold_tolerance", manifold_tolerance))
    return *e;
  if (!(active_edge_cos >= -1.0f && active_edge_cos <= 1.0f))
    return field_error("CollideShapeSettings.active_edge_cos",
                       "must be in [-1, 1], got " + format_float(active_edge_cos));
  return Ok{};
}

}  // namespace atl
