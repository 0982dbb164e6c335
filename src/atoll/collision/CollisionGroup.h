#pragma once
// Collision groups: a finer filter than object layers, for bodies that share a layer but must
// not all collide with each other — the parts of one ragdoll, the links of one chain. Each body
// carries a CollisionGroup: a group ID, a sub-group ID and an optional GroupFilter that decides
// for two groups. The world asks it once per candidate pair, after the layer filters and before
// the narrow phase (a rejected pair gets no contacts, no events and no CCD hit).

#include <cstdint>
#include <vector>

#include "atoll/core/Ref.h"
#include "atoll/core/Result.h"

namespace atl {

class CollisionGroup;

/// Decides whether two collision groups collide. Shared between bodies (reference counted),
/// called from the step (later from worker threads): implementations must be thread-safe for
/// reading and symmetric.
class GroupFilter : public RefTarget<GroupFilter> {
 public:
  virtual ~GroupFilter() = default;
  /// True when bodies in groups `a` and `b` may collide.
  virtual bool can_collide(const CollisionGroup& a, const CollisionGroup& b) const = 0;
};

/// A body's collision group. The default (no filter) collides with everything.
class CollisionGroup {
 public:
  using GroupID = uint32_t;
  using SubGroupID = uint32_t;
  /// "No group" / "no sub-group": a body without a group collides as its filter allows.
  static constexpr GroupID k_invalid_group = 0xffffffffu;
  static constexpr SubGroupID k_invalid_sub_group = 0xffffffffu;

  CollisionGroup() = default;
  CollisionGroup(Ref<const GroupFilter> filter, GroupID group_id, SubGroupID sub_group_id)
      : filter_(std::move(filter)), group_id_(group_id), sub_group_id_(sub_group_id) {}

  /// The filter that decides (null: none).
  const GroupFilter* filter() const { return filter_.get(); }
  /// Group (e.g. one ragdoll); k_invalid_group for none.
  GroupID group_id() const { return group_id_; }
  /// Sub-group within the group (e.g. one limb); k_invalid_sub_group for none.
  SubGroupID sub_group_id() const { return sub_group_id_; }

  /// Whether this group and `other` collide: this group's filter decides when it has one,
  /// otherwise the other's; with neither, they collide. Give both bodies of a group the same
  /// filter so that the answer does not depend on which body asks.
  bool can_collide(const CollisionGroup& other) const {
    if (filter_ != nullptr) return filter_->can_collide(*this, other);
    if (other.filter_ != nullptr) return other.filter_->can_collide(other, *this);
    return true;
  }

 private:
  Ref<const GroupFilter> filter_;
  GroupID group_id_ = k_invalid_group;
  SubGroupID sub_group_id_ = k_invalid_sub_group;
};

/// The usual filter: bodies of different groups always collide; inside one group, a table
/// says which pairs of sub-groups collide (all, until disabled). A body without a valid group
/// or sub-group collides with everything.
class GroupFilterTable final : public GroupFilter {
 public:
  /// A table for sub-groups 0 … num_sub_groups − 1 (≤ 4096), every pair enabled; an error
  /// names a count out of range.
  static Result<Ref<GroupFilterTable>> create(uint32_t num_sub_groups);

  /// Number of sub-groups the table covers.
  uint32_t num_sub_groups() const { return num_sub_groups_; }
  /// Stops sub-groups `a` and `b` of one group from colliding (symmetric); an error names an
  /// index out of range and changes nothing.
  Status disable_collision(uint32_t a, uint32_t b);
  /// Lets sub-groups `a` and `b` of one group collide again (symmetric).
  Status enable_collision(uint32_t a, uint32_t b);
  /// Whether sub-groups `a` and `b` of one group collide (true for indices out of range).
  bool is_collision_enabled(uint32_t a, uint32_t b) const;

  bool can_collide(const CollisionGroup& a, const CollisionGroup& b) const override;

 private:
  explicit GroupFilterTable(uint32_t num_sub_groups);
  Status set(uint32_t a, uint32_t b, bool enabled, const char* call);
  // Bit index of the unordered pair (lo, hi), lo < hi: row hi of a lower triangle.
  static uint64_t bit(uint32_t lo, uint32_t hi) {
    return static_cast<uint64_t>(hi) * (hi - 1) / 2 + lo;
  }

  uint32_t num_sub_groups_;
  std::vector<uint64_t> enabled_;  // one bit per unordered pair of distinct sub-groups
};

}  // namespace atl
