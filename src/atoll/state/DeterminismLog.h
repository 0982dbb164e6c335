#pragma once
// Finding where two runs part (issue 10 item 4; seed 004 §9.3): a determinism log has one hash
// per stage per collision step (PhysicsSystem::set_determinism_log), so two logs of runs that
// should be identical — two thread counts, two builds, two machines — show the first step and
// stage where they are not. Jolt's JPH_DET_LOG prints values to diff by hand; this names the
// place.
//
// Text, one line per stage: "STEP COLLISION_STEP STAGE HASH" (HASH: 16 hex digits), in the
// order the stages ran. `atoll run --detlog FILE` writes it, `atoll detlog-diff A B` compares.

#include <cstdint>
#include <istream>
#include <optional>
#include <ostream>
#include <string>

#include "atoll/core/Hash.h"
#include "atoll/core/Result.h"
#include "atoll/core/StateStream.h"

namespace atl {

/// Receives a hash of what each stage left behind.
class DeterminismLog {
 public:
  virtual ~DeterminismLog() = default;
  /// `step`: the world's step count when the update began (0-based); `collision_step`: the
  /// sub-step within it; `stage`: stage_name(); `hash`: FNV-1a 64 of the stage's results.
  virtual void on_stage(uint64_t step, int collision_step, const char* stage, uint64_t hash) = 0;
};

/// Writes a determinism log as text to a stream.
class DeterminismLogWriter final : public DeterminismLog {
 public:
  explicit DeterminismLogWriter(std::ostream& out) : out_(out) {}
  void on_stage(uint64_t step, int collision_step, const char* stage, uint64_t hash) override;

 private:
  std::ostream& out_;
};

/// The first line where two logs differ, as "step S, collision step C, stage X: A has H1, B has
/// H2" (or where one ends first), nullopt when they are identical. An error names a line that
/// is not a log line ("SOURCE line N: …").
Result<std::optional<std::string>> first_difference(std::istream& a, std::string_view a_name,
                                                    std::istream& b, std::string_view b_name);

/// A StateStream that hashes what an object names instead of saving it (FNV-1a 64 over the
/// bits), for the determinism log.
class HashingStateStream final : public StateStream {
 public:
  explicit HashingStateStream(uint64_t hash = k_fnv1a_basis)
      : StateStream(Mode::save), hash_(hash) {}
  uint64_t hash() const { return hash_; }
  void floats(const char*, float* values, uint32_t count) override {
    hash_ = hash_bytes(values, 4 * size_t{count}, hash_);
  }
  void u32s(const char*, uint32_t* values, uint32_t count) override {
    hash_ = hash_bytes(values, 4 * size_t{count}, hash_);
  }
  void flag(const char*, bool& value) override {
    const uint8_t byte = value ? 1 : 0;
    hash_ = hash_bytes(&byte, 1, hash_);
  }
  void count(const char*, uint32_t& value, uint32_t) override {
    hash_ = hash_bytes(&value, 4, hash_);
  }
  void expect(const char*, uint32_t world_value) override {
    hash_ = hash_bytes(&world_value, 4, hash_);
  }

 private:
  uint64_t hash_;
};

}  // namespace atl
