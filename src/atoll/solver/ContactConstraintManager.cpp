#include "atoll/solver/ContactConstraintManager.h"

#include <algorithm>
#include <cmath>

#include "atoll/core/Prefetch.h"
#include "atoll/core/QuickSort.h"
#include "atoll/core/ShareClaims.h"
#include "atoll/math/MathState.h"

namespace atl {

namespace {

// Where body 2's centre of mass is, and how it is turned, as seen from body 1.
void relative_transform(const SolverBody& b1, const SolverBody& b2, Vec3& out_position,
                        Quat& out_rotation) {
  const Quat inv1 = b1.rotation.conjugated();
  out_position = inv1 * (b2.com_position - b1.com_position);
  out_rotation = inv1 * b2.rotation;
}

bool pair_less(uint32_t a1, uint32_t a2, uint32_t b1, uint32_t b2) {
  return a1 < b1 || (a1 == b1 && a2 < b2);
}

// The cache's pairs in key order (pair_less).
bool cached_pair_less(const ContactConstraintManager::CachedPair& a,
                      const ContactConstraintManager::CachedPair& b) {
  return pair_less(a.key1, a.key2, b.key1, b.key2);
}

// The normal impulse (N·s) a point's friction budget counts (LAWS.md B1): the accumulated one,
// warm start included, or the one this iteration's normal solve is about to reach if larger.
float friction_budget(const AxisConstraintPart& normal, const SolverBody& b1, const SolverBody& b2,
                      const Vec3& axis) {
  return std::max(normal.total_lambda(),
                  normal.total_lambda() + normal.lambda_for_target(b1, b2, axis));
}

}  // namespace

std::string ContactSettings::problem() const {
  const std::pair<const char*, float> fields[] = {
      {"combined_friction", combined_friction},
      {"combined_restitution", combined_restitution},
      {"combined_rolling_resistance", combined_rolling_resistance},
      {"combined_torsional_friction", combined_torsional_friction},
      {"mass_scales.inv_mass1", mass_scales.inv_mass1},
      {"mass_scales.inv_inertia1", mass_scales.inv_inertia1},
      {"mass_scales.inv_mass2", mass_scales.inv_mass2},
      {"mass_scales.inv_inertia2", mass_scales.inv_inertia2}};
  for (const auto& [name, value] : fields)
    if (!std::isfinite(value) || value < 0.0f)
      return std::string(name) + " = " + std::to_string(value);
  // Surface velocities may be negative, not non-finite.
  const std::pair<const char*, Vec3> vectors[] = {
      {"relative_linear_surface_velocity", relative_linear_surface_velocity},
      {"relative_angular_surface_velocity", relative_angular_surface_velocity}};
  for (const auto& [name, value] : vectors)
    if (!value.is_finite())
      return std::string(name) + " = (" + std::to_string(value.x()) + ", " +
             std::to_string(value.y()) + ", " + std::to_string(value.z()) + ")";
  return {};
}

void ContactConstraintManager::Cache::compact(std::vector<uint32_t>& owner) {
  // Walks the manifolds in the order they are stored and moves the live ones (those a pair
  // holds) down over the dead ones. A manifold's points and settings come after those of every
  // manifold stored before it (the three lists are appended together, and restored in that
  // order), so every move goes to a lower index and nothing is overwritten before it moved.
  constexpr uint32_t k_dead = ~0u;
  owner.assign(manifolds.size(), k_dead);
  for (uint32_t i = 0; i < pairs.size(); ++i)
    if (pairs[i].num_manifolds > 0) owner[pairs[i].first_manifold] = i;
  uint32_t num_manifolds = 0;
  uint32_t num_points = 0;
  uint32_t num_settings = 0;
  for (uint32_t m = 0; m < manifolds.size();) {
    if (owner[m] == k_dead) {
      ++m;
      continue;
    }
    CachedPair& pair = pairs[owner[m]];
    pair.first_manifold = num_manifolds;
    for (uint32_t k = 0; k < pair.num_manifolds; ++k) {
      CachedManifold manifold = manifolds[m + k];
      std::copy(points.begin() + manifold.first_point,
                points.begin() + manifold.first_point + manifold.num_points,
                points.begin() + num_points);
      manifold.first_point = num_points;
      num_points += manifold.num_points;
      if (manifold.settings != k_no_settings) {
        settings[num_settings] = settings[manifold.settings];
        manifold.settings = num_settings++;
      }
      manifolds[num_manifolds++] = manifold;
    }
    m += pair.num_manifolds;
  }
  manifolds.resize(num_manifolds);
  points.resize(num_points);
  settings.resize(num_settings);
}

void ContactConstraintManager::begin_step(float dt, const PhysicsSettings& settings) {
  // Last step's pairs (sorted by key in end_step) become the ones we match against; their
  // manifolds and points stay where they are in the cache, which this step appends to.
  previous_pairs_.swap(cache_.pairs);
  cache_.pairs.clear();
  if (cache_.pairs.capacity() < previous_pairs_.size()) {
    cache_.pairs = {};  // freed first: empty, nothing to copy
    cache_.pairs.reserve(previous_pairs_.size() + previous_pairs_.size() / 8);
  }
  // Room for last step's contacts and as many new ones, the most a step can append when its
  // contacts do not outgrow last step's: a warmed-up step then appends without allocating
  // (DESIGN.md §5), however many of its pairs are collided again. Capacity that no step fills
  // is not touched, so it takes no memory; it grows by doubling, as the appends would, because
  // growing it to just twice the size reallocated at every step of a growing scene, and the
  // freed lists fragmented the heap (the pyramid's peak rose by 3 MB).
  const auto room_for_twice = [](auto& list) {
    if (list.capacity() < 2 * list.size())
      list.reserve(std::max(2 * list.size(), 2 * list.capacity()));
  };
  room_for_twice(cache_.manifolds);
  room_for_twice(cache_.points);
  room_for_twice(cache_.settings);
  if (compact_owner_.capacity() < cache_.manifolds.capacity())
    compact_owner_.reserve(cache_.manifolds.capacity());
  num_points_ = 0;
  last_pair_open_ = false;
  added_.clear();
  added_traits_.clear();
  num_lane_blocks_ = 0;
  lanes_planned_ = false;
  lookup_cursor_ = 0;
  gone_found_ = false;  // find_gone_contacts' list is for one step
  max_penetration_ = 0.0f;
  max_penetration_keys_ = {0, 0};
  // Seed 000 §5.3: impulses scale with the step length, so a changed dt rescales them.
  warm_start_ratio_ = settings.warm_start ? (previous_dt_ > 0.0f ? dt / previous_dt_ : 1.0f) : 0.0f;
  previous_dt_ = dt;
}

const ContactConstraintManager::CachedPair* ContactConstraintManager::find_previous_pair(
    uint32_t key1, uint32_t key2, size_t& cursor) const {
  // Last step's pairs are sorted by key, and the narrow phase asks in nearly the same order
  // (broadphase pairs sorted by body index, which is the key order while no body slot has been
  // reused): walk a cursor forward a few pairs, and search only when the request jumps.
  const FillLaterVector<CachedPair>& pairs = previous_pairs_;
  const auto less_than_key = [key1, key2](const CachedPair& p) {
    return pair_less(p.key1, p.key2, key1, key2);
  };
  constexpr size_t k_max_walk = 8;
  size_t i = std::min(cursor, pairs.size());
  if (i > 0 && !less_than_key(pairs[i - 1])) {
    // Behind the cursor (or at the pair just before it): search the part before it.
    i = static_cast<size_t>(std::partition_point(pairs.begin(),
                                                 pairs.begin() + static_cast<std::ptrdiff_t>(i),
                                                 less_than_key) -
                            pairs.begin());
  } else {
    const size_t walk_end = std::min(pairs.size(), i + k_max_walk);
    while (i < walk_end && less_than_key(pairs[i])) ++i;
    if (i == walk_end && i < pairs.size() && less_than_key(pairs[i]))
      i = static_cast<size_t>(std::partition_point(pairs.begin() + static_cast<std::ptrdiff_t>(i),
                                                   pairs.end(), less_than_key) -
                              pairs.begin());
  }
  cursor = i;
  if (i == pairs.size() || pairs[i].key1 != key1 || pairs[i].key2 != key2) return nullptr;
  return &pairs[i];
}

const ContactConstraintManager::CachedManifold* ContactConstraintManager::find_previous_manifold(
    uint32_t key1, uint32_t key2, SubShapeID id1, SubShapeID id2) const {
  return previous_manifold(find_previous_pair(key1, key2, lookup_cursor_), id1, id2);
}

const ContactConstraintManager::CachedManifold* ContactConstraintManager::previous_manifold(
    const CachedPair* old_pair, SubShapeID id1, SubShapeID id2) const {
  if (old_pair == nullptr) return nullptr;
  for (uint32_t m = 0; m < old_pair->num_manifolds; ++m) {
    const CachedManifold& candidate = cache_.manifolds[old_pair->first_manifold + m];
    if (candidate.sub_shape_id1 == id1 && candidate.sub_shape_id2 == id2) return &candidate;
  }
  return nullptr;
}

bool ContactConstraintManager::had_manifold(const ContactBodyPair& pair, SubShapeID sub_shape_id1,
                                            SubShapeID sub_shape_id2) const {
  return find_previous_manifold(pair.key1, pair.key2, sub_shape_id1, sub_shape_id2) != nullptr;
}

ContactConstraintManager::CachedPair& ContactConstraintManager::current_pair_for(
    const ContactBodyPair& pair, std::span<const SolverBody> bodies) {
  Cache& cache = cache_;
  if (!last_pair_open_ || cache.pairs.back().key1 != pair.key1 ||
      cache.pairs.back().key2 != pair.key2) {
    CachedPair entry;
    entry.key1 = pair.key1;
    entry.key2 = pair.key2;
    Vec3 position;
    Quat rotation;
    relative_transform(bodies[pair.solver_body1], bodies[pair.solver_body2], position, rotation);
    entry.set_relative_transform(position, rotation);
    entry.first_manifold = static_cast<uint32_t>(cache.manifolds.size());
    cache.pairs.push_back(entry);
    last_pair_open_ = true;
  }
  return cache.pairs.back();
}

bool ContactConstraintManager::is_solved(const CachedManifold& manifold) const {
  return manifold.settings == k_no_settings || !cache_.settings[manifold.settings].is_sensor;
}

void ContactConstraintManager::make_header(const ContactBodyPair& pair, uint32_t manifold_index,
                                           uint32_t place) {
  ContactHeader& c = added_[place];
  const Cache& cache = cache_;
  const CachedManifold& manifold = cache.manifolds[manifold_index];
  // Defaults for what the manifold's side-list settings would hold (CachedManifold::settings).
  const ContactSettings plain;
  const ContactSettings& settings =
      manifold.settings != k_no_settings ? cache.settings[manifold.settings] : plain;
  c = ContactHeader{};
  c.body1 = pair.solver_body1;
  c.body2 = pair.solver_body2;
  c.after_ccd = !ccd_stopped_.empty() &&
                (std::binary_search(ccd_stopped_.begin(), ccd_stopped_.end(), pair.key1) ||
                 std::binary_search(ccd_stopped_.begin(), ccd_stopped_.end(), pair.key2));
  c.friction = manifold.combined_friction;
  c.rolling_resistance = settings.combined_rolling_resistance;
  c.torsional_friction = settings.combined_torsional_friction;
  c.mass_scales = settings.mass_scales;
  c.cache_manifold = manifold_index;
  c.cache_point = manifold.first_point;
  c.num_points = manifold.num_points;
  uint8_t traits = 0;
  if (c.rolling_resistance > 0.0f || c.torsional_friction > 0.0f) traits |= k_trait_torques;
  if (c.rolling_resistance > 0.0f) traits |= k_trait_rolling;
  if (c.after_ccd) traits |= k_trait_after_ccd;
  if (c.num_points == 0) traits |= k_trait_no_points;
  added_traits_[place] = traits;
}

void ContactConstraintManager::add_constraint(const ContactBodyPair& pair,
                                              uint32_t manifold_index) {
  if (!is_solved(cache_.manifolds[manifold_index])) return;
  const uint32_t place = static_cast<uint32_t>(added_.size());
  added_.emplace_back();
  added_traits_.emplace_back();
  make_header(pair, manifold_index, place);
}

ContactConstraintManager::Places ContactConstraintManager::reuse_body_pair_later(
    const ContactBodyPair& pair, const ReuseLookup& lookup) {
  // The entry is never merged with the one before it (current_pair_for): every pair is added
  // once.
  note_pair_penetration(lookup.deepest, pair);
  const Places places = next_places();
  Places counts;
  counts.pair = 1;
  counts.constraint = lookup.num_solved;
  add_later(counts, lookup.num_points);
  return places;
}

void ContactConstraintManager::add_later(const Places& counts, uint32_t num_points) {
  num_points_ += num_points;
  // The places are written by the fills, on any worker: growing the lists leaves them
  // unwritten (FillLaterVector), so that only the filling core touches them.
  Cache& cache = cache_;
  cache.pairs.resize(cache.pairs.size() + counts.pair);
  last_pair_open_ = false;
  added_.resize(added_.size() + counts.constraint);
  added_traits_.resize(added_.size());
  cache.manifolds.resize(cache.manifolds.size() + counts.manifold);
  cache.points.resize(cache.points.size() + counts.point);
  cache.settings.resize(cache.settings.size() + counts.setting);
}

void ContactConstraintManager::fill_collided_pair(
    const ContactBodyPair& pair, std::span<const ContactManifold> manifolds,
    const ContactSettings& contact_settings, std::span<const SolverBody> bodies,
    const PhysicsSettings& settings, const Places& places, uint32_t previous, bool in_place) {
  if (manifolds.empty()) return;
  const SolverBody& b1 = bodies[pair.solver_body1];
  const SolverBody& b2 = bodies[pair.solver_body2];
  // The entry, as current_pair_for makes it.
  CachedPair& entry = cache_.pairs[places.pair];
  entry = CachedPair{};
  entry.key1 = pair.key1;
  entry.key2 = pair.key2;
  Vec3 position;
  Quat rotation;
  relative_transform(b1, b2, position, rotation);
  entry.set_relative_transform(position, rotation);
  entry.first_manifold = places.manifold;
  entry.num_manifolds = static_cast<uint32_t>(manifolds.size());
  size_t cursor = previous;
  const CachedPair* old_pair = find_previous_pair(pair.key1, pair.key2, cursor);
  const bool side = has_side_settings(contact_settings);
  uint32_t point = places.point;
  uint32_t constraint = places.constraint;
  if (in_place) {
    ATOLL_ASSERT(old_pair != nullptr && old_pair->num_manifolds == manifolds.size());
    entry.first_manifold = old_pair->first_manifold;
  }
  for (uint32_t m = 0; m < manifolds.size(); ++m) {
    const ContactManifold& manifold = manifolds[m];
    uint32_t index = places.manifold + m;
    uint32_t settings_index = side ? places.setting + m : k_no_settings;
    if (in_place) {
      // Last step's manifold m is this one's previous (fits_in_place): copied with its points
      // before they are written over.
      index = old_pair->first_manifold + m;
      const CachedManifold old = cache_.manifolds[index];
      CachedPoint old_points[k_max_manifold_points];
      std::copy_n(cache_.points.begin() + old.first_point, old.num_points, old_points);
      if (side) settings_index = old.settings;
      write_manifold(manifold, contact_settings, b1, b2, &old, old_points, index, old.first_point,
                     settings_index, settings);
    } else {
      const CachedManifold* old =
          previous_manifold(old_pair, manifold.sub_shape_id1, manifold.sub_shape_id2);
      write_manifold(manifold, contact_settings, b1, b2, old,
                     old != nullptr ? &cache_.points[old->first_point] : nullptr, index, point,
                     settings_index, settings);
      point += static_cast<uint32_t>(manifold.points_on_1.size());
    }
    if (is_solved(cache_.manifolds[index])) make_header(pair, index, constraint++);
  }
}

bool ContactConstraintManager::fits_in_place(const ContactBodyPair& pair, uint32_t previous,
                                             std::span<const ContactManifold> manifolds,
                                             bool side_settings) const {
  size_t cursor = previous;
  const CachedPair* old_pair = find_previous_pair(pair.key1, pair.key2, cursor);
  if (old_pair == nullptr || old_pair->num_manifolds != manifolds.size()) return false;
  for (uint32_t m = 0; m < manifolds.size(); ++m) {
    const CachedManifold& old = cache_.manifolds[old_pair->first_manifold + m];
    const ContactManifold& manifold = manifolds[m];
    // The previous manifold the append would hand impulses down from must be this one.
    if (previous_manifold(old_pair, manifold.sub_shape_id1, manifold.sub_shape_id2) != &old ||
        manifold.points_on_1.size() > old.num_points ||
        (old.settings != k_no_settings) != side_settings)
      return false;
  }
  return true;
}

void ContactConstraintManager::fill_reused_pair(const CachedPair& reused,
                                                const ContactBodyPair& pair, const Places& places) {
  // The entry keeps the relative transform of when its manifolds were computed: measuring the
  // next reuse against this step's transform would let a pair that creeps by less than the
  // threshold every step keep a stale manifold forever.
  // Its keys are the pair's (it was found by them), and it keeps its manifolds where they are.
  CachedPair& entry = cache_.pairs[places.pair];
  entry = reused;
  uint32_t place = places.constraint;
  for (uint32_t m = 0; m < reused.num_manifolds; ++m) {
    const uint32_t index = reused.first_manifold + m;
    if (is_solved(cache_.manifolds[index])) make_header(pair, index, place++);
  }
}

bool ContactConstraintManager::try_reuse_body_pair(const ContactBodyPair& pair,
                                                   std::span<const SolverBody> bodies,
                                                   const PhysicsSettings& settings,
                                                   std::vector<ContactManifold>* out_manifolds,
                                                   uint32_t* out_num_manifolds) {
  ReuseLookup lookup;
  const CachedPair* old_pair = find_reusable_pair(pair, bodies, settings, lookup_cursor_, lookup);
  if (old_pair == nullptr) return false;
  reuse_body_pair(*old_pair, pair, bodies, lookup, out_manifolds, out_num_manifolds);
  return true;
}

const ContactConstraintManager::CachedPair* ContactConstraintManager::find_reusable_pair(
    const ContactBodyPair& pair, std::span<const SolverBody> bodies,
    const PhysicsSettings& settings, size_t& cursor, ReuseLookup& out) const {
  const CachedPair* old_pair = find_previous_pair(pair.key1, pair.key2, cursor);
  out.position = static_cast<uint32_t>(cursor);
  if (old_pair == nullptr) return nullptr;
  const SolverBody& b1 = bodies[pair.solver_body1];
  const SolverBody& b2 = bodies[pair.solver_body2];
  Vec3 position;
  Quat rotation;
  relative_transform(b1, b2, position, rotation);
  if ((position - old_pair->relative_position()).length_sq() >
          settings.body_pair_cache_max_delta_position_sq ||
      std::fabs(rotation.dot(old_pair->relative_rotation())) <
          settings.body_pair_cache_cos_max_delta_rotation_div2)
    return nullptr;
  // The deepest penetration of the reused points, where the bodies are now:
  // (c1 + R1·l1 − c2 − R2·l2)·n with n = R1·n1 is (c1 − c2)·n + l1·n1 − l2·(R2⁻¹·n), two dot
  // products per point instead of two rotations.
  const Cache& old_cache = cache_;
  const Quat inv2 = b2.rotation.conjugated();
  out.deepest = -k_float_max;
  out.num_points = 0;
  out.num_solved = 0;
  for (uint32_t m = 0; m < old_pair->num_manifolds; ++m) {
    const CachedManifold& manifold = old_cache.manifolds[old_pair->first_manifold + m];
    out.num_points += manifold.num_points;
    out.num_solved += is_solved(manifold) ? 1 : 0;
    const Vec3 normal_in_1(manifold.local_normal);
    const Vec3 normal = b1.rotation * normal_in_1;
    const Vec3 normal_in_2 = inv2 * normal;
    const float centres = (b1.com_position - b2.com_position).dot(normal);
    for (uint32_t p = 0; p < manifold.num_points; ++p) {
      const CachedPoint& point = old_cache.points[manifold.first_point + p];
      const float depth = centres + Vec3(point.local_on_1).dot(normal_in_1) -
                          Vec3(point.local_on_2).dot(normal_in_2);
      if (depth > out.deepest) out.deepest = depth;
    }
  }
  return old_pair;
}

void ContactConstraintManager::reuse_body_pair(const CachedPair& reused,
                                               const ContactBodyPair& pair,
                                               std::span<const SolverBody> bodies,
                                               const ReuseLookup& lookup,
                                               std::vector<ContactManifold>* out_manifolds,
                                               uint32_t* out_num_manifolds) {
  // Close enough: this step's entry takes last step's manifolds where they are (in body-local
  // form they move with the bodies), impulses included. Both halves at once.
  fill_reused_pair(reused, pair, reuse_body_pair_later(pair, lookup));
  if (out_num_manifolds != nullptr) *out_num_manifolds = reused.num_manifolds;
  if (out_manifolds == nullptr) return;
  const Cache& cache = cache_;
  const SolverBody& b1 = bodies[pair.solver_body1];
  const SolverBody& b2 = bodies[pair.solver_body2];
  for (uint32_t m = 0; m < reused.num_manifolds; ++m) {
    const CachedManifold& manifold = cache.manifolds[reused.first_manifold + m];
    ContactManifold world;
    world.normal = b1.rotation * Vec3(manifold.local_normal);
    world.sub_shape_id1 = manifold.sub_shape_id1;
    world.sub_shape_id2 = manifold.sub_shape_id2;
    float manifold_deepest = -k_float_max;
    for (uint32_t p = 0; p < manifold.num_points; ++p) {
      const CachedPoint& point = cache.points[manifold.first_point + p];
      const Vec3 w1 = b1.com_position + b1.rotation * Vec3(point.local_on_1);
      const Vec3 w2 = b2.com_position + b2.rotation * Vec3(point.local_on_2);
      world.points_on_1.push_back(w1);
      world.points_on_2.push_back(w2);
      manifold_deepest = std::max(manifold_deepest, (w1 - w2).dot(world.normal));
    }
    world.penetration_depth = manifold_deepest;
    out_manifolds->push_back(world);
  }
}

bool ContactConstraintManager::has_side_settings(const ContactSettings& settings) {
  const InverseMassScales unit;
  return settings.combined_rolling_resistance != 0.0f ||
         settings.combined_torsional_friction != 0.0f || settings.is_sensor ||
         settings.mass_scales.inv_mass1 != unit.inv_mass1 ||
         settings.mass_scales.inv_inertia1 != unit.inv_inertia1 ||
         settings.mass_scales.inv_mass2 != unit.inv_mass2 ||
         settings.mass_scales.inv_inertia2 != unit.inv_inertia2 ||
         !(settings.relative_linear_surface_velocity == Vec3::zero()) ||
         !(settings.relative_angular_surface_velocity == Vec3::zero());
}

ContactState ContactConstraintManager::add_manifold(const ContactBodyPair& pair,
                                                    const ContactManifold& manifold,
                                                    const ContactSettings& contact_settings,
                                                    std::span<const SolverBody> bodies,
                                                    const PhysicsSettings& settings) {
  ATOLL_ASSERT(pair.key1 < pair.key2);
  ATOLL_ASSERT(manifold.points_on_1.size() == manifold.points_on_2.size());
  Cache& cache = cache_;
  CachedPair& new_pair = current_pair_for(pair, bodies);
  ATOLL_ASSERT(new_pair.first_manifold + new_pair.num_manifolds == cache.manifolds.size());

  // Last step's manifold between the same sub-shapes, if any: its points hand down impulses.
  // Copied: growing the lists below may move it.
  const CachedManifold* found =
      find_previous_manifold(pair.key1, pair.key2, manifold.sub_shape_id1, manifold.sub_shape_id2);
  CachedManifold previous;
  if (found != nullptr) previous = *found;
  const CachedManifold* old_manifold = found != nullptr ? &previous : nullptr;
  const uint32_t index = static_cast<uint32_t>(cache.manifolds.size());
  const uint32_t point_index = static_cast<uint32_t>(cache.points.size());
  const uint32_t num_points = static_cast<uint32_t>(manifold.points_on_1.size());
  uint32_t settings_index = k_no_settings;
  if (has_side_settings(contact_settings)) {
    settings_index = static_cast<uint32_t>(cache.settings.size());
    cache.settings.emplace_back();
  }
  cache.manifolds.emplace_back();
  cache.points.resize(cache.points.size() + num_points);
  // Its points by place after the lists grew.
  write_manifold(manifold, contact_settings, bodies[pair.solver_body1], bodies[pair.solver_body2],
                 old_manifold,
                 old_manifold != nullptr ? &cache.points[old_manifold->first_point] : nullptr,
                 index, point_index, settings_index, settings);
  for (uint32_t i = 0; i < num_points; ++i)
    note_pair_penetration((manifold.points_on_1[i] - manifold.points_on_2[i]).dot(manifold.normal),
                          pair);
  num_points_ += num_points;
  ++new_pair.num_manifolds;
  add_constraint(pair, index);
  return old_manifold != nullptr ? ContactState::Persisted : ContactState::Added;
}

void ContactConstraintManager::write_manifold(const ContactManifold& manifold,
                                              const ContactSettings& contact_settings,
                                              const SolverBody& b1, const SolverBody& b2,
                                              const CachedManifold* previous,
                                              const CachedPoint* previous_points, uint32_t index,
                                              uint32_t point_index, uint32_t settings_index,
                                              const PhysicsSettings& settings) {
  const Quat inv1 = b1.rotation.conjugated();
  const Quat inv2 = b2.rotation.conjugated();
  Cache& cache = cache_;
  CachedManifold entry;
  entry.local_normal = (inv1 * manifold.normal).to_float3();
  entry.sub_shape_id1 = manifold.sub_shape_id1;
  entry.sub_shape_id2 = manifold.sub_shape_id2;
  entry.combined_friction = contact_settings.combined_friction;
  entry.combined_restitution = contact_settings.combined_restitution;
  entry.settings = settings_index;
  if (settings_index != k_no_settings) cache.settings[settings_index] = contact_settings;
  entry.first_point = point_index;
  entry.num_points = static_cast<uint32_t>(manifold.points_on_1.size());
  if (previous != nullptr) {
    entry.friction_lambda1 = previous->friction_lambda1;
    entry.friction_lambda2 = previous->friction_lambda2;
    entry.twist_lambda = previous->twist_lambda;
    entry.rolling_lambda1 = previous->rolling_lambda1;
    entry.rolling_lambda2 = previous->rolling_lambda2;
  }
  const float preserve_sq = square(settings.contact_point_preserve_lambda_max_dist);
  for (size_t i = 0; i < manifold.points_on_1.size(); ++i) {
    CachedPoint point;
    const Vec3 local_on_1 = inv1 * (manifold.points_on_1[i] - b1.com_position);
    const Vec3 local_on_2 = inv2 * (manifold.points_on_2[i] - b2.com_position);
    point.local_on_1 = local_on_1.to_float3();
    point.local_on_2 = local_on_2.to_float3();
    if (previous != nullptr) {
      // The closest old point within the preserve distance keeps its impulses. Distance is
      // measured on whichever body the point moved less on: a box sliding over the ground
      // keeps its corners (body 2's frame), a ball rolling in place keeps its spot on the
      // ground (body 1's frame). Matching in body 1's frame only would drop the warm start
      // of every sliding contact faster than 1 cm per step.
      float best = preserve_sq;
      for (uint32_t j = 0; j < previous->num_points; ++j) {
        const CachedPoint& old_point = previous_points[j];
        const float d = std::min((Vec3(old_point.local_on_1) - local_on_1).length_sq(),
                                 (Vec3(old_point.local_on_2) - local_on_2).length_sq());
        if (d < best) {
          best = d;
          point.normal_lambda = old_point.normal_lambda;
          point.friction_lambda1 = old_point.friction_lambda1;
          point.friction_lambda2 = old_point.friction_lambda2;
        }
      }
    }
    cache.points[point_index + i] = point;
  }
  cache.manifolds[index] = entry;
}

// Inlined always, as prefetch_ahead below (out of line, GCC removed the calls: a prefetch changes
// no value it can see).
[[gnu::always_inline]] inline void ContactConstraintManager::prefetch_setup_inputs(
    std::span<const SolverBody> bodies,
    const std::array<uint32_t, ContactLanes::k_width>& items) const {
  for (uint32_t index : items)
    if (index != k_no_rows) prefetch_setup_inputs(bodies, index);
}

[[gnu::always_inline]] inline void ContactConstraintManager::prefetch_setup_inputs(
    std::span<const SolverBody> bodies, uint32_t index) const {
  const Cache& cache = cache_;
  const ContactHeader& c = added_[index];
  prefetch_object(&cache.manifolds[c.cache_manifold]);
  prefetch_object(&cache.points[c.cache_point]);
  prefetch_object(&bodies[c.body1]);
  prefetch_object(&bodies[c.body2]);
}

void ContactConstraintManager::setup_velocity_constraints(
    std::span<const SolverBody> bodies, std::span<const BodyVelocity> before_forces, float dt,
    const PhysicsSettings& settings, JobSystem* jobs) {
  InlineJobSystem inline_jobs;
  JobSystem& job_system = jobs != nullptr ? *jobs : inline_jobs;
  const uint32_t count = static_cast<uint32_t>(added_.size());
  // Runs `body(share, begin, end)` for every share of the contacts, as parallel_for_shares
  // would, with the share's number (for its first rolling row, below).
  const Shares division(job_system.num_workers(), count, k_setup_share);
  const auto for_each_share = [&](auto&& body) {
    parallel_for(job_system, division.shares, 1, [&](uint32_t first, uint32_t last, uint32_t) {
      for (uint32_t share = first; share < last; ++share)
        body(share, division.begin(share), division.end(share));
    });
  };
  // First which contacts get rows, so that the rest can be set up for each contact on its own,
  // in parallel: with manifold friction off, every contact has point friction rows (at its own
  // index); the contacts with rolling resistance have rolling rows, and the contacts the scalar
  // solve takes (not in a lane) a row, each in contact order: share k's from share_rolling_[k]
  // and share_rows_[k] on. Each share counts its own contacts, from the traits (not the
  // headers: added_traits_) and the lane slots: on the caller, the count read the lane slots
  // that plan_wide_contacts wrote on the other cores and wrote every contact's row pointer
  // (the pyramid, 8 700 contacts, 2 threads: 7-9 µs a step in the fast cross-core state).
  share_rolling_.assign(division.shares + 1, 0);
  share_rows_.assign(division.shares + 1, 0);
  for_each_share([&](uint32_t share, uint32_t begin, uint32_t end) {
    uint32_t rolling = 0;
    uint32_t rows = 0;
    for (uint32_t i = begin; i < end; ++i) {
      rolling += (added_traits_[i] & k_trait_rolling) != 0 ? 1 : 0;
      rows += lane_slot(i) == k_no_rows ? 1 : 0;
    }
    share_rolling_[share + 1] = settings.use_friction ? rolling : 0;
    share_rows_[share + 1] = rows;
  });
  for (uint32_t share = 0; share < division.shares; ++share) {
    share_rolling_[share + 1] += share_rolling_[share];
    share_rows_[share + 1] += share_rows_[share];
  }
  point_friction_.assign(settings.manifold_friction ? 0 : count, PointFrictionRows{});
  rolling_.assign(share_rolling_[division.shares], RollingRows{});
  // The contacts the scalar solve takes get the first rows (row_of_, set in the shares below).
  row_of_.resize(count);
  const uint32_t num_rows = share_rows_[division.shares];
  while (row_chunks_.size() * k_row_chunk < num_rows)
    row_chunks_.push_back(std::make_unique<Constraint[]>(k_row_chunk));
  // The rows stay for the next steps, so that a warmed-up step does not allocate, until a step
  // needs fewer than half of more than k_rows_worth_giving_back: then the chunks past what it
  // needs are given back (the pyramid's 640 scalar contacts of its first 50 steps, 0.7 MB, fall
  // to 406, 250, 140, 68 and none as its islands join and the wide solve takes them; a few
  // bouncing bodies' rows come and go without allocating).
  const size_t rows_held = row_chunks_.size() * k_row_chunk;
  if (num_rows < rows_held / 2 && rows_held * sizeof(Constraint) >= k_rows_worth_giving_back)
    row_chunks_.resize((size_t{num_rows} + k_row_chunk - 1) / k_row_chunk);

  const Cache& cache = cache_;
  const float inv_dt = 1.0f / dt;
  // A body's velocities before this step's forces (an immovable entry has none listed: its own).
  const auto velocity_before_forces = [&](uint32_t body) {
    const SolverBody& b = bodies[body];
    return body < before_forces.size() ? before_forces[body]
                                       : BodyVelocity{b.linear_velocity, b.angular_velocity};
  };
  auto point_velocity_before_forces = [&](uint32_t body, const Vec3& r) {
    const BodyVelocity v = velocity_before_forces(body);
    return v.linear + v.angular.cross(r);
  };
  // `rolling`: the contact's rolling rows, if it has rolling resistance.
  const auto setup = [&](uint32_t index, uint32_t rolling, Constraint& local) {
    // A contact the wide solve takes is set up here and then copied into its lane: the large
    // constraint array is not written for it (the position solve reads the header).
    const uint32_t slot = lane_slot(index);
    Constraint& c = slot == k_no_rows ? row(index) : local;
    static_cast<ContactHeader&>(c) = added_[index];
    if (!settings.use_friction) {
      c.friction = 0.0f;
      c.rolling_resistance = 0.0f;
      c.torsional_friction = 0.0f;
    }
    c.manifold_friction = settings.manifold_friction;
    c.point_friction = c.manifold_friction ? k_no_rows : index;
    c.rolling = c.rolling_resistance > 0.0f ? rolling : k_no_rows;
    const SolverBody& b1 = bodies[c.body1];
    const SolverBody& b2 = bodies[c.body2];
    const CachedManifold& m = cache.manifolds[c.cache_manifold];
    const float restitution = m.combined_restitution;
    const ContactSettings* extended =
        m.settings != k_no_settings ? &cache.settings[m.settings] : nullptr;
    const Vec3 surface_linear =
        extended != nullptr ? extended->relative_linear_surface_velocity : Vec3::zero();
    const Vec3 surface_angular =
        extended != nullptr ? extended->relative_angular_surface_velocity : Vec3::zero();
    // The rows set up only for some contacts start from nothing (warm start and the impulse
    // cache read them whenever manifold friction is on).
    c.friction1 = AxisConstraintPart();
    c.friction2 = AxisConstraintPart();
    c.twist = AngularFrictionPart();
    // The normal was stored in body 1's frame when the manifold was found.
    c.normal = (b1.rotation * Vec3(m.local_normal)).normalized();
    c.tangent1 = c.normal.normalized_perpendicular();
    c.tangent2 = c.normal.cross(c.tangent1);

    Vec3 lever1[k_max_manifold_points];
    Vec3 lever2[k_max_manifold_points];
    float targets[k_max_manifold_points];
    for (uint32_t p = 0; p < c.num_points; ++p) {
      const CachedPoint& point = cache.points[c.cache_point + p];
      const Vec3 r1 = b1.rotation * Vec3(point.local_on_1);
      const Vec3 r2 = b2.rotation * Vec3(point.local_on_2);
      lever1[p] = r1;
      lever2[p] = r2;
      AxisConstraintPart& normal_row = c.normal_rows[p];

      // Relative velocity of the two surface points and their current separation.
      const Vec3 v1 = b1.linear_velocity + b1.angular_velocity.cross(r1);
      const Vec3 v2 = b2.linear_velocity + b2.angular_velocity.cross(r2);
      const float normal_velocity = (v2 - v1).dot(c.normal);
      const float separation = ((b2.com_position + r2) - (b1.com_position + r1)).dot(c.normal);
      // Speculative contact (seed 000 §7): a separated pair may still close the gap this step.
      const float speculative = std::max(0.0f, separation) * inv_dt;
      float target = -speculative;
      if (restitution > 0.0f && normal_velocity < -speculative) {
        // It will hit during this step: bounce with e × the approach speed. Like Jolt, the
        // bounce starts from the current position rather than from the moment of touching.
        // The approach speed is that before this step's gravity and forces: they act from the
        // start of the step, so the hit came first, and bouncing them back as well returns
        // more than arrived (an elastic ball rose 0.163 m higher after every bounce). Forces
        // that pushed the bodies apart are kept: the slower approach of the two is used.
        const Vec3 pre1 = point_velocity_before_forces(c.body1, r1);
        const Vec3 pre2 = point_velocity_before_forces(c.body2, r2);
        const float approach = std::max(normal_velocity, (pre2 - pre1).dot(c.normal));
        if (approach < -settings.min_velocity_for_restitution) target = -restitution * approach;
      }
      targets[p] = target;
      normal_row.calculate_constraint_properties(b1, r1, b2, r2, c.normal, target, c.mass_scales);
      // A CCD body's collision: CCD stopped it at the hit last step with its velocity (seed
      // 004 §4), and a point that starts without an impulse stops the approach now. The
      // impulse that takes the approach before this step's forces to the target is that
      // collision's (Jolt applies it at the hit, outside the contact cache), not a load the
      // next step meets again; what the point carries beyond it (a push passed along a row of
      // bullets) is warm-started as usual.
      c.impact_lambda[p] = 0.0f;
      if (c.after_ccd && point.normal_lambda == 0.0f) {
        const Vec3 pre1 = point_velocity_before_forces(c.body1, r1);
        const Vec3 pre2 = point_velocity_before_forces(c.body2, r2);
        c.impact_lambda[p] =
            normal_row.effective_mass() * std::max(0.0f, target - (pre2 - pre1).dot(c.normal));
      }
      // Friction makes the surfaces stick: v2 − v1 = −(relative surface velocity) along the
      // tangents (a conveyor belt, Jolt's ContactSettings::mRelative*SurfaceVelocity).
      if (c.point_friction != k_no_rows) {
        PointFrictionRows& rows = point_friction_[c.point_friction];
        const Vec3 surface = surface_linear + surface_angular.cross(r1);
        rows.friction1[p].calculate_constraint_properties(b1, r1, b2, r2, c.tangent1,
                                                          -surface.dot(c.tangent1), c.mass_scales);
        rows.friction2[p].calculate_constraint_properties(b1, r1, b2, r2, c.tangent2,
                                                          -surface.dot(c.tangent2), c.mass_scales);
        rows.friction1[p].set_total_lambda(point.friction_lambda1);
        rows.friction2[p].set_total_lambda(point.friction_lambda2);
      }
      normal_row.set_total_lambda(point.normal_lambda);
    }
    // With no points the block stays inactive: every contact is solved point by point.
    c.face.calculate_constraint_properties(b1, b2, lever1, lever2, targets,
                                           settings.face_contact_block ? c.num_points : 0, c.normal,
                                           c.tangent1, c.tangent2, c.mass_scales);

    if (c.manifold_friction && c.friction > 0.0f) {
      // Seed 000 §4.1: friction at the mean contact point, 2 linear rows + 1 twist row.
      Vec3 mean1;
      Vec3 mean2;
      for (uint32_t p = 0; p < c.num_points; ++p) {
        mean1 += lever1[p];
        mean2 += lever2[p];
      }
      const float inv_n = 1.0f / static_cast<float>(c.num_points);
      mean1 *= inv_n;
      mean2 *= inv_n;
      for (uint32_t p = 0; p < c.num_points; ++p) {
        const Vec3 d = lever1[p] - mean1;
        c.twist_lever[p] = (d - c.normal * d.dot(c.normal)).length();
      }
      const Vec3 surface = surface_linear + surface_angular.cross(mean1);
      c.friction1.calculate_constraint_properties(b1, mean1, b2, mean2, c.tangent1,
                                                  -surface.dot(c.tangent1), c.mass_scales);
      c.friction2.calculate_constraint_properties(b1, mean1, b2, mean2, c.tangent2,
                                                  -surface.dot(c.tangent2), c.mass_scales);
      c.twist.calculate_constraint_properties(b1, b2, c.normal, -surface_angular.dot(c.normal),
                                              c.mass_scales);
      c.friction1.set_total_lambda(m.friction_lambda1);
      c.friction2.set_total_lambda(m.friction_lambda2);
      c.twist.set_total_lambda(m.twist_lambda);
    }
    // Torsional friction and rolling resistance: angular rows about the normal and the
    // tangents, driving the relative angular velocity to the surface's (a turntable).
    c.twist_row = c.manifold_friction && c.friction > 0.0f;
    if (!c.twist_row && c.torsional_friction > 0.0f) {
      c.twist_row = true;
      c.twist.calculate_constraint_properties(b1, b2, c.normal, -surface_angular.dot(c.normal),
                                              c.mass_scales);
      c.twist.set_total_lambda(m.twist_lambda);
    }
    if (c.rolling != k_no_rows) {
      RollingRows& rows = rolling_[c.rolling];
      rows.rolling1.calculate_constraint_properties(
          b1, b2, c.tangent1, -surface_angular.dot(c.tangent1), c.mass_scales);
      rows.rolling2.calculate_constraint_properties(
          b1, b2, c.tangent2, -surface_angular.dot(c.tangent2), c.mass_scales);
      rows.rolling1.set_total_lambda(m.rolling_lambda1);
      rows.rolling2.set_total_lambda(m.rolling_lambda2);
    }
    added_[index].normal = c.normal;
    if (slot == k_no_rows) return;
    ContactLanes::Source source;
    source.body1 = c.body1;
    source.body2 = c.body2;
    source.write1 = !b1.is_immovable();
    source.write2 = !b2.is_immovable();
    source.num_points = c.num_points;
    source.normal = c.normal;
    source.tangent1 = c.tangent1;
    source.tangent2 = c.tangent2;
    source.friction = c.friction;
    source.inv_mass1 = b1.inv_mass;
    source.inv_mass2 = b2.inv_mass;
    source.inv_inertia1 = &b1.inv_inertia;
    source.inv_inertia2 = &b2.inv_inertia;
    source.scales = c.mass_scales;
    source.normal_rows = c.normal_rows;
    source.twist_lever = c.twist_lever;
    source.friction1 = &c.friction1;
    source.friction2 = &c.friction2;
    source.twist = &c.twist;
    source.face = &c.face;
    lanes(slot / ContactLanes::k_width).set_lane(slot % ContactLanes::k_width, source);
  };
  // Each contact writes only its own constraint and side rows. In one share per worker, so that
  // a contact is set up by the core that solves it (the splits' shares follow contact order).
  // The contacts the wide solve takes are set up block by block instead: a lane is a column of
  // its block, and set up in contact order each contact's lane wrote a few bytes into each of
  // some hundred cache lines of another block (setup took 2.7 times as long on the pyramid).
  // What a contact reads besides its header (the cache's manifold and points, the bodies) was
  // mostly written on another core: by last step's solve of its island, wherever that ran. A
  // few contacts ahead it is fetched while this one is set up.
  constexpr uint32_t k_contacts_ahead = 4;
  for_each_share([&](uint32_t share, uint32_t begin, uint32_t end) {
    Constraint local;
    uint32_t rolling = share_rolling_[share];
    uint32_t next_row = share_rows_[share];
    for (uint32_t i = begin; i < end; ++i) {
      if (i + k_contacts_ahead < end && lane_slot(i + k_contacts_ahead) == k_no_rows)
        prefetch_setup_inputs(bodies, i + k_contacts_ahead);
      // A contact with rolling resistance is never in a lane (takes_lane).
      if (lane_slot(i) != k_no_rows) {
        row_of_[i] = nullptr;
        continue;
      }
      row_of_[i] = &row_chunks_[next_row / k_row_chunk][next_row % k_row_chunk];
      ++next_row;
      setup(i, rolling, local);
      if (settings.use_friction && (added_traits_[i] & k_trait_rolling) != 0) ++rolling;
    }
  });
  const uint32_t num_blocks = num_lane_blocks_;
  while (lane_chunks_.size() * k_lane_chunk < num_blocks)
    lane_chunks_.push_back(std::make_unique<ContactLanes[]>(k_lane_chunk));
  // What the lanes' own setup (ContactLanes::setup) reads of contact `index`, put into lane
  // `lane` of `in`; false for a contact it does not cover, which the scalar setup above then
  // sets up and copies into its lane: one with side settings (surface velocities).
  const auto put_input = [&](ContactLanes::SetupInputs& in, uint32_t lane, uint32_t index) {
    const ContactHeader& c = added_[index];
    const CachedManifold& m = cache.manifolds[c.cache_manifold];
    if (m.settings != k_no_settings) return false;
    in.restitution.v[lane] = m.combined_restitution;
    if (m.combined_restitution > 0.0f) {
      // The bounce target's velocities (point_velocity_before_forces).
      const SolverBody& b1 = bodies[c.body1];
      const SolverBody& b2 = bodies[c.body2];
      const BodyVelocity before1 = velocity_before_forces(c.body1);
      const BodyVelocity before2 = velocity_before_forces(c.body2);
      in.linear1.set_lane(lane, b1.linear_velocity);
      in.angular1.set_lane(lane, b1.angular_velocity);
      in.linear2.set_lane(lane, b2.linear_velocity);
      in.angular2.set_lane(lane, b2.angular_velocity);
      in.linear1_before.set_lane(lane, before1.linear);
      in.angular1_before.set_lane(lane, before1.angular);
      in.linear2_before.set_lane(lane, before2.linear);
      in.angular2_before.set_lane(lane, before2.angular);
    }
    in.body1[lane] = c.body1;
    in.body2[lane] = c.body2;
    in.num_points.v[lane] = static_cast<float>(c.num_points);
    in.friction.v[lane] = settings.use_friction ? c.friction : 0.0f;
    in.inv_mass_scale1.v[lane] = c.mass_scales.inv_mass1;
    in.inv_inertia_scale1.v[lane] = c.mass_scales.inv_inertia1;
    in.inv_mass_scale2.v[lane] = c.mass_scales.inv_mass2;
    in.inv_inertia_scale2.v[lane] = c.mass_scales.inv_inertia2;
    in.local_normal.set_lane(lane, m.local_normal);
    for (uint32_t p = 0; p < c.num_points; ++p) {
      const CachedPoint& point = cache.points[c.cache_point + p];
      in.local_on_1[p].set_lane(lane, point.local_on_1);
      in.local_on_2[p].set_lane(lane, point.local_on_2);
      in.normal_lambda[p].v[lane] = point.normal_lambda;
    }
    in.friction_lambda1.v[lane] = m.friction_lambda1;
    in.friction_lambda2.v[lane] = m.friction_lambda2;
    in.twist_lambda.v[lane] = m.twist_lambda;
    return true;
  };
  const auto setup_blocks = [&](uint32_t begin, uint32_t end, uint32_t) {
    Constraint local;
    ContactLanes::SetupInputs inputs;
    inputs.min_velocity_for_restitution = settings.min_velocity_for_restitution;
    Vec3 normals[ContactLanes::k_width];
    for (uint32_t block = begin; block < end; ++block) {
      // The next block's contacts are scattered over the inputs: fetch them while this block
      // is set up.
      if (block + 2 < num_blocks)
        for (uint32_t index : lane_items_[block + 2])
          if (index != k_no_rows) prefetch_object(&added_[index]);
      if (block + 1 < num_blocks) prefetch_setup_inputs(bodies, lane_items_[block + 1]);
      const std::array<uint32_t, ContactLanes::k_width>& items = lane_items_[block];
      uint32_t scalar_lanes = 0;
      for (uint32_t lane = 0; lane < ContactLanes::k_width; ++lane) {
        const uint32_t index = items[lane];
        if (index != k_no_rows && put_input(inputs, lane, index)) continue;
        inputs.clear_lane(lane);  // empty, or set up by the scalar setup below
        if (index != k_no_rows) scalar_lanes |= 1u << lane;
      }
      ContactLanes& block_lanes = lanes(block);
      block_lanes.setup(bodies, inputs, inv_dt, settings.face_contact_block, normals);
      for (uint32_t lane = 0; lane < ContactLanes::k_width; ++lane) {
        const uint32_t index = items[lane];
        if (index == k_no_rows) continue;
        if ((scalar_lanes >> lane & 1u) != 0)
          setup(index, k_no_rows, local);
        else
          added_[index].normal = normals[lane];
      }
      block_lanes.drop_non_finite();
    }
  };
  // Blocks in claimed shares (core/ShareClaims.h): a worker done with its share helps with
  // the others', one block (some 2 µs) at a time; eight of its own (20 µs) at a time.
  constexpr uint32_t k_blocks_per_take = 8;
  parallel_for_claimed_shares(job_system, num_blocks, k_setup_share / ContactLanes::k_width,
                              k_blocks_per_take, 1, setup_blocks);
}

// Inlined always: called out of line it was a function with no effect GCC could see (a prefetch
// changes no value), and its calls were removed.
[[gnu::always_inline]] inline void ContactConstraintManager::prefetch_ahead(
    std::span<const SolverBody> bodies, std::span<const uint32_t> constraints, size_t k) const {
  // Two constraints ahead, the constraint; one ahead, its bodies (whose indices the previous
  // call brought in). A list in split order visits constraints scattered over the array: the
  // pyramid's 8400 take 9 MB, far more than the cache, and each visit missed.
  if (k + 2 < constraints.size()) prefetch_object(&row(constraints[k + 2]));
  if (k + 1 < constraints.size()) {
    const ContactHeader& next = row(constraints[k + 1]);
    prefetch_object(&bodies[next.body1]);
    prefetch_object(&bodies[next.body2]);
  }
}

void ContactConstraintManager::warm_start(std::span<SolverBody> bodies,
                                          std::span<const uint32_t> constraints) {
  SolverBody copy1, copy2;
  for (size_t k = 0; k < constraints.size(); ++k) {
    prefetch_ahead(bodies, constraints, k);
    Constraint& c = row(constraints[k]);
    SolverBody& b1 = writable_entry(bodies, c.body1, copy1);
    SolverBody& b2 = writable_entry(bodies, c.body2, copy2);
    if (c.manifold_friction) {
      c.friction1.warm_start(b1, b2, warm_start_ratio_);
      c.friction2.warm_start(b1, b2, warm_start_ratio_);
    }
    if (c.manifold_friction || c.twist_row) c.twist.warm_start(b1, b2, warm_start_ratio_);
    if (c.rolling != k_no_rows) {
      rolling_[c.rolling].rolling1.warm_start(b1, b2, warm_start_ratio_);
      rolling_[c.rolling].rolling2.warm_start(b1, b2, warm_start_ratio_);
    }
    PointFrictionRows* rows =
        c.point_friction != k_no_rows ? &point_friction_[c.point_friction] : nullptr;
    for (uint32_t p = 0; p < c.num_points; ++p) {
      if (rows != nullptr) {
        rows->friction1[p].warm_start(b1, b2, warm_start_ratio_);
        rows->friction2[p].warm_start(b1, b2, warm_start_ratio_);
      }
      c.normal_rows[p].warm_start(b1, b2, warm_start_ratio_);
    }
  }
}

bool ContactConstraintManager::solve_velocity_constraints(std::span<SolverBody> bodies,
                                                          std::span<const uint32_t> constraints,
                                                          int iteration) {
  bool applied = false;
  SolverBody copy1, copy2;
  for (size_t k = 0; k < constraints.size(); ++k) {
    prefetch_ahead(bodies, constraints, k);
    Constraint& c = row(constraints[k]);
    SolverBody& b1 = writable_entry(bodies, c.body1, copy1);
    SolverBody& b2 = writable_entry(bodies, c.body2, copy2);

    // Friction first: non-penetration matters more, so it is solved last (seed 000 §4.2).
    // The friction budget is μ × the normal impulse accumulated so far. Jolt bounds it by the
    // previous iteration's impulse, so with a single velocity iteration friction vanishes
    // entirely (LAWS.md B1). Here the warm start counts, and a contact that has no normal
    // impulse yet (new, or warm starting off) solves its normal first in the first iteration,
    // so that friction has a budget even when there is only one iteration.
    const bool torques = c.rolling_resistance > 0.0f || c.torsional_friction > 0.0f;
    bool normal_first = false;
    if (iteration == 0 && (c.friction > 0.0f || torques)) {
      normal_first = true;
      for (uint32_t p = 0; p < c.num_points; ++p)
        normal_first &= c.normal_rows[p].total_lambda() == 0.0f;
    }
    if (normal_first) applied |= solve_normals(c, b1, b2);
    if (c.friction > 0.0f)
      applied |= c.manifold_friction ? solve_manifold_friction(c, b1, b2)
                                     : solve_point_friction(c, b1, b2);
    if (torques) applied |= solve_contact_torques(c, b1, b2);
    applied |= solve_normals(c, b1, b2);
  }
  return applied;
}

bool ContactConstraintManager::solve_point_friction(Constraint& c, SolverBody& b1, SolverBody& b2) {
  PointFrictionRows& rows = point_friction_[c.point_friction];
  bool applied = false;
  for (uint32_t i = 0; i < c.num_points; ++i) {
    // Coulomb cone: |λ_t| ≤ μ λ_n.
    applied |=
        solve_friction_cone(rows.friction1[i], rows.friction2[i], b1, b2, c.tangent1, c.tangent2,
                            c.friction * friction_budget(c.normal_rows[i], b1, b2, c.normal));
  }
  return applied;
}

bool ContactConstraintManager::solve_manifold_friction(Constraint& c, SolverBody& b1,
                                                       SolverBody& b2) {
  // Budgets (seed 000 §4.1): μ·Σλ for the linear rows, μ·Σ(r·λ) for the twist, with each
  // point's λ counted as in the per-point model (B1: the accumulated impulse, warm start
  // included, or the one this iteration's normal solve is about to reach if larger).
  // Torsional friction raises the twist bound to torsional_friction × Σλ where that is larger:
  // both describe the same contact patch resisting spin, one from the manifold's extent, the
  // other as a declared patch radius, so the larger counts rather than their sum.
  float sum = 0.0f;
  float moment = 0.0f;
  for (uint32_t i = 0; i < c.num_points; ++i) {
    const float lambda = friction_budget(c.normal_rows[i], b1, b2, c.normal);
    sum += lambda;
    moment += c.twist_lever[i] * lambda;
  }
  bool applied = solve_friction_cone(c.friction1, c.friction2, b1, b2, c.tangent1, c.tangent2,
                                     c.friction * sum);
  const float max_twist = std::max(c.friction * moment, c.torsional_friction * sum);
  applied |= c.twist.solve_velocity_constraint(b1, b2, -max_twist, max_twist);
  return applied;
}

bool ContactConstraintManager::solve_contact_torques(Constraint& c, SolverBody& b1,
                                                     SolverBody& b2) {
  // Budgets: coefficient (m) × Σλ, the manifold's normal impulses counted as for friction.
  float sum = 0.0f;
  for (uint32_t i = 0; i < c.num_points; ++i)
    sum += friction_budget(c.normal_rows[i], b1, b2, c.normal);
  bool applied = false;
  // Torsional friction, unless manifold friction's twist row already solved it.
  const bool twist_done = c.manifold_friction && c.friction > 0.0f;
  if (c.twist_row && !twist_done) {
    const float max_twist = c.torsional_friction * sum;
    applied |= c.twist.solve_velocity_constraint(b1, b2, -max_twist, max_twist);
  }
  if (c.rolling != k_no_rows)
    applied |=
        solve_angular_friction_disc(rolling_[c.rolling].rolling1, rolling_[c.rolling].rolling2, b1,
                                    b2, c.rolling_resistance * sum);
  return applied;
}

bool ContactConstraintManager::solve_normals(Constraint& c, SolverBody& b1, SolverBody& b2) {
  // A face contact is solved as one block, unless its solution would pull on a point (the
  // pair is tipping over an edge); then, like every other contact, point by point.
  if (c.face.is_active()) {
    float lambdas[k_max_manifold_points];
    for (uint32_t i = 0; i < c.num_points; ++i) lambdas[i] = c.normal_rows[i].total_lambda();
    const FaceContactPart::Outcome outcome = c.face.solve_velocity_constraint(b1, b2, lambdas);
    if (outcome != FaceContactPart::Outcome::NotPushOnly) {
      for (uint32_t i = 0; i < c.num_points; ++i) c.normal_rows[i].set_total_lambda(lambdas[i]);
      return outcome == FaceContactPart::Outcome::Applied;
    }
  }
  // Non-penetration: contacts only push, so the accumulated impulse stays ≥ 0.
  bool applied = false;
  for (uint32_t i = 0; i < c.num_points; ++i)
    applied |= c.normal_rows[i].solve_velocity_constraint(b1, b2, c.normal, 0.0f, k_float_max);
  return applied;
}

bool ContactConstraintManager::takes_lane(uint32_t index, const PhysicsSettings& settings) const {
  // What setup_velocity_constraints will decide, from the same fields.
  const uint8_t traits = added_traits_[index];
  const bool torques = settings.use_friction && (traits & k_trait_torques) != 0;
  return settings.manifold_friction && !torques &&
         (traits & (k_trait_after_ccd | k_trait_no_points)) == 0;
}

void ContactConstraintManager::begin_lanes() {
  static_assert(ContactLanes::k_max_points == static_cast<uint32_t>(k_max_manifold_points));
  // Grown only (new entries are cleared with the others by clear_lane_slots).
  if (lane_slot_.size() < added_.size()) lane_slot_.resize(added_.size());
  lanes_planned_ = true;
  num_lane_blocks_ = 0;
}

void ContactConstraintManager::clear_lane_slots(uint32_t begin, uint32_t end) {
  std::fill(lane_slot_.begin() + begin, lane_slot_.begin() + end, k_no_rows);
}

uint32_t ContactConstraintManager::count_lanes(std::span<const uint32_t> contacts,
                                               const PhysicsSettings& settings,
                                               uint32_t& num_scalar) const {
  uint32_t lanes = 0;
  for (uint32_t index : contacts) lanes += takes_lane(index, settings) ? 1 : 0;
  num_scalar = static_cast<uint32_t>(contacts.size()) - lanes;
  return lanes;
}

void ContactConstraintManager::set_num_lane_blocks(uint32_t num_blocks) {
  if (lane_items_.size() < num_blocks) lane_items_.resize(num_blocks);
  num_lane_blocks_ = num_blocks;
}

void ContactConstraintManager::place_lanes(std::span<const uint32_t> contacts,
                                           const PhysicsSettings& settings, LaneRange range,
                                           uint32_t* out_scalar) {
  uint32_t block = range.begin;  // the next block to open
  uint32_t lane = ContactLanes::k_width;
  for (uint32_t index : contacts) {
    if (!takes_lane(index, settings)) {
      *out_scalar++ = index;
      continue;
    }
    if (lane == ContactLanes::k_width) {
      ATOLL_ASSERT(block < range.end, "place_lanes: more lane contacts than count_lanes said");
      lane_items_[block++].fill(k_no_rows);
      lane = 0;
    }
    lane_slot_[index] = (block - 1) * ContactLanes::k_width + lane;
    lane_items_[block - 1][lane++] = index;
  }
  ATOLL_ASSERT(block == range.end, "place_lanes: fewer lane contacts than count_lanes said");
}

void ContactConstraintManager::warm_start_lanes(std::span<SolverBody> bodies, LaneRange range) {
  const uint32_t num_blocks = num_lane_blocks_;
  for (uint32_t block = range.begin; block < range.end; ++block) {
    if (block + k_lanes_ahead < num_blocks)
      lanes(block + k_lanes_ahead).prefetch_velocities(bodies);
    lanes(block).warm_start(bodies, warm_start_ratio_);
  }
}

bool ContactConstraintManager::lane_lambdas(uint32_t index, float* normal, float& friction1,
                                            float& friction2, float& twist) const {
  const uint32_t slot = lane_slot(index);
  if (slot == k_no_rows) return false;
  return lanes(slot / ContactLanes::k_width)
      .get_lambdas(slot % ContactLanes::k_width, normal, friction1, friction2, twist);
}

bool ContactConstraintManager::solve_lanes(std::span<SolverBody> bodies, LaneRange range,
                                           int iteration) {
  bool applied = false;
  const uint32_t num_blocks = num_lane_blocks_;
  for (uint32_t block = range.begin; block < range.end; ++block) {
    if (block + k_lanes_ahead < num_blocks)
      lanes(block + k_lanes_ahead).prefetch_velocities(bodies);
    applied |= lanes(block).solve_velocity_constraints(bodies, iteration == 0);
  }
  return applied;
}

void ContactConstraintManager::store_lanes(LaneRange range) {
  Cache& cache = cache_;
  for (uint32_t block = range.begin; block < range.end; ++block) {
    for (uint32_t lane = 0; lane < ContactLanes::k_width; ++lane) {
      const uint32_t index = lane_items_[block][lane];
      if (index == k_no_rows) continue;
      float normal[k_max_manifold_points];
      float friction1 = 0.0f;
      float friction2 = 0.0f;
      float twist = 0.0f;
      // An empty lane (its rows were not finite) keeps the impulses the contact came with.
      if (!lanes(block).get_lambdas(lane, normal, friction1, friction2, twist)) continue;
      // As store_applied_impulses for a contact with manifold friction and no impact part.
      const ContactHeader& c = added_[index];
      for (uint32_t p = 0; p < c.num_points; ++p)
        cache.points[c.cache_point + p].normal_lambda = std::max(0.0f, normal[p]);
      CachedManifold& m = cache.manifolds[c.cache_manifold];
      m.friction_lambda1 = friction1;
      m.friction_lambda2 = friction2;
      m.twist_lambda = twist;
    }
  }
}

void ContactConstraintManager::store_applied_impulses(std::span<const uint32_t> constraints) {
  Cache& cache = cache_;
  for (uint32_t index : constraints) {
    const Constraint& c = row(index);
    for (uint32_t p = 0; p < c.num_points; ++p) {
      CachedPoint& point = cache.points[c.cache_point + p];
      // The impact part is spent: carried over, the next step would push the bodies apart with
      // it and take it back in another order, leaving its round-off as a drift (issue 7 item 7).
      point.normal_lambda = std::max(0.0f, c.normal_rows[p].total_lambda() - c.impact_lambda[p]);
      // With manifold friction the point's own friction impulses are not solved; they keep
      // the values they came with.
      if (c.point_friction != k_no_rows) {
        point.friction_lambda1 = point_friction_[c.point_friction].friction1[p].total_lambda();
        point.friction_lambda2 = point_friction_[c.point_friction].friction2[p].total_lambda();
      }
    }
    CachedManifold& m = cache.manifolds[c.cache_manifold];
    if (c.manifold_friction) {
      m.friction_lambda1 = c.friction1.total_lambda();
      m.friction_lambda2 = c.friction2.total_lambda();
    }
    if (c.manifold_friction || c.twist_row) m.twist_lambda = c.twist.total_lambda();
    if (c.rolling != k_no_rows) {
      m.rolling_lambda1 = rolling_[c.rolling].rolling1.total_lambda();
      m.rolling_lambda2 = rolling_[c.rolling].rolling2.total_lambda();
    }
  }
}

bool ContactConstraintManager::solve_position_constraints(std::span<SolverBody> bodies,
                                                          std::span<const uint32_t> constraints,
                                                          const PhysicsSettings& settings) {
  const Cache& cache = cache_;
  bool moved = false;
  SolverBody copy1, copy2;
  for (size_t k = 0; k < constraints.size(); ++k) {
    // As prefetch_ahead, for the headers.
    if (k + 2 < constraints.size()) prefetch_object(&added_[constraints[k + 2]]);
    if (k + 1 < constraints.size()) {
      const ContactHeader& next = added_[constraints[k + 1]];
      prefetch_object(&bodies[next.body1]);
      prefetch_object(&bodies[next.body2]);
      prefetch_object(&cache.points[next.cache_point]);
    }
    const ContactHeader& c = added_[constraints[k]];
    SolverBody& b1 = writable_entry(bodies, c.body1, copy1);
    SolverBody& b2 = writable_entry(bodies, c.body2, copy2);
    for (uint32_t p = 0; p < c.num_points; ++p) {
      const CachedPoint& point = cache.points[c.cache_point + p];
      // Contact points move with the bodies, which the previous corrections have moved.
      const Vec3 r1 = b1.rotation * Vec3(point.local_on_1);
      const Vec3 r2 = b2.rotation * Vec3(point.local_on_2);
      const float separation = ((b2.com_position + r2) - (b1.com_position + r1)).dot(c.normal);
      // Keep `penetration_slop` of overlap so that resting contacts do not flicker between
      // touching and not (which would wipe the cache), and never correct more than
      // max_penetration_distance at once (seed 000 §6.2–6.3).
      const float error =
          std::max(separation + settings.penetration_slop, -settings.max_penetration_distance);
      if (error < 0.0f)
        moved |= AxisConstraintPart::solve_position_constraint(b1, r1, b2, r2, c.normal, error,
                                                               settings.baumgarte, c.mass_scales);
    }
  }
  return moved;
}

void ContactConstraintManager::find_gone_contacts() {
  // Out of order (end_step sorts them first), the merge would miss pairs; gone_found_ then
  // stays as begin_step left it, false.
  if (std::is_sorted(cache_.pairs.begin(), cache_.pairs.end(), cached_pair_less)) collect_gone();
}

void ContactConstraintManager::collect_gone() {
  gone_.clear();
  const FillLaterVector<CachedPair>& pairs = cache_.pairs;
  // Both lists are sorted by key, so one merge pass finds them in a deterministic order.
  size_t j = 0;
  for (size_t k = 0; k < previous_pairs_.size(); ++k) {
    const CachedPair& old_pair = previous_pairs_[k];
    while (j < pairs.size() &&
           pair_less(pairs[j].key1, pairs[j].key2, old_pair.key1, old_pair.key2))
      ++j;
    const CachedPair* now =
        (j < pairs.size() && pairs[j].key1 == old_pair.key1 && pairs[j].key2 == old_pair.key2)
            ? &pairs[j]
            : nullptr;
    if (now == nullptr) {
      gone_.push_back({static_cast<uint32_t>(k), k_not_seen});
      continue;
    }
    // Reused whole (the body-pair cache): the same manifolds, nothing removed.
    if (now->first_manifold == old_pair.first_manifold &&
        now->num_manifolds == old_pair.num_manifolds)
      continue;
    for (uint32_t m = 0; m < old_pair.num_manifolds; ++m) {
      const CachedManifold& old_m = cache_.manifolds[old_pair.first_manifold + m];
      bool still = false;
      for (uint32_t n = 0; n < now->num_manifolds && !still; ++n) {
        const CachedManifold& new_m = cache_.manifolds[now->first_manifold + n];
        still = new_m.sub_shape_id1 == old_m.sub_shape_id1 &&
                new_m.sub_shape_id2 == old_m.sub_shape_id2;
      }
      if (!still) gone_.push_back({static_cast<uint32_t>(k), m});
    }
  }
  // For end_step's compaction, on the core that has just read the pairs (on 2 threads the
  // caller read them in finish_contacts, half of them written by the other core's fill).
  held_ = 0;
  for (const CachedPair& pair : pairs) held_ += pair.num_manifolds;
  gone_found_ = true;
}

void ContactConstraintManager::end_step(
    std::vector<RemovedContact>& out_removed,
    const std::function<bool(uint32_t, uint32_t)>& keep_unseen) {
  Cache& cache = cache_;
  // Sort pairs by key for next step's lookups; manifolds and points stay where they are.
  FillLaterVector<CachedPair>& pairs = cache.pairs;
  if (!gone_found_) {
    if (!std::is_sorted(pairs.begin(), pairs.end(), cached_pair_less))
      quick_sort(pairs.begin(), pairs.end(), cached_pair_less);
    collect_gone();
  }

  // Contacts of last step that are not in this step's cache were removed; a pair not collided
  // at all may carry over instead (`keep_unseen`, decided now, at the end of the step).
  for (const Gone& gone : gone_) {
    const CachedPair& old_pair = previous_pairs_[gone.pair];
    const auto remove = [&](uint32_t m) {
      const CachedManifold& old_m = cache.manifolds[old_pair.first_manifold + m];
      out_removed.push_back(
          {old_pair.key1, old_pair.key2, old_m.sub_shape_id1, old_m.sub_shape_id2});
    };
    if (gone.manifold != k_not_seen) {
      remove(gone.manifold);
      continue;
    }
    if (keep_unseen && keep_unseen(old_pair.key1, old_pair.key2)) {
      kept_pairs_.push_back(gone.pair);
      continue;
    }
    for (uint32_t m = 0; m < old_pair.num_manifolds; ++m) remove(m);
  }

  // Sleeping pairs stay in the cache as they are, manifolds where they are. They are in key
  // order (the walk above visited them so), and none of them is in `pairs`: the two runs are
  // merged from the back, in place. (Sorted again whole, convex_vs_mesh's 2 000 pairs with its
  // 28 sleeping ones took 70 of finish_contacts' 110 Mcycles per 500 steps.)
  uint32_t held = held_;
  if (!kept_pairs_.empty()) {
    size_t from = pairs.size();
    size_t to = from + kept_pairs_.size();
    pairs.resize(to);
    for (size_t k = kept_pairs_.size(); k-- > 0;) {
      const CachedPair& kept = previous_pairs_[kept_pairs_[k]];
      held += kept.num_manifolds;
      while (from > 0 && cached_pair_less(kept, pairs[from - 1])) pairs[--to] = pairs[--from];
      pairs[--to] = kept;
    }
    kept_pairs_.clear();
  }
  // Last step's manifolds that no pair holds now (gone, or left behind by a pair collided
  // again that did not fit over them: fits_in_place) are dropped once they are more than
  // 1/k_compact_fraction of those held: compacting moves every manifold and point stored after
  // the first gap, and such gaps come all over (when every pair collided again appended, the
  // pyramid's 150 of 8 500 a step moved 1.6 MB a step, 60 % of finish_contacts; with this
  // fraction it compacted every other step, at the same peak memory — an eighth took 0.5 MB
  // more; written in place, 17 times in 500 steps).
  // Where a manifold is stored changes nothing but the memory it takes: the pairs say which
  // ones they hold, saved states hold what the pairs hold, and the look-ups follow the pairs.
  if (cache.manifolds.size() - held > held / k_compact_fraction) cache.compact(compact_owner_);
}

void ContactConstraintManager::set_ccd_stopped(std::span<const uint32_t> body_keys) {
  ccd_stopped_.assign(body_keys.begin(), body_keys.end());
  quick_sort(ccd_stopped_.begin(), ccd_stopped_.end());
}

float ContactConstraintManager::total_normal_lambda(uint32_t i) const {
  if (lane_slot(i) != k_no_rows) {
    float lambdas[k_max_manifold_points];
    float friction1, friction2, twist;
    float sum = 0.0f;
    if (lane_lambdas(i, lambdas, friction1, friction2, twist))
      for (uint32_t p = 0; p < added_[i].num_points; ++p) sum += lambdas[p];
    return sum;
  }
  float sum = 0.0f;
  for (uint32_t p = 0; p < row(i).num_points; ++p) sum += row(i).normal_rows[p].total_lambda();
  return sum;
}

float ContactConstraintManager::total_friction_lambda(uint32_t i) const {
  if (lane_slot(i) != k_no_rows) {
    float lambdas[k_max_manifold_points];
    float friction1 = 0.0f;
    float friction2 = 0.0f;
    float twist;
    lane_lambdas(i, lambdas, friction1, friction2, twist);
    return std::sqrt(square(friction1) + square(friction2));
  }
  const Constraint& c = row(i);
  if (c.manifold_friction)
    return std::sqrt(square(c.friction1.total_lambda()) + square(c.friction2.total_lambda()));
  if (c.point_friction == k_no_rows) return 0.0f;
  const PointFrictionRows& rows = point_friction_[c.point_friction];
  float sum = 0.0f;
  for (uint32_t p = 0; p < c.num_points; ++p)
    sum += std::sqrt(square(rows.friction1[p].total_lambda()) +
                     square(rows.friction2[p].total_lambda()));
  return sum;
}

bool ContactConstraintManager::had_contact(uint32_t key1, uint32_t key2) const {
  // end_step sorted this step's pairs by key; only pairs with a manifold are stored.
  const FillLaterVector<CachedPair>& pairs = cache_.pairs;
  auto it = std::lower_bound(pairs.begin(), pairs.end(), std::pair(key1, key2),
                             [](const CachedPair& p, const std::pair<uint32_t, uint32_t>& k) {
                               return pair_less(p.key1, p.key2, k.first, k.second);
                             });
  return it != pairs.end() && it->key1 == key1 && it->key2 == key2 && it->num_manifolds > 0;
}

void ContactConstraintManager::visit_step_state(StateStream& stream) {
  stream.floats("previous_dt", &previous_dt_, 1);
  uint32_t count = static_cast<uint32_t>(ccd_stopped_.size());
  stream.count("ccd_stopped", count, sizeof(uint32_t));
  if (!stream.ok()) return;
  if (stream.restoring()) ccd_stopped_.assign(count, 0);
  if (count > 0) stream.u32s("ccd_stopped", ccd_stopped_.data(), count);
  if (stream.restoring() && !std::is_sorted(ccd_stopped_.begin(), ccd_stopped_.end()))
    stream.fail("ccd_stopped: not in ascending order");
}

namespace {

void visit_contact_settings(StateStream& s, ContactSettings& c) {
  visit_state(s, "combined_rolling_resistance", c.combined_rolling_resistance);
  visit_state(s, "combined_torsional_friction", c.combined_torsional_friction);
  s.flag("is_sensor", c.is_sensor);
  visit_state(s, "mass_scales.inv_mass1", c.mass_scales.inv_mass1);
  visit_state(s, "mass_scales.inv_inertia1", c.mass_scales.inv_inertia1);
  visit_state(s, "mass_scales.inv_mass2", c.mass_scales.inv_mass2);
  visit_state(s, "mass_scales.inv_inertia2", c.mass_scales.inv_inertia2);
  visit_state(s, "relative_linear_surface_velocity", c.relative_linear_surface_velocity);
  visit_state(s, "relative_angular_surface_velocity", c.relative_angular_surface_velocity);
}

// The fewest bytes a saved pair, manifold and point take (a corrupted count is checked
// against them).
constexpr uint32_t k_min_pair_bytes = 4 * (2 + 3 + 4 + 1);
constexpr uint32_t k_min_manifold_bytes = 4 * (3 + 2 + 2 + 5 + 1);
constexpr uint32_t k_min_point_bytes = 4 * (3 + 3 + 3);

}  // namespace

void ContactConstraintManager::save_cache(CacheSnapshot& snapshot) const {
  // Assigned list by list: no allocation once the snapshot's lists are large enough.
  snapshot.cache_.pairs = cache_.pairs;
  snapshot.cache_.manifolds = cache_.manifolds;
  snapshot.cache_.points = cache_.points;
  snapshot.cache_.settings = cache_.settings;
}

void ContactConstraintManager::restore_cache(const CacheSnapshot& snapshot) {
  Cache& cache = cache_;
  cache.pairs = snapshot.cache_.pairs;
  cache.manifolds = snapshot.cache_.manifolds;
  cache.points = snapshot.cache_.points;
  cache.settings = snapshot.cache_.settings;
  lookup_cursor_ = 0;
}

void ContactConstraintManager::visit_cache_state(
    StateStream& stream, const std::function<bool(uint32_t, uint32_t)>& keep) {
  StateStream& s = stream;
  const bool restoring = s.restoring();
  const Cache& from = cache_;
  std::vector<uint32_t> walked;
  if (!restoring)
    for (uint32_t i = 0; i < from.pairs.size(); ++i)
      if (!keep || keep(from.pairs[i].key1, from.pairs[i].key2)) walked.push_back(i);
  Cache restored;
  uint32_t num_pairs = static_cast<uint32_t>(walked.size());
  s.count("contact_pairs", num_pairs, k_min_pair_bytes);
  for (uint32_t k = 0; k < num_pairs && s.ok(); ++k) {
    s.object("contact pair", k);
    CachedPair pair = restoring ? CachedPair{} : from.pairs[walked[k]];
    s.u32s("body1_key", &pair.key1, 1);
    s.u32s("body2_key", &pair.key2, 1);
    if (restoring && s.ok()) {
      const bool ordered =
          pair.key1 < pair.key2 &&
          (restored.pairs.empty() ||
           pair_less(restored.pairs.back().key1, restored.pairs.back().key2, pair.key1, pair.key2));
      if (!ordered) s.fail("body keys: pairs must be in ascending key order, key1 < key2");
    }
    Vec3 relative_position = pair.relative_position();
    Quat relative_rotation = pair.relative_rotation();
    visit_state(s, "relative_position", relative_position);
    visit_state(s, "relative_rotation", relative_rotation);
    pair.set_relative_transform(relative_position, relative_rotation);
    // What the next step computes with must be what a step could have left: finite, unit
    // normals and rotations (a hand-made or damaged state asserted in setup; found by the
    // state_reader fuzz target).
    if (restoring && s.ok() &&
        !(relative_position.is_finite() && relative_rotation.is_normalized()))
      s.fail("relative transform: not finite, or the rotation is not a unit quaternion");
    uint32_t num_manifolds = pair.num_manifolds;
    s.count("manifolds", num_manifolds, k_min_manifold_bytes);
    const uint32_t first_manifold = pair.first_manifold;
    if (restoring) {
      pair.first_manifold = static_cast<uint32_t>(restored.manifolds.size());
      pair.num_manifolds = num_manifolds;
    }
    for (uint32_t m = 0; m < num_manifolds && s.ok(); ++m) {
      CachedManifold manifold = restoring ? CachedManifold{} : from.manifolds[first_manifold + m];
      visit_state(s, "local_normal", manifold.local_normal);
      uint32_t ids[2] = {manifold.sub_shape_id1.value(), manifold.sub_shape_id2.value()};
      s.u32s("sub_shape_ids", ids, 2);
      visit_state(s, "combined_friction", manifold.combined_friction);
      visit_state(s, "combined_restitution", manifold.combined_restitution);
      visit_state(s, "friction_lambda1", manifold.friction_lambda1);
      visit_state(s, "friction_lambda2", manifold.friction_lambda2);
      visit_state(s, "twist_lambda", manifold.twist_lambda);
      visit_state(s, "rolling_lambda1", manifold.rolling_lambda1);
      visit_state(s, "rolling_lambda2", manifold.rolling_lambda2);
      bool has_settings = manifold.settings != k_no_settings;
      s.flag("has_contact_settings", has_settings);
      ContactSettings settings =
          has_settings && !restoring ? from.settings[manifold.settings] : ContactSettings{};
      if (has_settings) visit_contact_settings(s, settings);
      if (restoring && s.ok()) {
        const float numbers[] = {manifold.combined_friction,
                                 manifold.combined_restitution,
                                 manifold.friction_lambda1,
                                 manifold.friction_lambda2,
                                 manifold.twist_lambda,
                                 manifold.rolling_lambda1,
                                 manifold.rolling_lambda2,
                                 settings.combined_rolling_resistance,
                                 settings.combined_torsional_friction,
                                 settings.mass_scales.inv_mass1,
                                 settings.mass_scales.inv_inertia1,
                                 settings.mass_scales.inv_mass2,
                                 settings.mass_scales.inv_inertia2};
        bool finite = Vec3(manifold.local_normal).is_normalized() &&
                      settings.relative_linear_surface_velocity.is_finite() &&
                      settings.relative_angular_surface_velocity.is_finite();
        for (float x : numbers) finite = finite && std::isfinite(x);
        if (!finite) s.fail("manifold: a number is not finite, or the normal is not unit");
      }
      uint32_t num_points = manifold.num_points;
      s.count("points", num_points, k_min_point_bytes);
      if (restoring && num_points > static_cast<uint32_t>(k_max_manifold_points))
        s.fail("points: " + std::to_string(num_points) + " in a manifold, at most " +
               std::to_string(k_max_manifold_points));
      const uint32_t first_point = manifold.first_point;
      if (restoring) {
        manifold.sub_shape_id1 = SubShapeID(ids[0]);
        manifold.sub_shape_id2 = SubShapeID(ids[1]);
        manifold.first_point = static_cast<uint32_t>(restored.points.size());
        manifold.num_points = num_points;
        manifold.settings = k_no_settings;
        if (has_settings) {
          manifold.settings = static_cast<uint32_t>(restored.settings.size());
          restored.settings.push_back(settings);
        }
      }
      for (uint32_t p = 0; p < num_points && s.ok(); ++p) {
        CachedPoint point = restoring ? CachedPoint{} : from.points[first_point + p];
        visit_state(s, "point.local_on_1", point.local_on_1);
        visit_state(s, "point.local_on_2", point.local_on_2);
        visit_state(s, "point.normal_lambda", point.normal_lambda);
        visit_state(s, "point.friction_lambda1", point.friction_lambda1);
        visit_state(s, "point.friction_lambda2", point.friction_lambda2);
        if (restoring && s.ok() &&
            !(Vec3(point.local_on_1).is_finite() && Vec3(point.local_on_2).is_finite() &&
              std::isfinite(point.normal_lambda) && std::isfinite(point.friction_lambda1) &&
              std::isfinite(point.friction_lambda2)))
          s.fail("point: a number is not finite");
        if (restoring) restored.points.push_back(point);
      }
      if (restoring) restored.manifolds.push_back(manifold);
    }
    if (restoring) restored.pairs.push_back(pair);
  }
  if (restoring && s.ok()) cache_ = std::move(restored);
}

}  // namespace atl
