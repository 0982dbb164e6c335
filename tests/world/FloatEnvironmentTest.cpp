// The step computes in the default floating-point environment whatever the caller's
// (core/FloatEnvironment.h, issue 10 item 3): a game that turns on flush-to-zero and
// denormals-are-zero on its thread sees, from a contact listener called during the step, the
// default MXCSR; gets the same bits as a caller with the default environment; and has its own
// environment back when update() returns. Also for a job system whose workers run with
// flush-to-zero on.

#include <gtest/gtest.h>

#include "atoll/core/FloatEnvironment.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/state/StateHash.h"
#include "atoll/world/PhysicsSystem.h"

#if ATOLL_HAS_MXCSR

namespace atl {
namespace float_environment_test {

constexpr uint32_t k_flush_to_zero = 0x8000u;
constexpr uint32_t k_denormals_are_zero = 0x0040u;

// Records the MXCSR seen inside the step.
struct Listener final : ContactListener {
  void on_contact_added(const Body&, const Body&, const ContactManifold&,
                        ContactSettings&) override {
    seen = _mm_getcsr() & ~ScopedDefaultFloatEnvironment::k_status_flags;
    ++calls;
  }
  uint32_t seen = 0;
  int calls = 0;
};

// Runs every range on the caller with flush-to-zero on, as a game's own scheduler might.
class FlushingJobSystem final : public JobSystem {
 public:
  uint32_t num_workers() const override { return 2; }
  void run(TaskFunction task, uint32_t count, uint32_t min_range, void* context) override {
    const uint32_t step = min_range == 0 ? 1 : min_range;
    const uint32_t saved = _mm_getcsr();
    _mm_setcsr(saved | k_flush_to_zero | k_denormals_are_zero);
    for (uint32_t begin = 0; begin < count; begin += step)
      task(begin, count - begin < step ? count : begin + step, (begin / step) % 2, context);
    _mm_setcsr(saved);
  }
};

uint64_t run_boxes(uint32_t caller_mxcsr, JobSystem* jobs, Listener* listener = nullptr) {
  PhysicsSystem system;
  BodyInterface& bodies = system.body_interface();
  Ref<Shape> floor = BoxShapeSettings{Vec3(10, 1, 10)}.create().value();
  Ref<Shape> box = BoxShapeSettings{Vec3(0.5f, 0.5f, 0.5f)}.create().value();
  (void)bodies.create_and_add_body({floor, Vec3(0, -1, 0), Quat(), MotionType::Static},
                                   Activation::DontActivate);
  for (int i = 0; i < 6; ++i)
    (void)bodies.create_and_add_body(
        {box, Vec3(0.3f * float(i % 2), 0.5f + 1.01f * float(i), 0), Quat(), MotionType::Dynamic},
        Activation::Activate);
  system.set_contact_listener(listener);
  const uint32_t saved = _mm_getcsr();
  _mm_setcsr(caller_mxcsr);
  for (int step = 0; step < 120; ++step) {
    const bool ok = system.update(1.0f / 60.0f, 1, jobs).ok();
    EXPECT_EQ(_mm_getcsr() & ~ScopedDefaultFloatEnvironment::k_status_flags, caller_mxcsr)
        << "the caller's environment is back after update()";
    if (!ok) break;
  }
  _mm_setcsr(saved);
  return state_hash(system.bodies());
}

TEST(FloatEnvironment, TheStepRunsInTheDefaultEnvironmentWhateverTheCallers) {
  const uint32_t flushing =
      ScopedDefaultFloatEnvironment::k_default_mxcsr | k_flush_to_zero | k_denormals_are_zero;
  Listener listener;
  const uint64_t with_default = run_boxes(ScopedDefaultFloatEnvironment::k_default_mxcsr, nullptr);
  const uint64_t with_flushing = run_boxes(flushing, nullptr, &listener);
  ASSERT_GT(listener.calls, 0);
  EXPECT_EQ(listener.seen, ScopedDefaultFloatEnvironment::k_default_mxcsr);
  EXPECT_EQ(with_flushing, with_default);
  FlushingJobSystem jobs;
  EXPECT_EQ(run_boxes(ScopedDefaultFloatEnvironment::k_default_mxcsr, &jobs), with_default);
}

}  // namespace float_environment_test
}  // namespace atl

#endif
