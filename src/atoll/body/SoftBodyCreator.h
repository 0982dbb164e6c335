#pragma once
// How BodyInterface creates a soft body without knowing what one is made of: softbody/ builds on
// body/ (DESIGN.md's dependency order), so the world that simulates soft bodies (PhysicsSystem)
// implements this and BodyInterface::create_soft_body forwards to it.

#include "atoll/body/BodyID.h"
#include "atoll/core/Result.h"

namespace atl {

struct SoftBodyCreationSettings;  // softbody/SoftBodyManager.h

class SoftBodyCreator {
 public:
  virtual ~SoftBodyCreator() = default;
  /// Creates the soft body, not added; errors start with "`call`: " and name the bad field.
  virtual Result<BodyID> create_soft_body(const SoftBodyCreationSettings& settings,
                                          const char* call) = 0;
};

}  // namespace atl
