#include "atoll/softbody/SoftBodyManager.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "atoll/body/Validation.h"
#include "atoll/collision/broadphase/BroadPhaseCollector.h"
#include "atoll/math/MathState.h"

namespace atl {

namespace {

// How far beyond a soft body's vertices (and their radius) a rigid body is still gathered as a
// collider, besides the vertices' own reach in the step.
constexpr float k_gather_margin = 0.05f;

}  // namespace

Status SoftBodyManager::validate(const SoftBodyCreationSettings& settings,
                                 const BodyManager& bodies, const char* call) const {
  const std::string prefix = std::string(call) + ": ";
  if (settings.settings == nullptr) return Error(prefix + "settings: is null");
  if (Status valid = settings.settings->validate(); !valid)
    return Error(prefix + "settings." + valid.error().message());
  const std::vector<SoftBodyVertex>& vertices = settings.settings->vertices;
  std::vector<uint8_t> tied(vertices.size(), 0);
  for (size_t i = 0; i < settings.ties.size(); ++i) {
    const SoftBodyTie& tie = settings.ties[i];
    const std::string field = prefix + "ties[" + std::to_string(i) + "]";
    if (tie.vertex >= vertices.size())
      return Error(field + ".vertex: " + std::to_string(tie.vertex) + " out of range (" +
                   std::to_string(vertices.size()) + " vertices)");
    if (vertices[tie.vertex].inverse_mass == 0.0f)
      return Error(field + ".vertex: vertex " + std::to_string(tie.vertex) +
                   " is pinned (inverse mass 0); only a free vertex can be tied to a body");
    if (tied[tie.vertex] != 0)
      return Error(field + ".vertex: vertex " + std::to_string(tie.vertex) + " is tied twice");
    tied[tie.vertex] = 1;
    Result<const Body*> body = bodies.lookup(tie.body, "");
    if (!body) return Error(field + ".body" + body.error().message());
    if ((*body)->is_soft_body())
      return Error(field + ".body: body " + format_body_id(tie.body) + " is a soft body");
    if (!(*body)->is_added())
      return Error(field + ".body: body " + format_body_id(tie.body) + " is not added");
  }
  return Ok{};
}

void SoftBodyManager::add(BodyID id, const SoftBodyCreationSettings& settings,
                          BodyManager& bodies) {
  // A soft body destroyed since the last update may hold the slot the new one took.
  prune(bodies);
  Entry entry;
  entry.id = id;
  entry.body = SoftBody::create(settings.settings).value_or_throw();
  for (const SoftBodyTie& tie : settings.ties) {
    const Body& body = *bodies.get(tie.body);
    const Vec3 at = settings.settings->vertices[tie.vertex].position;
    entry.ties.push_back(
        {tie.vertex, tie.body, body.world_transform().inversed_rotation_translation() * at});
  }
  const auto at =
      std::lower_bound(entries_.begin(), entries_.end(), id.index(),
                       [](const Entry& e, uint32_t index) { return e.id.index() < index; });
  Body& body = *bodies.get(id);
  const SoftBody& soft = *entry.body;
  entries_.insert(at, std::move(entry));
  bodies.set_soft_body_motion(body, soft.center_of_mass(), Vec3::zero(),
                              soft.bounds().expanded(soft.settings().vertex_radius));
}

const SoftBody* SoftBodyManager::get(BodyID id) const {
  return const_cast<SoftBodyManager*>(this)->get(id);
}

const SoftBodyManager::Entry* SoftBodyManager::find(BodyID id) const {
  const auto at =
      std::lower_bound(entries_.begin(), entries_.end(), id.index(),
                       [](const Entry& e, uint32_t index) { return e.id.index() < index; });
  return at != entries_.end() && at->id == id ? &*at : nullptr;
}

SoftBody* SoftBodyManager::get(BodyID id) {
  const Entry* entry = find(id);
  return entry != nullptr ? entry->body.get() : nullptr;
}

void SoftBodyManager::prune(const BodyManager& bodies) {
  entries_.erase(std::remove_if(entries_.begin(), entries_.end(),
                                [&](const Entry& e) { return bodies.get(e.id) == nullptr; }),
                 entries_.end());
}

void SoftBodyManager::step_entry(Entry& entry, float dt, const SoftBodyStepSettings& step_settings,
                                 const SoftBodySleepSettings& sleep, const BodyManager& bodies,
                                 const BroadPhase& broadphase,
                                 const ObjectLayerPairFilter& layer_filter,
                                 const BodyAccelerationOf& acceleration_of) const {
  const Body& self = *bodies.get(entry.id);
  SoftBody& soft = *entry.body;
  // The bodies near the vertices, in body-index order (the broadphase's order is its trees').
  float fastest = 0.0f;
  for (const Vec3& v : soft.velocities()) fastest = std::max(fastest, v.length());
  const AABox near =
      soft.bounds().expanded(soft.settings().vertex_radius + fastest * dt + k_gather_margin);
  AllHitsBroadPhaseCollector found;
  const DefaultObjectLayerFilter filter(layer_filter, self.object_layer());
  (void)broadphase.collide_aabox(near, filter, found);
  entry.collider_bodies.clear();
  for (const BroadPhaseHit& hit : found.hits) {
    // Itself and the other soft bodies are in the broadphase too; they do not collide, and a
    // sensor holds nothing up.
    const Body& body = *bodies.body_at_slot(hit.body_index);
    if (!body.is_soft_body() && !body.is_sensor() && bodies.groups_collide(self, body))
      entry.collider_bodies.push_back(hit.body_index);
  }
  for (const Tie& tie : entry.ties) {
    const Body* body = bodies.get(tie.body);
    if (body != nullptr && body->is_added()) entry.collider_bodies.push_back(tie.body.index());
  }
  std::sort(entry.collider_bodies.begin(), entry.collider_bodies.end());
  entry.collider_bodies.erase(
      std::unique(entry.collider_bodies.begin(), entry.collider_bodies.end()),
      entry.collider_bodies.end());
  entry.colliders.clear();
  for (const uint32_t index : entry.collider_bodies) {
    const Body& body = *bodies.body_at_slot(index);
    SoftBodyCollider c;
    c.shape = body.shape().get();
    c.transform = body.world_transform();
    c.center_of_mass = body.center_of_mass_position();
    c.linear_velocity = body.linear_velocity();
    c.angular_velocity = body.angular_velocity();
    c.friction = body.friction();
    if (body.is_dynamic() && acceleration_of)
      acceleration_of(body, c.acceleration, c.angular_acceleration);
    c.inverse_mass = body.inverse_mass();
    c.inverse_inertia = body.inverse_inertia();
    entry.colliders.push_back(c);
  }
  entry.attachments.clear();
  for (const Tie& tie : entry.ties) {
    const auto at = std::lower_bound(entry.collider_bodies.begin(), entry.collider_bodies.end(),
                                     tie.body.index());
    const Body* body = bodies.get(tie.body);
    if (body == nullptr || !body->is_added()) continue;  // a tie to a body gone is loose
    entry.attachments.push_back(
        {tie.vertex, uint32_t(at - entry.collider_bodies.begin()), tie.local_point});
  }
  if (entry.asleep) {
    // Woken by a collider that moves (a resting awake body under it does not).
    bool moving = false;
    for (const SoftBodyCollider& c : entry.colliders) {
      const float reach =
          (c.shape->world_bounds(c.transform).center() - c.center_of_mass).length() +
          c.shape->local_bounds().extent().length();
      moving = moving || c.linear_velocity.length() + c.angular_velocity.length() * reach >
                             sleep.point_velocity_sleep_threshold;
    }
    if (!moving && sleep.allow_sleeping) {
      entry.colliders.clear();
      return;
    }
    entry.asleep = false;
    entry.sleep_timer = 0.0f;
  }
  entry.failed = !soft.step(dt, step_settings, entry.colliders, entry.attachments).ok();
  if (!sleep.allow_sleeping) {
    entry.sleep_timer = 0.0f;
    return;
  }
  float speed = 0.0f;
  for (const Vec3& v : soft.velocities()) speed = std::max(speed, v.length());
  entry.sleep_timer = speed < sleep.point_velocity_sleep_threshold ? entry.sleep_timer + dt : 0.0f;
  if (entry.sleep_timer >= sleep.time_before_sleep) {
    entry.asleep = true;
    for (uint32_t i = 0; i < soft.vertex_count(); ++i)
      (void)soft.set_vertex(i, soft.positions()[i], Vec3::zero());
  }
}

bool SoftBodyManager::is_sleeping(BodyID id) const {
  const Entry* entry = find(id);
  return entry != nullptr && entry->asleep;
}

void SoftBodyManager::wake(BodyID id) {
  Entry* entry = find(id);
  if (entry == nullptr) return;
  entry->asleep = false;
  entry->sleep_timer = 0.0f;
}

void SoftBodyManager::sync_bodies(BodyManager& bodies) const {
  for (const Entry& entry : entries_) {
    Body* body = bodies.get(entry.id);
    if (body == nullptr) continue;
    const SoftBody& soft = *entry.body;
    bodies.set_soft_body_motion(*body, soft.center_of_mass(), soft.linear_velocity(),
                                soft.bounds().expanded(soft.settings().vertex_radius));
  }
}

uint32_t SoftBodyManager::update(float dt, const SoftBodyStepSettings& step_settings,
                                 const SoftBodySleepSettings& sleep, BodyManager& bodies,
                                 const BroadPhase& broadphase,
                                 const ObjectLayerPairFilter& layer_filter, JobSystem* jobs,
                                 const BodyAccelerationOf& acceleration_of) {
  prune(bodies);
  const auto step_range = [&](uint32_t begin, uint32_t end, uint32_t /*worker*/) {
    for (uint32_t i = begin; i < end; ++i) {
      Entry& entry = entries_[i];
      entry.failed = false;
      entry.colliders.clear();
      if (!bodies.get(entry.id)->is_added()) continue;
      step_entry(entry, dt, step_settings, sleep, bodies, broadphase, layer_filter,
                 acceleration_of);
    }
  };
  if (jobs != nullptr && entries_.size() > 1)
    parallel_for(*jobs, uint32_t(entries_.size()), 1, step_range);
  else
    step_range(0, uint32_t(entries_.size()), 0);
  // In body-index order on this thread: each soft body's own Body, and the impulses for the
  // next step, summed per body.
  uint32_t failed = 0;
  pending_.clear();
  updated_.clear();
  for (Entry& entry : entries_) {
    Body& self = *bodies.get(entry.id);
    if (!self.is_added()) continue;
    updated_.push_back(entry.id.index());
    failed += entry.failed ? 1 : 0;
    for (size_t c = 0; c < entry.colliders.size(); ++c) {
      const SoftBodyCollider& collider = entry.colliders[c];
      const Body& body = *bodies.body_at_slot(entry.collider_bodies[c]);
      if (!body.is_dynamic() || body.is_quarantined()) continue;
      if (collider.impulse.length_sq() == 0.0f && collider.angular_impulse.length_sq() == 0.0f)
        continue;
      pending_.push_back({body.id(), collider.impulse, collider.angular_impulse});
    }
    const SoftBody& soft = *entry.body;
    bodies.set_soft_body_motion(self, soft.center_of_mass(), soft.linear_velocity(),
                                soft.bounds().expanded(soft.settings().vertex_radius));
  }
  // One entry per body, by index (a stable sort keeps the soft bodies' order for equal ones,
  // and the sums are made in that order).
  std::stable_sort(pending_.begin(), pending_.end(), [](const Pending& a, const Pending& b) {
    return a.body.index() < b.body.index();
  });
  size_t kept = 0;
  for (size_t i = 0; i < pending_.size(); ++i) {
    if (kept > 0 && pending_[kept - 1].body == pending_[i].body) {
      pending_[kept - 1].impulse += pending_[i].impulse;
      pending_[kept - 1].angular_impulse += pending_[i].angular_impulse;
    } else {
      pending_[kept++] = pending_[i];
    }
  }
  pending_.resize(kept);
  return failed;
}

void SoftBodyManager::apply_impulses(BodyManager& bodies) {
  for (const Pending& p : pending_) {
    Body* body = bodies.get(p.body);
    if (body == nullptr || !body->is_added() || !body->is_dynamic() || body->is_quarantined())
      continue;
    if (!body->is_active()) bodies.activate(*body);
    body->add_impulse(p.impulse);
    body->add_angular_impulse(p.angular_impulse);
  }
  pending_.clear();
}

void SoftBodyManager::visit_state(StateStream& s, const std::function<bool(BodyID)>& keep) {
  std::vector<Entry*> walked;
  if (!s.restoring())
    for (Entry& entry : entries_)
      if (!keep || keep(entry.id)) walked.push_back(&entry);
  uint32_t count = uint32_t(walked.size());
  s.object("world", 0);
  // An id and a vertex count at least.
  s.count("soft_bodies", count, 8);
  std::vector<Vec3> x, v;
  for (uint32_t k = 0; k < count && s.ok(); ++k) {
    Entry* entry = s.restoring() ? nullptr : walked[k];
    uint32_t id = entry != nullptr ? entry->id.value() : 0;
    s.object("soft body", entry != nullptr ? entry->id.index() : k);
    s.u32s("id", &id, 1);
    if (!s.ok()) return;
    if (s.restoring()) {
      s.object("soft body", BodyID(id).index());
      entry = find(BodyID(id));
      if (entry == nullptr) {
        s.fail("(id " + std::to_string(id) + "): not a soft body of this world");
        return;
      }
    }
    SoftBody& soft = *entry->body;
    s.expect("vertex_count", soft.vertex_count());
    float sleep_timer = entry->sleep_timer;
    bool asleep = entry->asleep;
    atl::visit_state(s, "sleep_timer", sleep_timer);
    s.flag("asleep", asleep);
    x.assign(soft.positions().begin(), soft.positions().end());
    v.assign(soft.velocities().begin(), soft.velocities().end());
    for (uint32_t i = 0; i < soft.vertex_count() && s.ok(); ++i) {
      atl::visit_state(s, "position", x[i]);
      atl::visit_state(s, "velocity", v[i]);
    }
    if (!s.restoring() || !s.ok()) continue;
    if (!std::isfinite(sleep_timer)) {
      s.fail("sleep_timer: not finite");
      return;
    }
    entry->sleep_timer = sleep_timer;
    entry->asleep = asleep;
    for (uint32_t i = 0; i < soft.vertex_count(); ++i) {
      if (Status set = soft.set_vertex(i, x[i], v[i]); !set) {
        s.fail("vertex " + std::to_string(i) + ": not finite");
        return;
      }
    }
  }
  if (!s.ok()) return;
  // The impulses waiting for the next step (unfiltered: they belong to the rigid bodies).
  uint32_t num_pending = uint32_t(pending_.size());
  s.object("world", 0);
  s.count("soft_body_impulses", num_pending, 4 + 6 * 4);
  std::vector<Pending> read(s.restoring() ? num_pending : 0);
  for (uint32_t k = 0; k < num_pending && s.ok(); ++k) {
    Pending& p = s.restoring() ? read[k] : pending_[k];
    uint32_t id = p.body.value();
    s.object("soft body impulse", k);
    s.u32s("body", &id, 1);
    atl::visit_state(s, "impulse", p.impulse);
    atl::visit_state(s, "angular_impulse", p.angular_impulse);
    if (s.restoring() && s.ok()) {
      p.body = BodyID(id);
      if (!p.impulse.is_finite() || !p.angular_impulse.is_finite()) s.fail("not finite");
    }
  }
  if (s.restoring() && s.ok()) pending_ = std::move(read);
}

size_t SoftBodyManager::Snapshot::bytes() const {
  size_t total = 0;
  for (const Saved& saved : saved_)
    total += sizeof(Saved) + saved.body.vertex_count() * 4 * sizeof(Vec3) +
             saved.ties.size() * sizeof(Tie);
  return total + pending_.size() * sizeof(Pending);
}

void SoftBodyManager::save(Snapshot& snapshot) const {
  snapshot.pending_ = pending_;
  snapshot.saved_.clear();
  for (const Entry& entry : entries_)
    snapshot.saved_.push_back({entry.id, *entry.body, entry.ties, entry.sleep_timer, entry.asleep});
}

void SoftBodyManager::restore(const Snapshot& snapshot) {
  pending_ = snapshot.pending_;
  entries_.clear();
  for (const Snapshot::Saved& saved : snapshot.saved_) {
    Entry entry;
    entry.id = saved.id;
    entry.body = std::make_unique<SoftBody>(saved.body);
    entry.ties = saved.ties;
    entry.sleep_timer = saved.sleep_timer;
    entry.asleep = saved.asleep;
    entries_.push_back(std::move(entry));
  }
}

}  // namespace atl
