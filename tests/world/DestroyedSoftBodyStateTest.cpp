// Saving the state of a world whose soft body was destroyed since the last update. The soft
// body stays listed until that update drops it, and the save walked it: a StateFilter was asked
// about its Body through a null reference (a filter that read the body crashed), and the state
// held a soft body that the next update removed, so restoring it after that update failed with
// "not a soft body of this world" although the world had the same bodies. A destroyed soft body
// now has no state.

#include <gtest/gtest.h>

#include "atoll/softbody/SoftBodyGenerators.h"
#include "atoll/softbody/SoftBodyManager.h"
#include "atoll/state/StateRecorder.h"
#include "atoll/world/PhysicsSystem.h"

namespace atl {
namespace destroyed_soft_body_state_test {
namespace {

constexpr float k_dt = 1.0f / 60.0f;

// Reads the body it is asked about, as a real filter does.
struct LayerFilter final : StateFilter {
  bool save_body(const Body& body) const override { return body.object_layer() != 7; }
};

struct World {
  World() {
    rope = add_rope(Vec3(0, 2, 0));
    kept = add_rope(Vec3(0, 4, 0));
    EXPECT_TRUE(system.update(k_dt).ok());
  }
  BodyID add_rope(const Vec3& from) {
    SoftBodyCreationSettings settings;
    settings.settings =
        make_rope(from, from + Vec3(1, 0, 0), 4, 1.0f, 0.0f, 0.0f, 0.05f).value_or_throw();
    return system.body_interface()
        .create_and_add_soft_body(settings, Activation::Activate)
        .value_or_throw();
  }
  PhysicsSystem system;
  BodyID rope, kept;
};

TEST(DestroyedSoftBodyState, AFilterIsNotAskedAboutADestroyedSoftBody) {
  World world;
  ASSERT_TRUE(world.system.body_interface().destroy_body(world.rope).ok());
  StateRecorder state;
  const LayerFilter filter;
  ASSERT_TRUE(world.system.save_state(state, StateParts::all, &filter).ok());
  ASSERT_TRUE(world.system.update(k_dt).ok());
  const Status restored = world.system.restore_state(state);
  EXPECT_TRUE(restored.ok()) << restored.error().message();
}

TEST(DestroyedSoftBodyState, AStateSavedRightAfterADestroyRestoresAfterTheNextUpdate) {
  World world;
  ASSERT_TRUE(world.system.body_interface().destroy_body(world.rope).ok());
  StateRecorder state;
  ASSERT_TRUE(world.system.save_state(state).ok());
  // Before the update that drops the destroyed soft body, and after it.
  Status restored = world.system.restore_state(state);
  EXPECT_TRUE(restored.ok()) << restored.error().message();
  ASSERT_TRUE(world.system.update(k_dt).ok());
  StateRecorder stepped;
  ASSERT_TRUE(world.system.save_state(stepped).ok());
  restored = world.system.restore_state(state);
  ASSERT_TRUE(restored.ok()) << restored.error().message();
  // The state is the world's as it was saved: the same update gives the same state again.
  ASSERT_TRUE(world.system.update(k_dt).ok());
  StateRecorder again;
  ASSERT_TRUE(world.system.save_state(again).ok());
  EXPECT_EQ(again.data(), stepped.data());
}

}  // namespace
}  // namespace destroyed_soft_body_state_test
}  // namespace atl
