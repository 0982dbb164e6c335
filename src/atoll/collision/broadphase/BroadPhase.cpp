#include "atoll/collision/broadphase/BroadPhase.h"

#include <algorithm>
#include <bit>
#include <sstream>
#include <string>
#include <utility>

#include "atoll/core/RadixSort.h"

namespace atl {

namespace {

Status check_finite(const Vec3& v, const char* field) {
  if (v.is_finite()) return Ok{};
  std::ostringstream os;
  os << field << ": must be finite, got " << v;
  return Error(os.str());
}

}  // namespace

BroadPhase::BroadPhase(const BroadPhaseLayerInterface& layer_interface,
                       const ObjectVsBroadPhaseLayerFilter& object_vs_broadphase,
                       const ObjectLayerPairFilter& object_pair_filter,
                       const BroadPhaseSettings& settings)
    : layer_interface_(&layer_interface),
      object_vs_broadphase_(&object_vs_broadphase),
      object_pair_filter_(&object_pair_filter),
      settings_(settings),
      trees_(layer_interface.num_broadphase_layers()) {}

Result<BroadPhase> BroadPhase::create(const BroadPhaseLayerInterface& layer_interface,
                                      const ObjectVsBroadPhaseLayerFilter& object_vs_broadphase,
                                      const ObjectLayerPairFilter& object_pair_filter,
                                      const BroadPhaseSettings& settings) {
  if (!is_finite(settings.fat_margin) || settings.fat_margin < 0.0f) {
    return Error("BroadPhaseSettings.fat_margin: must be finite and >= 0, got " +
                 std::to_string(settings.fat_margin));
  }
  const uint32_t num_layers = layer_interface.num_broadphase_layers();
  if (num_layers == 0 || num_layers >= k_invalid_broadphase_layer + 1u) {
    return Error("BroadPhaseLayerInterface.num_broadphase_layers: must be in 1..255, got " +
                 std::to_string(num_layers));
  }
  return BroadPhase(layer_interface, object_vs_broadphase, object_pair_filter, settings);
}

Status BroadPhase::check_present(uint32_t body_index, const char* function) const {
  if (contains(body_index)) return Ok{};
  return Error(std::string("BroadPhase.") + function + ".body_index: body " +
               std::to_string(body_index) + " is not in the broadphase");
}

Result<BroadPhaseLayer> BroadPhase::map_layer(ObjectLayer layer, const char* function) const {
  const BroadPhaseLayer bp_layer = layer_interface_->broadphase_layer(layer);
  if (bp_layer >= trees_.size()) {
    return Error(std::string("BroadPhase.") + function + ".layer: object layer " +
                 std::to_string(layer) + " maps to broadphase layer " + std::to_string(bp_layer) +
                 ", but there are " + std::to_string(trees_.size()));
  }
  return bp_layer;
}

Status BroadPhase::check_layer(ObjectLayer layer) const {
  const BroadPhaseLayer bp_layer = layer_interface_->broadphase_layer(layer);
  if (bp_layer < trees_.size()) return Ok{};
  return Error("object layer " + std::to_string(layer) + " maps to broadphase layer " +
               std::to_string(bp_layer) + ", but there are " + std::to_string(trees_.size()));
}

Status BroadPhase::add(uint32_t body_index, ObjectLayer layer, const AABox& tight_box, bool pairs) {
  if (body_index > k_max_body_index) {
    return Error("BroadPhase.add.body_index: must be <= " + std::to_string(k_max_body_index) +
                 ", got " + std::to_string(body_index));
  }
  if (contains(body_index)) {
    return Error("BroadPhase.add.body_index: body " + std::to_string(body_index) +
                 " is already in the broadphase");
  }
  if (Status s = DynamicTree::check_box(tight_box, "BroadPhase.add.tight_box"); !s) return s;
  const Result<BroadPhaseLayer> bp_layer = map_layer(layer, "add");
  if (!bp_layer) return bp_layer.error();
  const AABox fat_box = DynamicTree::fatten(tight_box, Vec3::zero(), settings_.fat_margin);
  Result<uint32_t> proxy = trees_[*bp_layer].insert(fat_box, body_index);
  if (!proxy) return proxy.error();
  if (body_index >= bodies_.size()) bodies_.resize(static_cast<size_t>(body_index) + 1);
  bodies_[body_index] = BodyEntry{*proxy, layer, *bp_layer, pairs};
  ++body_count_;
  count_layer(layer, +1);
  mark_changed(body_index);
  return Ok{};
}

Status BroadPhase::remove(uint32_t body_index) {
  if (Status s = check_present(body_index, "remove"); !s) return s;
  BodyEntry& entry = bodies_[body_index];
  if (Status s = trees_[entry.bp_layer].remove(entry.proxy); !s) return s;
  count_layer(entry.layer, -1);
  entry = BodyEntry{};
  --body_count_;
  mark_changed(body_index);
  return Ok{};
}

Status BroadPhase::set_fat_box(uint32_t body_index, const AABox& fat_box) {
  if (Status s = check_present(body_index, "set_fat_box"); !s) return s;
  if (Status s = DynamicTree::check_box(fat_box, "BroadPhase.set_fat_box.fat_box"); !s) return s;
  const BodyEntry& entry = bodies_[body_index];
  const DynamicTree::LeafMove move{entry.proxy, fat_box};
  if (Status s =
          trees_[entry.bp_layer].move_leaves(std::span<const DynamicTree::LeafMove>(&move, 1));
      !s)
    return s;
  mark_changed(body_index);
  return Ok{};
}

Error BroadPhase::update_error(uint32_t body_index, const AABox& tight_box,
                               const Vec3& predicted_displacement) const {
  if (Status s = check_present(body_index, "update"); !s) return s.error();
  if (Status s = DynamicTree::check_box(tight_box, "BroadPhase.update.tight_box"); !s) {
    return s.error();
  }
  return check_finite(predicted_displacement, "BroadPhase.update.predicted_displacement").error();
}

uint32_t BroadPhase::apply_moves() {
  const uint32_t moved = static_cast<uint32_t>(moves_.size());
  if (moves_.empty()) return 0;
  for (const PendingMove& move : moves_) mark_changed(move.body_index);
  for (uint32_t bp = 0; bp < trees_.size(); ++bp) {
    tree_moves_.clear();
    for (const PendingMove& move : moves_)
      if (move.bp_layer == bp) tree_moves_.push_back(move.leaf);
    if (tree_moves_.empty()) continue;
    const Status s = trees_[bp].move_leaves(tree_moves_);
    ATOLL_ASSERT(s.ok(), "update_many moves present leaves to validated boxes");
    (void)s;
  }
  moves_.clear();
  return moved;
}

Status BroadPhase::set_object_layer(uint32_t body_index, ObjectLayer layer) {
  if (Status s = check_present(body_index, "set_object_layer"); !s) return s;
  const Result<BroadPhaseLayer> bp_layer = map_layer(layer, "set_object_layer");
  if (!bp_layer) return bp_layer.error();
  BodyEntry& entry = bodies_[body_index];
  if (*bp_layer != entry.bp_layer) {
    DynamicTree& from = trees_[entry.bp_layer];
    const AABox fat_box = from.fat_box(entry.proxy);
    Result<uint32_t> proxy = trees_[*bp_layer].insert(fat_box, body_index);
    if (!proxy) return proxy.error();
    if (Status s = from.remove(entry.proxy); !s) return s;
    entry.proxy = *proxy;
    entry.bp_layer = *bp_layer;
  }
  count_layer(entry.layer, -1);
  count_layer(layer, +1);
  entry.layer = layer;
  mark_changed(body_index);
  return Ok{};
}

Status BroadPhase::set_fat_margin(float fat_margin) {
  if (!is_finite(fat_margin) || fat_margin < 0.0f) {
    return Error("BroadPhaseSettings.fat_margin: must be finite and >= 0, got " +
                 std::to_string(fat_margin));
  }
  const float delta = fat_margin - settings_.fat_margin;
  if (delta == 0.0f) return Ok{};
  // A stored box is the body's bounds (swept by its predicted motion) grown by the margin, so
  // growing it by the difference gives what the new margin would have; shrinking keeps it valid
  // because it was grown by the old margin.
  const Vec3 grow = Vec3::replicate(delta);
  const auto regrown = [&](uint32_t body_index) {
    const BodyEntry& entry = bodies_[body_index];
    const AABox& old_box = trees_[entry.bp_layer].fat_box(entry.proxy);
    return AABox(old_box.min - grow, old_box.max + grow);
  };
  for (uint32_t body_index = 0; body_index < bodies_.size(); ++body_index) {
    if (contains(body_index) && !DynamicTree::is_valid_box(regrown(body_index))) {
      return Error("BroadPhaseSettings.fat_margin: " + std::to_string(fat_margin) +
                   (delta > 0.0f ? " grows the box of body " + std::to_string(body_index) +
                                       " past float range"
                                 : " shrinks the box of body " + std::to_string(body_index) +
                                       " inside out (a box set_fat_box gave less than the "
                                       "margin)"));
    }
  }
  settings_.fat_margin = fat_margin;
  // Every stored box changes: find_step_pairs looks for all pairs again.
  step_pairs_valid_ = false;
  for (uint32_t body_index = 0; body_index < bodies_.size(); ++body_index) {
    if (!contains(body_index)) continue;
    const AABox box = regrown(body_index);
    BodyEntry& entry = bodies_[body_index];
    DynamicTree& tree = trees_[entry.bp_layer];
    Result<uint32_t> proxy = tree.insert(box, body_index);
    if (!proxy) return proxy.error();
    if (Status s = tree.remove(entry.proxy); !s) return s;
    entry.proxy = *proxy;
  }
  return Ok{};
}

void BroadPhase::save(Snapshot& snapshot) const {
  snapshot.trees_.resize(trees_.size());
  for (size_t i = 0; i < trees_.size(); ++i) trees_[i].save(snapshot.trees_[i]);
  snapshot.bodies_ = bodies_;
  snapshot.body_count_ = body_count_;
}

void BroadPhase::restore(const Snapshot& snapshot) {
  ATOLL_ASSERT(snapshot.trees_.size() == trees_.size(), "a snapshot of another broadphase");
  for (size_t i = 0; i < trees_.size(); ++i) trees_[i].restore(snapshot.trees_[i]);
  bodies_ = snapshot.bodies_;
  body_count_ = snapshot.body_count_;
  layer_counts_.clear();
  for (const BodyEntry& entry : bodies_)
    if (entry.proxy != DynamicTree::k_null_node) count_layer(entry.layer, +1);
  // Other boxes, maybe other bodies: find_step_pairs looks for all pairs again.
  step_pairs_valid_ = false;
}

void BroadPhase::optimize() {
  for (DynamicTree& tree : trees_) tree.rebuild();
}

Status BroadPhase::mark_active(std::span<const uint32_t> active_body_indices,
                               const char* function) {
  active_bits_.resize((bodies_.size() + 63) / 64, 0);
  // Marked, so that a pair of two active bodies is reported only from the lower index and a
  // pair with an inactive one from the active side.
  for (size_t i = 0; i < active_body_indices.size(); ++i) {
    const uint32_t index = active_body_indices[i];
    const bool present = contains(index);
    if (!present || is_marked_active(index)) {
      unmark_active(active_body_indices.first(i));
      return Error(std::string("BroadPhase.") + function + ".active_body_indices[" +
                   std::to_string(i) + "]: body " + std::to_string(index) +
                   (present ? " is listed twice" : " is not in the broadphase"));
    }
    active_bits_[index >> 6] |= uint64_t{1} << (index & 63);
  }
  return Ok{};
}

void BroadPhase::unmark_active(std::span<const uint32_t> active_body_indices) {
  for (const uint32_t index : active_body_indices)
    active_bits_[index >> 6] &= ~(uint64_t{1} << (index & 63));
}

Status BroadPhase::find_pairs(std::span<const uint32_t> active_body_indices,
                              std::vector<BodyPair>& out, JobSystem* jobs) {
  out.clear();
  if (Status s = mark_active(active_body_indices, "find_pairs"); !s) return s;
  const ActiveMarks marks{*this, active_body_indices};
  InlineJobSystem inline_jobs;
  collect_pairs(active_body_indices, out, jobs != nullptr ? *jobs : inline_jobs);
  return Ok{};
}

void BroadPhase::collect_pairs(std::span<const uint32_t> active_body_indices,
                               std::vector<BodyPair>& out, JobSystem& job_system) {
  clear_worker_pairs(job_system);
  // Most bodies active (a scene of fast bodies): walking each tree against itself and the
  // others finds the pairs with far fewer node visits than one query per body (HighSpeed
  // 2.0 -> 1.0 ms per step). Few active: their queries visit only their own neighbourhoods.
  if (active_body_indices.size() * 2 >= body_count_) {
    find_pairs_by_walk(active_body_indices, job_system);
  } else {
    find_pairs_by_query(active_body_indices, job_system);
  }
  join_worker_pairs(out);
}

void BroadPhase::clear_worker_pairs(JobSystem& jobs) {
  if (worker_pairs_.size() < jobs.num_workers()) worker_pairs_.resize(jobs.num_workers());
  for (WorkerPairs& worker : worker_pairs_) worker.list.clear();
}

void BroadPhase::join_worker_pairs(std::vector<BodyPair>& out) {
  // The workers' lists in any order: the sort below fixes it.
  out.swap(worker_pairs_[0].list);
  for (size_t w = 1; w < worker_pairs_.size(); ++w)
    out.insert(out.end(), worker_pairs_[w].list.begin(), worker_pairs_[w].list.end());
  // Ascending (a, b): a radix sort on the key a·2^bits + b, bits enough for any body index.
  const uint32_t bits = static_cast<uint32_t>(std::bit_width(bodies_.size()));
  radix_sort(out, pair_scratch_, 2 * bits,
             [bits](const BodyPair& p) { return (uint64_t{p.a} << bits) | p.b; });
}

Status BroadPhase::find_step_pairs(std::span<const uint32_t> active_body_indices,
                                   std::vector<BodyPair>& out, JobSystem* jobs) {
  out.clear();
  reused_step_pairs_ = false;
  // Valid again once this call has finished: should a filter throw (user code, on any worker),
  // the next call looks for all pairs again.
  const bool step_pairs_valid = std::exchange(step_pairs_valid_, false);
  if (Status s = mark_active(active_body_indices, "find_step_pairs"); !s) return s;
  const ActiveMarks marks{*this, active_body_indices};
  InlineJobSystem inline_jobs;
  JobSystem& job_system = jobs != nullptr ? *jobs : inline_jobs;
  // A body active now and not at the last call, or the other way round, has changed: its
  // pairs with inactive bodies come or go, and the side its pairs are looked for from may.
  if (step_active_bits_.size() < active_bits_.size())
    step_active_bits_.resize(active_bits_.size(), 0);
  const auto was_active = [this](uint32_t index) {
    return (index >> 6) < step_active_bits_.size() &&
           ((step_active_bits_[index >> 6] >> (index & 63)) & 1u) != 0;
  };
  // The same list (a world whose bodies neither woke nor fell asleep): no change to look for.
  const bool same_active = std::equal(active_body_indices.begin(), active_body_indices.end(),
                                      step_active_.begin(), step_active_.end());
  if (!same_active) {
    for (const uint32_t index : active_body_indices)
      if (!was_active(index)) mark_changed(index);
    for (const uint32_t index : step_active_)
      if (index >= bodies_.size() || !is_marked_active(index)) mark_changed(index);
  }
  // Evaluated at every call, so that the answers kept are always the last call's.
  const bool same_filters = filters_answer_as_before();
  reused_step_pairs_ =
      step_pairs_valid && same_filters && changed_.size() * 4 <= active_body_indices.size();
  if (reused_step_pairs_) {
    reuse_step_pairs(job_system);
  } else {
    collect_pairs(active_body_indices, step_pairs_, job_system);
  }
  out.assign(step_pairs_.begin(), step_pairs_.end());
  // Remembered for the next call.
  if (!same_active) {
    for (const uint32_t index : step_active_)
      step_active_bits_[index >> 6] &= ~(uint64_t{1} << (index & 63));
    step_active_.assign(active_body_indices.begin(), active_body_indices.end());
    for (const uint32_t index : step_active_)
      step_active_bits_[index >> 6] |= uint64_t{1} << (index & 63);
  }
  for (const uint32_t index : changed_) changed_bits_[index >> 6] &= ~(uint64_t{1} << (index & 63));
  changed_.clear();
  step_pairs_valid_ = true;
  return Ok{};
}

void BroadPhase::reuse_step_pairs(JobSystem& jobs) {
  if (changed_.empty()) return;  // a pile at rest: last step's pairs as they are
  clear_worker_pairs(jobs);
  // The changed bodies' pairs, each found from the lower changed body of the two.
  parallel_for(jobs, static_cast<uint32_t>(changed_.size()), k_query_bodies_per_range,
               [&](uint32_t begin, uint32_t end, uint32_t worker) {
                 std::vector<BodyPair>& found = worker_pairs_[worker].list;
                 for (uint32_t k = begin; k < end; ++k) {
                   const uint32_t index = changed_[k];
                   if (!contains(index) || !bodies_[index].pairs) continue;
                   const BodyEntry& entry = bodies_[index];
                   const AABox& box = trees_[entry.bp_layer].fat_box(entry.proxy);
                   // Every tree: the filters decide from the looking side, which may be either.
                   for (const DynamicTree& tree : trees_) {
                     tree.query_aabox(box, [&](uint32_t other) {
                       if (other == index || (other < index && is_changed(other))) return true;
                       const uint32_t lo = index < other ? index : other;
                       const uint32_t hi = index < other ? other : index;
                       if ((is_marked_active(lo) || is_marked_active(hi)) && admits(lo, hi))
                         found.push_back(BodyPair{lo, hi});
                       return true;
                     });
                   }
                 }
               });
  std::vector<BodyPair>& found = found_pairs_;
  join_worker_pairs(found);
  // Last call's pairs of two unchanged bodies are still found (same boxes, activity, layers
  // and filter answers), merged in order with the new ones, which all have a changed body.
  next_step_pairs_.clear();
  size_t next = 0;
  for (const BodyPair& pair : step_pairs_) {
    if (is_changed(pair.a) || is_changed(pair.b)) continue;
    while (next < found.size() && found[next] < pair) next_step_pairs_.push_back(found[next++]);
    next_step_pairs_.push_back(pair);
  }
  next_step_pairs_.insert(next_step_pairs_.end(), found.begin() + static_cast<std::ptrdiff_t>(next),
                          found.end());
  step_pairs_.swap(next_step_pairs_);
}

bool BroadPhase::filters_answer_as_before() {
  // Layer by layer, with the layers themselves: another set of layers is another answer.
  // Beyond k_max_filter_layers layers the check would cost more than it saves.
  constexpr size_t k_max_filter_layers = 64;
  if (layer_counts_.size() > k_max_filter_layers) {
    filter_answers_.clear();
    return false;
  }
  std::vector<uint8_t>& answers = new_filter_answers_;
  answers.clear();
  for (const LayerCount& from : layer_counts_) {
    answers.push_back(static_cast<uint8_t>(from.layer & 0xff));
    answers.push_back(static_cast<uint8_t>(from.layer >> 8));
    for (uint32_t bp = 0; bp < trees_.size(); ++bp)
      answers.push_back(
          object_vs_broadphase_->should_collide(from.layer, static_cast<BroadPhaseLayer>(bp)));
    for (const LayerCount& to : layer_counts_)
      answers.push_back(object_pair_filter_->should_collide(from.layer, to.layer));
  }
  const bool same = answers == filter_answers_;
  filter_answers_.swap(answers);
  return same;
}

void BroadPhase::count_layer(ObjectLayer layer, int delta) {
  auto it = std::lower_bound(layer_counts_.begin(), layer_counts_.end(), layer,
                             [](const LayerCount& c, ObjectLayer l) { return c.layer < l; });
  if (it == layer_counts_.end() || it->layer != layer) it = layer_counts_.insert(it, {layer, 0});
  it->bodies = static_cast<uint32_t>(static_cast<int64_t>(it->bodies) + delta);
  if (it->bodies == 0) layer_counts_.erase(it);
}

void BroadPhase::find_pairs_by_walk(std::span<const uint32_t> active_body_indices,
                                    JobSystem& jobs) {
  const uint32_t num_layers = num_broadphase_layers();
  // Which trees hold an active body, and which pairs of trees an active body's layer may look
  // into (from its own tree into the other, as a query would).
  tree_marks_.resize(num_layers);
  active_in_tree_.assign(num_layers, 0);
  for (const uint32_t index : active_body_indices) ++active_in_tree_[bodies_[index].bp_layer];
  for (uint32_t bp = 0; bp < num_layers; ++bp) {
    // Every body of the tree active (a scene in motion): every subtree holds one.
    if (active_in_tree_[bp] == trees_[bp].size())
      trees_[bp].mark_all(tree_marks_[bp]);
    else
      trees_[bp].mark_subtrees([this](uint32_t body) { return is_marked_active(body); },
                               tree_marks_[bp]);
  }
  tree_pairs_.assign(static_cast<size_t>(num_layers) * num_layers, 0);
  for (const uint32_t index : active_body_indices) {
    const BodyEntry& entry = bodies_[index];
    for (uint32_t bp = 0; bp < num_layers; ++bp) {
      if (object_vs_broadphase_->should_collide(entry.layer, static_cast<BroadPhaseLayer>(bp))) {
        tree_pairs_[static_cast<size_t>(entry.bp_layer) * num_layers + bp] = 1;
        tree_pairs_[static_cast<size_t>(bp) * num_layers + entry.bp_layer] = 1;
      }
    }
  }
  // A pair the query of its active side would report, under the same rules: looked for from
  // the lower index when both are active, else from the active one.
  const auto reporter = [this](std::vector<BodyPair>& out) {
    return [this, &out](uint32_t x, uint32_t y) {
      const uint32_t lo = x < y ? x : y;
      const uint32_t hi = x < y ? y : x;
      if (admits(lo, hi)) out.push_back(BodyPair{lo, hi});
    };
  };
  const auto walked = [&](uint32_t p, uint32_t q) {
    return tree_pairs_[static_cast<size_t>(p) * num_layers + q] != 0;
  };
  if (jobs.num_workers() == 1) {
    const auto report = reporter(worker_pairs_[0].list);
    for (uint32_t p = 0; p < num_layers; ++p)
      for (uint32_t q = p; q < num_layers; ++q)
        if (walked(p, q))
          trees_[p].overlapping_pairs(tree_marks_[p], trees_[q], tree_marks_[q], report);
    return;
  }
  // The first levels of each walk on the caller, the places left below them shared out among
  // the workers one at a time (their subtrees differ widely in size).
  const auto report_here = reporter(worker_pairs_[0].list);
  walk_tasks_.clear();
  for (uint32_t p = 0; p < num_layers; ++p) {
    for (uint32_t q = p; q < num_layers; ++q) {
      if (!walked(p, q)) continue;
      walk_entries_.clear();
      trees_[p].split_overlapping_pairs(tree_marks_[p], trees_[q], tree_marks_[q],
                                        k_walk_places_per_worker * jobs.num_workers(),
                                        walk_entries_, report_here);
      for (const DynamicTree::PairWalkEntry& entry : walk_entries_)
        walk_tasks_.push_back(WalkTask{p, q, entry});
    }
  }
  parallel_for(jobs, static_cast<uint32_t>(walk_tasks_.size()), 1,
               [this, &reporter](uint32_t begin, uint32_t end, uint32_t worker) {
                 const auto report = reporter(worker_pairs_[worker].list);
                 for (uint32_t k = begin; k < end; ++k) {
                   const WalkTask& task = walk_tasks_[k];
                   trees_[task.p].overlapping_pairs_from(
                       tree_marks_[task.p], trees_[task.q], tree_marks_[task.q],
                       std::span<const DynamicTree::PairWalkEntry>(&task.entry, 1), report);
                 }
               });
}

void BroadPhase::find_pairs_by_query(std::span<const uint32_t> active_body_indices,
                                     JobSystem& jobs) {
  const uint32_t num_layers = num_broadphase_layers();
  parallel_for(
      jobs, static_cast<uint32_t>(active_body_indices.size()), k_query_bodies_per_range,
      [&](uint32_t begin, uint32_t end, uint32_t worker) {
        std::vector<BodyPair>& out = worker_pairs_[worker].list;
        for (uint32_t k = begin; k < end; ++k) {
          const uint32_t index = active_body_indices[k];
          const BodyEntry& entry = bodies_[index];
          if (!entry.pairs) continue;
          const AABox& box = trees_[entry.bp_layer].fat_box(entry.proxy);
          for (uint32_t bp = 0; bp < num_layers; ++bp) {
            if (trees_[bp].empty() || !object_vs_broadphase_->should_collide(
                                          entry.layer, static_cast<BroadPhaseLayer>(bp))) {
              continue;
            }
            trees_[bp].query_aabox(box, [&](uint32_t other) {
              if (other == index || (other < index && is_marked_active(other))) return true;
              const BodyEntry& to = bodies_[other];
              if (to.pairs && object_pair_filter_->should_collide(entry.layer, to.layer)) {
                out.push_back(index < other ? BodyPair{index, other} : BodyPair{other, index});
              }
              return true;
            });
          }
        }
      });
}

Status BroadPhase::cast_ray(const Vec3& origin, const Vec3& direction,
                            const ObjectLayerFilter& filter, BroadPhaseCollector& collector,
                            const BroadPhaseLayerFilter& bp_filter) const {
  if (Status s = check_finite(origin, "BroadPhase.cast_ray.origin"); !s) return s;
  if (Status s = check_finite(direction, "BroadPhase.cast_ray.direction"); !s) return s;
  for (uint32_t bp = 0; bp < trees_.size(); ++bp) {
    if (collector.should_early_out()) break;
    if (trees_[bp].empty() || !bp_filter.should_collide(static_cast<BroadPhaseLayer>(bp))) continue;
    const float max_fraction = std::min(1.0f, collector.early_out_fraction());
    trees_[bp].cast_ray(origin, direction, max_fraction, [&](uint32_t body, float fraction) {
      if (filter.should_collide(bodies_[body].layer)) collector.add_hit({body, fraction});
      return collector.early_out_fraction();
    });
  }
  return Ok{};
}

Status BroadPhase::cast_aabox(const AABox& box, const Vec3& displacement,
                              const ObjectLayerFilter& filter, BroadPhaseCollector& collector,
                              const BroadPhaseLayerFilter& bp_filter) const {
  if (Status s = DynamicTree::check_box(box, "BroadPhase.cast_aabox.box"); !s) return s;
  if (Status s = check_finite(displacement, "BroadPhase.cast_aabox.displacement"); !s) return s;
  for (uint32_t bp = 0; bp < trees_.size(); ++bp) {
    if (collector.should_early_out()) break;
    if (trees_[bp].empty() || !bp_filter.should_collide(static_cast<BroadPhaseLayer>(bp))) continue;
    const float max_fraction = std::min(1.0f, collector.early_out_fraction());
    trees_[bp].cast_aabox(box, displacement, max_fraction, [&](uint32_t body, float fraction) {
      if (filter.should_collide(bodies_[body].layer)) collector.add_hit({body, fraction});
      return collector.early_out_fraction();
    });
  }
  return Ok{};
}

Status BroadPhase::cast_aabox_among(const AABox& box, const Vec3& displacement,
                                    std::span<const uint32_t> candidates,
                                    const ObjectLayerFilter& filter, BroadPhaseCollector& collector,
                                    const BroadPhaseLayerFilter& bp_filter) const {
  if (Status s = DynamicTree::check_box(box, "BroadPhase.cast_aabox_among.box"); !s) return s;
  if (Status s = check_finite(displacement, "BroadPhase.cast_aabox_among.displacement"); !s)
    return s;
  float max_fraction = std::min(1.0f, collector.early_out_fraction());
  if (!(max_fraction >= 0.0f)) return Ok{};
  // The tree's own node test (DynamicTree::cast): a leaf is reported exactly when it passes it,
  // because the test is monotone and so every ancestor of a passing leaf passes too.
  const DynamicTree::SweptBox swept(box.center(), box.extent(), displacement, max_fraction);
  for (const uint32_t body : candidates) {
    if (!contains(body)) continue;
    const BodyEntry& entry = bodies_[body];
    if (!bp_filter.should_collide(entry.bp_layer)) continue;
    const float fraction =
        swept.fraction(trees_[entry.bp_layer].fat_box(entry.proxy), max_fraction);
    if (fraction == k_float_max || fraction > max_fraction) continue;
    if (!filter.should_collide(entry.layer)) continue;
    collector.add_hit({body, fraction});
    max_fraction = std::min(max_fraction, collector.early_out_fraction());
    if (max_fraction < 0.0f) break;
  }
  return Ok{};
}

bool BroadPhase::sweep_within_fat_box(uint32_t body_index, const AABox& box,
                                      const Vec3& displacement) const {
  if (!contains(body_index)) return false;
  // The sweep cast_aabox tests every node against first (DynamicTree::SweptBox at fraction 1):
  // a leaf it reports overlaps that sweep, so it overlaps any box containing it.
  const DynamicTree::SweptBox swept(box.center(), box.extent(), displacement, 1.0f);
  return fat_box(body_index).contains(swept.sweep);
}

Status BroadPhase::collide_aabox(const AABox& box, const ObjectLayerFilter& filter,
                                 BroadPhaseCollector& collector,
                                 const BroadPhaseLayerFilter& bp_filter) const {
  if (Status s = DynamicTree::check_box(box, "BroadPhase.collide_aabox.box"); !s) return s;
  for (uint32_t bp = 0; bp < trees_.size(); ++bp) {
    if (collector.should_early_out()) break;
    if (trees_[bp].empty() || !bp_filter.should_collide(static_cast<BroadPhaseLayer>(bp))) continue;
    trees_[bp].query_aabox(box, [&](uint32_t body) {
      if (filter.should_collide(bodies_[body].layer)) collector.add_hit({body, 0.0f});
      return !collector.should_early_out();
    });
  }
  return Ok{};
}

Status BroadPhase::collide_point(const Vec3& point, const ObjectLayerFilter& filter,
                                 BroadPhaseCollector& collector,
                                 const BroadPhaseLayerFilter& bp_filter) const {
  if (Status s = check_finite(point, "BroadPhase.collide_point.point"); !s) return s;
  for (uint32_t bp = 0; bp < trees_.size(); ++bp) {
    if (collector.should_early_out()) break;
    if (trees_[bp].empty() || !bp_filter.should_collide(static_cast<BroadPhaseLayer>(bp))) continue;
    trees_[bp].query_point(point, [&](uint32_t body) {
      if (filter.should_collide(bodies_[body].layer)) collector.add_hit({body, 0.0f});
      return !collector.should_early_out();
    });
  }
  return Ok{};
}

Status BroadPhase::validate() const {
  uint32_t leaves = 0;
  for (uint32_t bp = 0; bp < trees_.size(); ++bp) {
    if (Status s = trees_[bp].validate(); !s) return s;
    leaves += trees_[bp].size();
  }
  uint32_t present = 0;
  for (uint32_t index = 0; index < bodies_.size(); ++index) {
    const BodyEntry& entry = bodies_[index];
    if (entry.proxy == DynamicTree::k_null_node) continue;
    ++present;
    if (entry.bp_layer >= trees_.size() || !trees_[entry.bp_layer].is_leaf(entry.proxy) ||
        trees_[entry.bp_layer].value(entry.proxy) != index) {
      return Error("BroadPhase.validate: body " + std::to_string(index) +
                   " does not own its tree leaf");
    }
  }
  if (present != body_count_ || leaves != body_count_) {
    return Error("BroadPhase.validate: " + std::to_string(present) + " bodies present, " +
                 std::to_string(leaves) + " leaves, " + std::to_string(body_count_) + " counted");
  }
  return Ok{};
}

}  // namespace atl
