#include "atoll/shape/Shape.h"

#include <cmath>

namespace atl {

const char* shape_sub_type_name(ShapeSubType type) {
  switch (type) {
    case ShapeSubType::Sphere:
      return "sphere";
    case ShapeSubType::Box:
      return "box";
    case ShapeSubType::Capsule:
      return "capsule";
    case ShapeSubType::Cylinder:
      return "cylinder";
    case ShapeSubType::ConvexHull:
      return "convex_hull";
    case ShapeSubType::TriangleMesh:
      return "mesh";
    case ShapeSubType::HeightField:
      return "heightfield";
    case ShapeSubType::StaticCompound:
      return "compound";
    case ShapeSubType::RotatedTranslated:
      return "rotated_translated";
    case ShapeSubType::Scaled:
      return "scaled";
    case ShapeSubType::OffsetCenterOfMass:
      return "offset_center_of_mass";
  }
  return "unknown";
}

bool Shape::is_valid_scale(const Vec3& scale) const {
  for (int axis = 0; axis < 3; ++axis)
    if (!std::isfinite(scale[axis]) || scale[axis] == 0.0f) return false;
  return true;
}

}  // namespace atl
