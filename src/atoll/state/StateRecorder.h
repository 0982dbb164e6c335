#pragma once
// A saved state of a world, as bytes (PhysicsSystem::save_state, restore_state): keep it in
// memory for a rollback, write it to a file or send it to another machine. The format is
// versioned and documented in docs/state-format.md: a header (magic, version, the parts it
// holds, the payload's length and checksum), then the fields every part names through
// core/StateStream.h, in order, little-endian.
//
// A state holds what the simulation changes (poses, velocities, forces, sleep tests, the
// contact cache with its impulses, the constraints' impulses and motor targets), not what the
// user set up (shapes, masses, friction, settings): it restores into the world it was saved
// from, or one built the same way (the same scene).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "atoll/core/Result.h"
#include "atoll/core/StateStream.h"

namespace atl {

/// The parts of a world's state, as bits.
enum class StateParts : uint32_t {
  none = 0,
  /// Gravity, the step count, the previous step's length (warm starts rescale by it) and the
  /// bodies CCD stopped in the last step.
  global = 1u << 0,
  /// Every moving body's pose, velocities, accumulated force and torque, activity, quarantine,
  /// sleep test, and its broadphase box.
  bodies = 1u << 1,
  /// The contact cache: last step's manifolds with their points and impulses.
  contacts = 1u << 2,
  /// Every constraint's enabled flag, impulses and motor state and targets.
  constraints = 1u << 3,
  all = (1u << 4) - 1,
};
constexpr StateParts operator|(StateParts a, StateParts b) {
  return StateParts(uint32_t(a) | uint32_t(b));
}
constexpr bool has_part(StateParts parts, StateParts part) {
  return (uint32_t(parts) & uint32_t(part)) != 0;
}

class StateRecorder {
 public:
  /// Version of the format this build writes and reads.
  static constexpr uint32_t k_version = 3;

  /// The saved state (empty before a save).
  const std::vector<uint8_t>& data() const { return data_; }
  /// Replaces the saved state, e.g. with bytes read from a file (checked when restored).
  void set_data(std::vector<uint8_t> data) { data_ = std::move(data); }
  void clear() { data_.clear(); }

  /// When validating, restore_state compares the world with the saved state instead of
  /// writing it, changes nothing, and fails at the first difference with a message that names
  /// it ("body b7 linear_velocity.y: saved 0.25, now 0.2500001"). Default off.
  void set_validating(bool validating) { validating_ = validating; }
  bool is_validating() const { return validating_; }

  // --- For the world's walk (state/WorldState.h) ---------------------------------------------

  /// Starts a save of `parts`: clears the data and returns the stream that appends the
  /// payload. Call finish_save after the walk.
  std::unique_ptr<StateStream> begin_save(StateParts parts);
  /// Bytes of the header before the payload.
  static constexpr size_t k_header_bytes = 28;
  /// Writes the header's payload length and checksum for the data as it is: after the walk of
  /// a save appended the payload (or after set_data of a hand-made one, as the fuzz target
  /// does).
  void finish_save();
  /// The parts a saved state holds, after checking its header and checksum; an error names
  /// what is wrong (not an Atoll state, another version, truncated, corrupted).
  Result<StateParts> check() const;
  /// A stream that reads the payload (check() first), restoring or validating.
  std::unique_ptr<StateStream> begin_read(StateStream::Mode mode) const;
  /// Bytes of the payload a reading stream has not read (its walk should leave none).
  static uint64_t unread_bytes(const StateStream& reader);

 private:
  std::vector<uint8_t> data_;
  bool validating_ = false;
};

}  // namespace atl
