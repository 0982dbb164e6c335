#pragma once
// Scalar helpers and deterministic trigonometry. libm's sin/cos/atan2 differ between platforms
// and library versions; these are our own polynomials in float, so that every platform computes
// the same bits (seed 004 §10).

#include <cmath>
#include <cstdint>
#include <limits>

namespace atl {

inline constexpr float k_pi = 3.14159265358979323846f;
inline constexpr float k_two_pi = 2.0f * k_pi;
inline constexpr float k_half_pi = 0.5f * k_pi;
inline constexpr float k_float_max = std::numeric_limits<float>::max();
inline constexpr float k_float_epsilon = std::numeric_limits<float>::epsilon();

/// x².
template <class T>
constexpr T square(T x) {
  return x * x;
}
/// x³.
template <class T>
constexpr T cubed(T x) {
  return x * x * x;
}
/// x limited to [lo, hi].
template <class T>
constexpr T clamp(T x, T lo, T hi) {
  return x < lo ? lo : (x > hi ? hi : x);
}
/// -1 for negative x, +1 otherwise (sign(0) = 1, as needed for stable perpendiculars).
template <class T>
constexpr T sign(T x) {
  return x < T(0) ? T(-1) : T(1);
}
/// Degrees to radians.
constexpr float degrees_to_radians(float degrees) { return degrees * (k_pi / 180.0f); }
/// Radians to degrees.
constexpr float radians_to_degrees(float radians) { return radians * (180.0f / k_pi); }
/// True for a power of two (and not 0).
constexpr bool is_power_of_2(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }
/// True when x is neither NaN nor infinite.
inline bool is_finite(float x) { return std::isfinite(x); }
/// Wraps an angle to [-π, π].
float center_angle_around_zero(float angle);

/// Deterministic sine (radians); |error| < 1e-6 against libm for |x| ≤ 1e4.
float sin(float x);
/// Deterministic cosine (radians).
float cos(float x);
/// Sine and cosine of x at once (one range reduction).
void sin_cos(float x, float& out_sin, float& out_cos);
/// Deterministic tangent.
float tan(float x);
/// Deterministic arcsine; x is clamped to [-1, 1].
float asin(float x);
/// Deterministic arccosine; x is clamped to [-1, 1].
float acos(float x);
/// Deterministic arctangent.
float atan(float x);
/// Deterministic two-argument arctangent, result in [-π, π].
float atan2(float y, float x);

}  // namespace atl
