#pragma once
// How the world presents a contact to listeners and events (ContactListener.h): the more
// dynamic body first, ties by lower ID, while the contact cache keeps the lower ID first; and
// how two bodies' materials combine (Jolt's defaults). Shared by the narrow phase, CCD and the
// removed-contact events.

#include <algorithm>
#include <cmath>
#include <utility>

#include "atoll/body/Body.h"
#include "atoll/collision/ContactManifold.h"
#include "atoll/solver/ContactConstraintManager.h"
#include "atoll/world/ContactListener.h"

namespace atl {

/// A contact event of `type` between `body1` and `body2` (listener order) for `manifold`.
inline ContactEvent contact_event(ContactEventType type, BodyID body1, BodyID body2,
                                  const ContactManifold& manifold, int collision_step) {
  ContactEvent event;
  event.type = type;
  event.body1 = body1;
  event.body2 = body2;
  event.sub_shape_id1 = manifold.sub_shape_id1;
  event.sub_shape_id2 = manifold.sub_shape_id2;
  event.normal = manifold.normal;
  event.penetration_depth = manifold.penetration_depth;
  event.point = manifold.points_on_2.empty() ? Vec3() : manifold.points_on_2[0];
  event.collision_step = collision_step;
  return event;
}

/// 2 dynamic, 1 kinematic, 0 static: the listener sees the higher rank first.
inline int motion_rank(const Body& body) {
  return body.is_dynamic() ? 2 : body.is_kinematic() ? 1 : 0;
}
/// True when the listener sees `higher_id` as body1 (the pair is kept lower ID first inside).
inline bool listener_swaps(const Body& lower_id, const Body& higher_id) {
  return motion_rank(higher_id) > motion_rank(lower_id);
}
/// The same contact seen from the other body.
inline ContactManifold flipped(const ContactManifold& m) {
  ContactManifold f = m;
  f.normal = -m.normal;
  f.sub_shape_id1 = m.sub_shape_id2;
  f.sub_shape_id2 = m.sub_shape_id1;
  f.points_on_1 = m.points_on_2;
  f.points_on_2 = m.points_on_1;
  return f;
}
/// The same settings with body 1 and body 2 exchanged; `com1` and `com2` are the centres of
/// mass of body 1 and body 2 in the current order. The surface velocity is body 2's surface
/// relative to body 1's, its angular part about body 1's centre of mass: seen from the other
/// body it is the opposite motion, u'(p) = −(v + ω × (p − c1)) = v' + ω' × (p − c2) with
/// ω' = −ω and v' = −v + ω × (c1 − c2).
inline void swap_bodies(ContactSettings& s, const Vec3& com1, const Vec3& com2) {
  std::swap(s.mass_scales.inv_mass1, s.mass_scales.inv_mass2);
  std::swap(s.mass_scales.inv_inertia1, s.mass_scales.inv_inertia2);
  const Vec3 w = s.relative_angular_surface_velocity;
  s.relative_linear_surface_velocity = -s.relative_linear_surface_velocity + w.cross(com1 - com2);
  s.relative_angular_surface_velocity = -w;
}

/// Combined friction of two bodies: the geometric mean (Jolt's default).
inline float combine_friction(float a, float b) { return std::sqrt(a * b); }
/// Combined restitution of two bodies: the larger (Jolt's default).
inline float combine_restitution(float a, float b) { return std::max(a, b); }
/// Combined rolling resistance (m) of two bodies: the larger. It is a length of the contact's
/// deformation, set by the softer body: a rubber ball on a default floor (0) still resists.
inline float combine_rolling_resistance(float a, float b) { return std::max(a, b); }
/// Combined torsional friction (m, contact patch radius) of two bodies: the larger, as above.
inline float combine_torsional_friction(float a, float b) { return std::max(a, b); }

/// The contact settings of a pair of bodies before a listener changes them: their materials
/// combined, and whether the contact is a sensor's.
inline ContactSettings combined_settings(const Body& a, const Body& b, bool sensor) {
  ContactSettings cs;
  cs.combined_friction = combine_friction(a.friction(), b.friction());
  cs.combined_restitution = combine_restitution(a.restitution(), b.restitution());
  cs.combined_rolling_resistance =
      combine_rolling_resistance(a.rolling_resistance(), b.rolling_resistance());
  cs.combined_torsional_friction =
      combine_torsional_friction(a.torsional_friction(), b.torsional_friction());
  cs.is_sensor = sensor;
  return cs;
}

}  // namespace atl
