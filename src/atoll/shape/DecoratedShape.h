#pragma once
// Base of the shapes that wrap one inner shape and change how it is seen (rotated and
// translated, scaled, centre of mass moved). Decorators answer every Shape query by transforming
// it into the inner shape's space; the collision dispatch unwraps them instead of asking for
// support functions. SubShapeIDs pass through unchanged: a decorator adds no level.

#include <utility>

#include "atoll/shape/Shape.h"

namespace atl {

class DecoratedShape : public Shape {
 public:
  /// The wrapped shape (never null).
  const Ref<Shape>& inner() const { return inner_; }

  /// The inner shape's material for the same leaf.
  uint32_t material_index(const SubShapeID& id) const override {
    return inner_->material_index(id);
  }

 protected:
  DecoratedShape(ShapeSubType sub_type, Ref<Shape> inner)
      : Shape(ShapeType::Decorated, sub_type), inner_(std::move(inner)) {
    ATOLL_ASSERT(inner_ != nullptr, "a decorated shape needs an inner shape");
  }

 private:
  Ref<Shape> inner_;
};

}  // namespace atl
