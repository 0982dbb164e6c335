#pragma once
// A handle to a body: 24-bit slot index + 8-bit sequence number. The sequence number is bumped
// every time a slot is reused, so an ID kept after its body was destroyed is detected as stale
// by the BodyManager instead of silently naming the body that took the slot.

#include <compare>
#include <cstdint>

namespace atl {

class BodyID {
 public:
  /// Raw value of the invalid ID (index 0xffffff, sequence 0xff: never handed out).
  static constexpr uint32_t k_invalid_value = 0xffffffffu;
  /// Bits of the value that hold the slot index.
  static constexpr uint32_t k_index_bits = 24;
  static constexpr uint32_t k_index_mask = (1u << k_index_bits) - 1u;
  /// Largest slot index a body can have (0xffffff is reserved for the invalid ID).
  static constexpr uint32_t k_max_index = k_index_mask - 1u;

  /// The invalid ID.
  constexpr BodyID() = default;
  /// An ID from its raw 32-bit value (as stored in files or user data).
  constexpr explicit BodyID(uint32_t value) : value_(value) {}
  /// An ID from a slot index (≤ k_max_index) and a sequence number.
  constexpr BodyID(uint32_t index, uint8_t sequence)
      : value_((uint32_t(sequence) << k_index_bits) | (index & k_index_mask)) {}

  /// Slot index in the BodyManager.
  constexpr uint32_t index() const { return value_ & k_index_mask; }
  /// Sequence number of the slot when the body was created.
  constexpr uint8_t sequence() const { return uint8_t(value_ >> k_index_bits); }
  /// Raw 32-bit value.
  constexpr uint32_t value() const { return value_; }
  /// False for the default-constructed (invalid) ID. A valid-looking ID may still be stale.
  constexpr bool is_valid() const { return value_ != k_invalid_value; }

  constexpr bool operator==(const BodyID&) const = default;
  /// Orders by raw value (sequence first), a stable order for sorted containers.
  constexpr auto operator<=>(const BodyID&) const = default;

 private:
  uint32_t value_ = k_invalid_value;
};

static_assert(sizeof(BodyID) == 4);

}  // namespace atl
