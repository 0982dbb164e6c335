// Stacking acceptance, slow part: the built-in `pyramid` scene (Jolt's PerformanceTest
// Pyramid: 1240 boxes of half extent 1 m in 15 layers, 2.5 m apart, sleeping off) run for its
// 500 steps as shipped. Every box must end on its layer. ~15 s in a release build, so it is
// built into atoll_tests_laws_slow (label "slow"), not atoll_tests_laws.

#include <array>

#include "laws/LawFixture.h"

namespace atl::laws {
namespace pyramid_slow_laws_test {
namespace {

class PyramidLaws : public LawFixture {
 protected:
  // Runs the built-in pyramid, with the friction model switched when `other_friction_model`,
  // and checks every box; `prefix` tags the readings.
  void check_pyramid(bool other_friction_model, const std::string& prefix) {
    const std::unique_ptr<LawWorld> world = LawWorld::from_builtin("pyramid", Conditions::Engine);
    ASSERT_NE(world, nullptr);
    if (other_friction_model) {
      PhysicsSettings settings = world->system().settings();
      settings.manifold_friction = !settings.manifold_friction;
      ASSERT_TRUE(world->system().set_settings(settings).ok());
    }
    const SceneWorld& scene = *world->scene();
    world->run(scene.scene().steps);

    constexpr int k_layers = 15;
    const float slop = world->system().settings().penetration_slop;
    std::array<float, k_layers> drift{}, sink{}, rise{};
    rise.fill(-k_float_max);
    int boxes = 0;
    for (size_t i = 0; i < scene.body_ids().size(); ++i) {
      const BodyDesc& desc = scene.scene().bodies[i];
      if (desc.settings.motion_type != MotionType::Dynamic) continue;
      ++boxes;
      // Layer i starts at y = 1 + 2.5·i and rests at y = 1 + 2·i (boxes 2 m tall).
      const int layer = static_cast<int>(std::lround((desc.settings.position.y() - 1.0f) / 2.5f));
      ASSERT_GE(layer, 0);
      ASSERT_LT(layer, k_layers);
      const BodyID id = scene.body_ids()[i];
      const float expected = 1.0f + 2.0f * static_cast<float>(layer);
      const float y = world->position(id).y();
      drift[layer] = std::max(drift[layer], world->horizontal_distance(id, desc.settings.position));
      sink[layer] = std::max(sink[layer], expected - y);
      rise[layer] = std::max(rise[layer], y - expected);
      // On its layer: each contact below may keep up to the slop of overlap. The position solver
      // stops exactly at the slop, so a resting box sits at the bound give or take round-off
      // (layer 0 read 20.0022–20.0104 mm): k_round_off covers that, not any real sinking.
      constexpr float k_round_off = 1.0e-4f;
      EXPECT_LT(expected - y, 0.02f + static_cast<float>(layer) * slop + k_round_off)
          << scene.body_names()[i] << " (layer " << layer << ") sank";
      EXPECT_LT(y - expected, 0.02f) << scene.body_names()[i] << " (layer " << layer << ") rose";
      // Not fallen off: its centre stays over the boxes it stands on (within half a box).
      EXPECT_LT(world->horizontal_distance(id, desc.settings.position), 1.0f)
          << scene.body_names()[i] << " (layer " << layer << ") slid off";
    }
    EXPECT_EQ(boxes, 1240);
    for (int layer = 0; layer < k_layers; ++layer) {
      const std::string tag = prefix + ".layer_" + std::to_string(layer);
      report(tag + ".max_horizontal_drift_mm", drift[layer] * 1000.0f);
      report(tag + ".max_sink_mm", sink[layer] * 1000.0f);
    }
  }
};

TEST_F(PyramidLaws, Stacking_PyramidKeepsEveryBoxOnItsLayer) {
  check_pyramid(false, "Pyramid");
  // Atoll: largest drift 149.6 mm (layer 7; per-point friction: 129.8 mm, layer 9), every
  // contact just under the 20 mm slop against 20 + 20·layer mm allowed. With GJK + EPA for the
  // box pairs (before box-vs-box SAT) it read 80.7 mm (96.1 mm); the drift is chaotic: nudging
  // one contact setting by 0.5–10 % gave 80–170 mm with EPA and 124–159 mm with SAT.
}

// Issue 7 item 6: the pyramid under the other friction model (PhysicsSettings::
// manifold_friction switched), to compare the two models' drift.
TEST_F(PyramidLaws, Stacking_PyramidKeepsEveryBoxOnItsLayerWithTheOtherFrictionModel) {
  check_pyramid(true, PhysicsSettings{}.manifold_friction ? "Pyramid.per_point_friction"
                                                          : "Pyramid.manifold_friction");
}

}  // namespace
}  // namespace pyramid_slow_laws_test
}  // namespace atl::laws
