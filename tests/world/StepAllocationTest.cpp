// A warmed-up step allocates nothing (DESIGN.md §5, issue 8 §1): this executable replaces the
// global operator new and delete with counting ones and counts the allocations of steps 100–200
// of Jolt's pyramid (1240 boxes, sleeping off), with a contact listener and an activation
// listener attached so that the event paths are counted too.
//
// Symptom (before): steps 100–200 of the pyramid allocated 800 times, 8 per step. Cause:
// IslandBuilder::finish built eight scratch arrays as locals every step (and, in scenes that
// need them, the narrow phase's collector and the sleep list were locals too). Fix: every
// per-step buffer lives in StepContext or in the object that owns it, cleared and reused.
// After: 0 allocations.

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "laws/LawFixture.h"

namespace {

std::atomic<bool> g_counting{false};
std::atomic<uint64_t> g_allocations{0};

void* counted_allocate(std::size_t size, std::size_t alignment) {
  if (g_counting.load(std::memory_order_relaxed))
    g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (size == 0) size = 1;
  void* p = alignment > alignof(std::max_align_t)
                ? std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment)
                : std::malloc(size);
  return p;
}

}  // namespace

void* operator new(std::size_t size) {
  if (void* p = counted_allocate(size, 0)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  if (void* p = counted_allocate(size, 0)) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, std::align_val_t alignment) {
  if (void* p = counted_allocate(size, static_cast<std::size_t>(alignment))) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size, std::align_val_t alignment) {
  if (void* p = counted_allocate(size, static_cast<std::size_t>(alignment))) return p;
  throw std::bad_alloc();
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return counted_allocate(size, 0);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return counted_allocate(size, 0);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

namespace atl {
namespace {

using laws::BodyOptions;
using laws::k_dt;
using laws::LawWorld;

// Jolt's PerformanceTest "Pyramid" (as the built-in scene): 1240 boxes of half extent 1 without
// convex radius in 15 layers on a static floor, engine damping, sleeping off.
std::unique_ptr<LawWorld> pyramid() {
  PhysicsSettings settings;
  settings.allow_sleeping = false;
  auto world = std::make_unique<LawWorld>(settings);
  world->add_floor();
  BodyOptions o;
  o.linear_damping = BodyCreationSettings{}.linear_damping;
  o.angular_damping = BodyCreationSettings{}.angular_damping;
  constexpr int k_layers = 15;
  for (int i = 0; i < k_layers; ++i)
    for (int j = i / 2; j < k_layers - (i + 1) / 2; ++j)
      for (int k = i / 2; k < k_layers - (i + 1) / 2; ++k) {
        const float shift = (i & 1) != 0 ? 1.0f : 0.0f;
        world->add_box(
            Vec3::replicate(1.0f),
            Vec3(-k_layers + 2.0f * j + shift, 1.0f + 2.5f * i, -k_layers + 2.0f * k + shift), o,
            0.0f);
      }
  return world;
}

// Counts what it is told, allocating nothing.
struct CountingContactListener final : ContactListener {
  uint64_t added = 0, persisted = 0, events = 0;
  void on_contact_added(const Body&, const Body&, const ContactManifold&,
                        ContactSettings&) override {
    ++added;
  }
  void on_contact_persisted(const Body&, const Body&, const ContactManifold&,
                            ContactSettings&) override {
    ++persisted;
  }
  void on_contact_events(std::span<const ContactEvent> e) override { events += e.size(); }
};
struct CountingActivationListener final : BodyActivationListener {
  uint64_t changes = 0;
  void on_body_activated(BodyID) override { ++changes; }
  void on_body_deactivated(BodyID) override { ++changes; }
};

// Steps 100 to 200 of `world` with the counter on; returns the allocations.
uint64_t allocations_of_steps_100_to_200(PhysicsSystem& system) {
  for (int i = 0; i < 100; ++i) {
    Result<UpdateResult> r = system.update(k_dt);
    EXPECT_TRUE(r.ok() && r->ok());
  }
  bool all_ok = true;
  g_allocations = 0;
  g_counting = true;
  for (int i = 100; i < 200; ++i) {
    Result<UpdateResult> r = system.update(k_dt);
    all_ok &= r.ok() && r->ok();
  }
  g_counting = false;
  EXPECT_TRUE(all_ok);
  return g_allocations.load();
}

TEST(StepAllocation, TheWarmedUpPyramidStepWithListenersAllocatesNothing) {
  std::unique_ptr<LawWorld> world = pyramid();
  CountingContactListener contacts;
  CountingActivationListener activations;
  world->system().set_contact_listener(&contacts);
  world->system().set_body_activation_listener(&activations);
  EXPECT_EQ(allocations_of_steps_100_to_200(world->system()), 0u);
  // The listeners were called (so their paths were counted).
  EXPECT_GT(contacts.added + contacts.persisted, 0u);
  EXPECT_GT(contacts.events, 0u);
}

}  // namespace
}  // namespace atl
