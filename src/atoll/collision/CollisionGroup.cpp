#include "atoll/collision/CollisionGroup.h"

#include <string>

namespace atl {

namespace {
constexpr uint32_t k_max_sub_groups = 4096;
}

GroupFilterTable::GroupFilterTable(uint32_t num_sub_groups) : num_sub_groups_(num_sub_groups) {
  const uint64_t num_pairs = static_cast<uint64_t>(num_sub_groups) * (num_sub_groups - 1) / 2;
  enabled_.assign((num_pairs + 63) / 64, ~uint64_t{0});
}

Result<Ref<GroupFilterTable>> GroupFilterTable::create(uint32_t num_sub_groups) {
  if (num_sub_groups < 1 || num_sub_groups > k_max_sub_groups)
    return Error("GroupFilterTable::create: num_sub_groups: must be in [1, " +
                 std::to_string(k_max_sub_groups) + "], got " + std::to_string(num_sub_groups));
  return Ref<GroupFilterTable>(new GroupFilterTable(num_sub_groups));
}

Status GroupFilterTable::set(uint32_t a, uint32_t b, bool enabled, const char* call) {
  for (uint32_t index : {a, b})
    if (index >= num_sub_groups_)
      return Error(std::string("GroupFilterTable::") + call + ": sub-group " +
                   std::to_string(index) + " is out of range (the table has " +
                   std::to_string(num_sub_groups_) + ")");
  if (a == b)
    return Error(std::string("GroupFilterTable::") + call +
                 ": a sub-group always collides with itself (got " + std::to_string(a) + " twice)");
  const uint64_t i = a < b ? bit(a, b) : bit(b, a);
  if (enabled)
    enabled_[i / 64] |= uint64_t{1} << (i % 64);
  else
    enabled_[i / 64] &= ~(uint64_t{1} << (i % 64));
  return Ok{};
}

Status GroupFilterTable::disable_collision(uint32_t a, uint32_t b) {
  return set(a, b, false, "disable_collision");
}

Status GroupFilterTable::enable_collision(uint32_t a, uint32_t b) {
  return set(a, b, true, "enable_collision");
}

bool GroupFilterTable::is_collision_enabled(uint32_t a, uint32_t b) const {
  if (a == b || a >= num_sub_groups_ || b >= num_sub_groups_) return true;
  const uint64_t i = a < b ? bit(a, b) : bit(b, a);
  return (enabled_[i / 64] >> (i % 64)) & 1u;
}

bool GroupFilterTable::can_collide(const CollisionGroup& a, const CollisionGroup& b) const {
  // Different groups, or a body outside any group: the table has no say.
  if (a.group_id() == CollisionGroup::k_invalid_group || a.group_id() != b.group_id()) return true;
  return is_collision_enabled(a.sub_group_id(), b.sub_group_id());
}

}  // namespace atl
