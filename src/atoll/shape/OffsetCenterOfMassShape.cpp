#include "atoll/shape/OffsetCenterOfMassShape.h"

#include "atoll/shape/Validation.h"

namespace atl {

Result<Ref<Shape>> OffsetCenterOfMassShapeSettings::create() const {
  if (inner == nullptr)
    return field_error("OffsetCenterOfMassShapeSettings.inner", "must not be null");
  if (auto e = check_finite("OffsetCenterOfMassShapeSettings.offset", offset)) return *e;
  if (!(inner->center_of_mass() + offset).is_finite())
    return field_error("OffsetCenterOfMassShapeSettings.offset",
                       "moves the centre of mass beyond what float holds");
  return Ref<Shape>(make_ref<OffsetCenterOfMassShape>(inner, offset));
}

OffsetCenterOfMassShape::OffsetCenterOfMassShape(Ref<Shape> inner, const Vec3& offset)
    : DecoratedShape(ShapeSubType::OffsetCenterOfMass, std::move(inner)), offset_(offset) {
  ATOLL_ASSERT(offset.is_finite(), "OffsetCenterOfMassShape: offset must be finite");
}

MassProperties OffsetCenterOfMassShape::mass_properties() const {
  MassProperties mp = inner()->mass_properties();
  mp.translate(offset_);
  return mp;
}

}  // namespace atl
