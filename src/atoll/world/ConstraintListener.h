#pragma once
// Events about constraints, delivered after the update on the calling thread (like contact and
// activation events): the world may be modified from the callback.

#include <span>

#include "atoll/constraint/Constraint.h"

namespace atl {

class ConstraintListener {
 public:
  virtual ~ConstraintListener() = default;
  /// After the update: the constraints that broke in it (already disabled), in the order of
  /// UpdateResult::broken.
  virtual void on_constraints_broken(std::span<const Ref<Constraint>> /*broken*/) {}
};

}  // namespace atl
