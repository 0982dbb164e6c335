#pragma once
// FNV-1a 64-bit hashing: simple, stable across platforms and runs (used for state hashes).

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace atl {

/// FNV-1a 64 offset basis: the hash of nothing.
inline constexpr uint64_t k_fnv1a_basis = 0xcbf29ce484222325ull;
inline constexpr uint64_t k_fnv1a_prime = 0x100000001b3ull;

/// Continues an FNV-1a 64 hash over `size` bytes.
inline uint64_t hash_bytes(const void* data, size_t size, uint64_t hash = k_fnv1a_basis) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < size; ++i) {
    hash ^= bytes[i];
    hash *= k_fnv1a_prime;
  }
  return hash;
}

/// FNV-1a 64 of a string.
constexpr uint64_t hash_string(std::string_view text, uint64_t hash = k_fnv1a_basis) {
  for (char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= k_fnv1a_prime;
  }
  return hash;
}

/// Continues a hash over the bits of a float (so that -0 and +0, and NaN payloads, differ).
inline uint64_t hash_float(float value, uint64_t hash) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  for (int i = 0; i < 4; ++i) {
    hash ^= (bits >> (8 * i)) & 0xffu;
    hash *= k_fnv1a_prime;
  }
  return hash;
}

/// Continues a hash over a 64-bit value, byte by byte from the lowest (platform independent).
constexpr uint64_t hash_combine(uint64_t hash, uint64_t value) {
  for (int i = 0; i < 8; ++i) {
    hash ^= (value >> (8 * i)) & 0xffu;
    hash *= k_fnv1a_prime;
  }
  return hash;
}

}  // namespace atl
