#include "atoll/solver/SolverBodies.h"

#include <algorithm>
#include <mutex>

#include "atoll/core/Prefetch.h"

namespace atl {
namespace {
// How many bodies ahead gather_solver_bodies and write_back ask for the lines they store into
// (prefetch_for_write): the island solves, on any core, wrote the solver bodies last; the
// narrow phase's workers read the bodies.
constexpr uint32_t k_bodies_ahead = 4;
}  // namespace

uint32_t SolverBodies::index_for(const BodyManager& body_manager, uint32_t body_index) {
  if (index_of[body_index] != k_none) return index_of[body_index];
  const Body& body = *body_manager.body_at_slot(body_index);
  SolverBody& sb = bodies.emplace_back();
  sb.com_position = body.center_of_mass_position();
  sb.rotation = body.rotation();
  const uint32_t index = size() - 1;
  source.push_back(body_index);
  movable.push_back(0);
  index_of[body_index] = index;
  return index;
}

uint32_t SolverBodies::add_woken(const BodyManager& body_manager, uint32_t body_index) {
  const Body& body = *body_manager.body_at_slot(body_index);
  const MotionProperties& mp = *body.motion_properties();
  // It may already have an immovable entry (from the pair that woke it): that entry becomes
  // movable, before any constraint is set up, so every contact on it sees its mass.
  const uint32_t s = index_for(body_manager, body_index);
  SolverBody& sb = bodies[s];
  sb.linear_velocity = mp.linear_velocity();
  sb.angular_velocity = mp.angular_velocity();
  sb.inv_mass = mp.lock_translation(Vec3::replicate(mp.inverse_mass()));
  sb.inv_inertia = mp.inverse_inertia_world(Mat44::rotation(body.rotation()));
  movable[s] = 1;
  moving.push_back(s);
  if (!body.is_sensor() && mp.motion_quality() == MotionQuality::LinearCast)
    linear_cast_candidates.push_back(s);
  return s;
}

void apply_forces(BodyManager& body_manager, const Vec3& gravity, float dt, SolverBodies& solver,
                  JobSystem& jobs) {
  const std::span<const uint32_t> active = body_manager.active_bodies();
  const uint32_t count = static_cast<uint32_t>(active.size());
  solver.velocities_before_forces.resize(count);
  // In the shares of write_back and update_bounds' check, the stages that touched these bodies
  // last (with update_bounds' check on the caller, the caller was faster here: 13 against
  // 19 ms per 500 steps of the 2-thread pyramid; with both in shares, highspeed's two stages
  // took 275 instead of 312 ms and many_pyramids' 57 instead of 73, the pyramid's 29 instead
  // of 25).
  parallel_for_shares(jobs, count, k_body_share, [&](uint32_t begin, uint32_t end, uint32_t) {
    for (uint32_t k = begin; k < end; ++k) {
      Body& body = *body_manager.body_at_slot(active[k]);
      MotionProperties& mp = *body.motion_properties();
      solver.velocities_before_forces[k] = {mp.linear_velocity(), mp.angular_velocity()};
      if (body.is_dynamic()) mp.apply_force_torque_and_gravity(body.rotation(), dt, gravity);
    }
  });
}

void clear_forces(BodyManager& body_manager, JobSystem& jobs) {
  // On the caller alone, this loop pulled every body's motion properties into the caller's
  // cache, and the other core's share of the next apply_forces missed on each of them: on 2
  // threads many_pyramids' apply_forces took 42 ms per 500 steps, as long as on one (the
  // caller's share 20 ms, the other 47); in shares, 24-25 ms (with sort_active_bodies' skip).
  const std::span<const uint32_t> active = body_manager.active_bodies();
  parallel_for_shares(
      jobs, static_cast<uint32_t>(active.size()), k_body_share,
      [&](uint32_t begin, uint32_t end, uint32_t) {
        for (uint32_t k = begin; k < end; ++k)
          if (MotionProperties* mp = body_manager.body_at_slot(active[k])->motion_properties())
            mp->reset_force_and_torque();
      });
}

void gather_solver_bodies(const BodyManager& body_manager, SolverBodies& solver, JobSystem& jobs) {
  const std::span<const uint32_t> active = body_manager.active_bodies();
  const uint32_t count = static_cast<uint32_t>(active.size());
  // The last step's entries: its active bodies in index order, then the bodies its narrow phase
  // added. Their index_of entries are reset below, by the workers that write this step's.
  solver.last_source.swap(solver.source);
  const std::span<const uint32_t> last_source = solver.last_source;
  const std::span<const uint32_t> last_active = last_source.first(solver.num_active);
  const std::span<const uint32_t> last_added = last_source.subspan(solver.num_active);
  solver.num_active = count;
  // Grown only, so that every last entry's slot is still in it.
  if (solver.index_of.size() < body_manager.num_slots())
    solver.index_of.resize(body_manager.num_slots(), SolverBodies::k_none);
  // Resets the index_of entries of the last step's bodies in slots [low, high).
  const auto reset_slots = [&](uint32_t low, uint32_t high) {
    const auto first = std::lower_bound(last_active.begin(), last_active.end(), low);
    const auto last = std::lower_bound(first, last_active.end(), high);
    for (auto it = first; it != last; ++it) solver.index_of[*it] = SolverBodies::k_none;
    for (uint32_t index : last_added)
      if (index >= low && index < high) solver.index_of[index] = SolverBodies::k_none;
  };
  if (count == 0) reset_slots(0, SolverBodies::k_none);
  // Active bodies first, in index order: entry k is active body k. In the shares of
  // write_back, which wrote the bodies at the end of the last step, so that each core reads
  // what it wrote (on the caller alone, the 2-thread pyramid took 54 ms per 500 steps here
  // against 20 on one thread; in shares 30, and the narrow phase, which reads the entries,
  // 12 ms less). The lists are resized, not cleared and refilled, so that an entry kept from
  // the last step is written once, by the worker whose share it is.
  solver.bodies.resize(count);
  solver.source.resize(count);
  solver.movable.resize(count);
  solver.moving.resize(count);
  solver.cast_candidate.resize(count);
  parallel_for_shares(jobs, count, k_body_share, [&](uint32_t begin, uint32_t end, uint32_t) {
    // The share owns the index_of entries of the body slots from its first active body's up to
    // the next share's, and resets the last step's among them before it writes its own: on
    // the caller, the reset left the other core's half of index_of in the caller's cache, and
    // each of that core's writes there waited for the line (many_pyramids, 2 threads: the
    // other share 75 µs a step against the caller's 49).
    reset_slots(begin == 0 ? 0 : active[begin], end == count ? SolverBodies::k_none : active[end]);
    for (uint32_t s = begin; s < end; ++s) {
      if (s + k_bodies_ahead < end) prefetch_object_for_write(&solver.bodies[s + k_bodies_ahead]);
      const uint32_t index = active[s];
      const Body& body = *body_manager.body_at_slot(index);
      const MotionProperties& mp = *body.motion_properties();
      SolverBody& sb = solver.bodies[s];
      sb.com_position = body.center_of_mass_position();
      sb.rotation = body.rotation();
      sb.linear_velocity = mp.linear_velocity();
      sb.angular_velocity = mp.angular_velocity();
      const bool dynamic = body.is_dynamic();
      sb.inv_mass =
          dynamic ? mp.lock_translation(Vec3::replicate(mp.inverse_mass())) : Vec3::zero();
      sb.inv_inertia =
          dynamic ? mp.inverse_inertia_world(Mat44::rotation(body.rotation())) : Mat44::zero();
      solver.index_of[index] = s;
      solver.moving[s] = s;
      solver.source[s] = index;
      solver.movable[s] = dynamic ? 1 : 0;
      // Read here, at the start of every collision step, so that a changed motion quality
      // counts from the next step on. Kinematic bodies cannot be stopped and sensors do not
      // collide: neither is ever cast (as in Jolt).
      solver.cast_candidate[s] =
          dynamic && !body.is_sensor() && mp.motion_quality() == MotionQuality::LinearCast;
    }
  });
  solver.linear_cast_candidates.clear();
  for (uint32_t s = 0; s < count; ++s)
    if (solver.cast_candidate[s] != 0) solver.linear_cast_candidates.push_back(s);
}

void integrate_positions(SolverBodies& solver, float dt, JobSystem& jobs) {
  // One expression for every body, CCD candidates included, so that a body whose cast finds
  // nothing ends bit for bit where a discrete one would (and the compiler contracts it the same
  // way for both).
  const uint32_t count = static_cast<uint32_t>(solver.moving.size());
  parallel_for_shares(jobs, count, k_body_share, [&](uint32_t begin, uint32_t end, uint32_t) {
    for (uint32_t k = begin; k < end; ++k) {
      SolverBody& sb = solver.bodies[solver.moving[k]];
      sb.com_position += sb.linear_velocity * dt;
      sb.apply_position_step(Vec3(), sb.angular_velocity * dt);
    }
  });
}

void write_back(BodyManager& body_manager, SolverBodies& solver, JobSystem& jobs,
                std::vector<NonFiniteBody>& non_finite) {
  non_finite.clear();
  std::mutex found;  // guards non_finite: taken only for a non-finite entry
  const uint32_t count = static_cast<uint32_t>(solver.moving.size());
  parallel_for_shares(jobs, count, k_body_share, [&](uint32_t begin, uint32_t end, uint32_t) {
    for (uint32_t k = begin; k < end; ++k) {
      if (k + k_bodies_ahead < end) {
        const Body& ahead =
            *body_manager.body_at_slot(solver.source[solver.moving[k + k_bodies_ahead]]);
        prefetch_object_for_write(&ahead);
        prefetch_object_for_write(ahead.motion_properties());
      }
      const uint32_t i = solver.moving[k];
      SolverBody& sb = solver.bodies[i];
      Body& body = *body_manager.body_at_slot(solver.source[i]);
      MotionProperties& mp = *body.motion_properties();
      // The entry holds everything the step computed: a NaN or an infinity anywhere (a force
      // that overflowed, a listener's absurd mass scale) shows in its final pose or velocity.
      // Tested here, in the shares, rather than in a pass of its own on the caller, which read
      // every entry the other cores' solves had written (many_pyramids, 2 threads: 20 µs a
      // step on the caller).
      if (!sb.com_position.is_finite() || !sb.rotation.is_finite() ||
          !sb.linear_velocity.is_finite() || !sb.angular_velocity.is_finite()) [[unlikely]] {
        {
          const std::lock_guard<std::mutex> lock(found);
          non_finite.push_back(
              {solver.source[i], body.center_of_mass_position(), body.rotation(), k});
        }
        sb.com_position = body.center_of_mass_position();
        sb.rotation = body.rotation();
        sb.linear_velocity = Vec3::zero();
        sb.angular_velocity = Vec3::zero();
        mp.set_linear_velocity(Vec3::zero());
        mp.set_angular_velocity(Vec3::zero());
      }
      if (body.is_dynamic()) {
        mp.add_linear_velocity_step(sb.linear_velocity - mp.linear_velocity());
        mp.add_angular_velocity_step(sb.angular_velocity - mp.angular_velocity());
      }
      const Quat rotation = sb.rotation.normalized();
      body.set_position_and_rotation_internal(
          sb.com_position - rotation * body.shape_center_of_mass(), rotation);
    }
  });
  // In the moving list's order, whichever worker found them.
  std::sort(non_finite.begin(), non_finite.end(),
            [](const NonFiniteBody& a, const NonFiniteBody& b) {
              return a.moving_position < b.moving_position;
            });
}

}  // namespace atl
