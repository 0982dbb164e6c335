#include "atoll/math/Math.h"

#include <cmath>

namespace atl {

namespace {

// Cody-Waite split of π/4 so that x - j·π/4 loses no precision for |x| < ~8192.
constexpr float k_four_over_pi = 1.27323954473516f;
// Arguments from here on are reduced modulo 2π before the octant is taken (see reduce()).
constexpr float k_reduce_limit = 1.0e9f;
constexpr float k_dp1 = 0.78515625f;
constexpr float k_dp2 = 2.4187564849853515625e-4f;
constexpr float k_dp3 = 3.77489497744594108e-8f;

// Minimax polynomials on [-π/4, π/4] (Cephes single-precision coefficients).
inline float sin_poly(float x, float z) {
  return ((-1.9515295891e-4f * z + 8.3321608736e-3f) * z - 1.6666654611e-1f) * z * x + x;
}
inline float cos_poly(float z) {
  return ((2.443315711809948e-5f * z - 1.388731625493765e-3f) * z + 4.166664568298827e-2f) * z * z -
         0.5f * z + 1.0f;
}

// Reduces |x| to r in [-π/4, π/4] and octant j in {0, 2, 4, 6} (always even).
inline float reduce(float abs_x, int& octant) {
  // From 2^31·π/4 on the octant does not fit an int (converting it was undefined behaviour):
  // reduce modulo 2π first (fmod is exact, so the result stays the same on every platform).
  // Below the limit nothing changes. NaN and ±∞ give NaN.
  if (!(abs_x < k_reduce_limit)) {
    abs_x = std::fmod(abs_x, k_two_pi);
    if (std::isnan(abs_x)) {
      octant = 0;
      return abs_x;
    }
  }
  int j = static_cast<int>(k_four_over_pi * abs_x);
  float y = static_cast<float>(j);
  if ((j & 1) != 0) {
    ++j;
    y += 1.0f;
  }
  octant = j & 7;
  return ((abs_x - y * k_dp1) - y * k_dp2) - y * k_dp3;
}

}  // namespace

void sin_cos(float x, float& out_sin, float& out_cos) {
  const float abs_x = std::fabs(x);
  int octant;
  const float r = reduce(abs_x, octant);
  const float z = r * r;
  const float s = sin_poly(r, z);
  const float c = cos_poly(z);
  // Octant 0: (s, c); 2: (c, -s); 4: (-s, -c); 6: (-c, s).
  float sv, cv;
  switch (octant) {
    case 0:
      sv = s;
      cv = c;
      break;
    case 2:
      sv = c;
      cv = -s;
      break;
    case 4:
      sv = -s;
      cv = -c;
      break;
    default:
      sv = -c;
      cv = s;
      break;
  }
  out_sin = x < 0.0f ? -sv : sv;
  out_cos = cv;
}

float sin(float x) {
  float s, c;
  sin_cos(x, s, c);
  return s;
}

float cos(float x) {
  float s, c;
  sin_cos(x, s, c);
  return c;
}

float tan(float x) {
  const float abs_x = std::fabs(x);
  int octant;
  const float r = reduce(abs_x, octant);
  const float zz = r * r;
  float y = r;
  if (std::fabs(r) > 1e-4f) {
    y = (((((9.38540185543e-3f * zz + 3.11992232697e-3f) * zz + 2.44301354525e-2f) * zz +
           5.34112807005e-2f) *
              zz +
          1.33387994085e-1f) *
             zz +
         3.33331568548e-1f) *
            zz * r +
        r;
  }
  if ((octant & 2) != 0) y = -1.0f / y;
  return x < 0.0f ? -y : y;
}

float asin(float x) {
  float a = std::fabs(x);
  if (a > 1.0f) a = 1.0f;
  float z, v;
  const bool flag = a > 0.5f;
  if (flag) {
    z = 0.5f * (1.0f - a);
    v = std::sqrt(z);
  } else {
    v = a;
    z = a * a;
  }
  float result = v;
  if (v >= 1e-4f) {
    result = ((((4.2163199048e-2f * z + 2.4181311049e-2f) * z + 4.5470025998e-2f) * z +
               7.4953002686e-2f) *
                  z +
              1.6666752422e-1f) *
                 z * v +
             v;
  }
  if (flag) result = k_half_pi - (result + result);
  return x < 0.0f ? -result : result;
}

float acos(float x) {
  x = clamp(x, -1.0f, 1.0f);
  // Near ±1 use the half-angle form so that small results keep their precision.
  if (x < -0.5f) return k_pi - 2.0f * asin(std::sqrt(0.5f * (1.0f + x)));
  if (x > 0.5f) return 2.0f * asin(std::sqrt(0.5f * (1.0f - x)));
  return k_half_pi - asin(x);
}

float atan(float x) {
  float a = std::fabs(x);
  float base;
  if (a > 2.414213562373095f) {
    base = k_half_pi;
    a = -1.0f / a;
  } else if (a > 0.4142135623730950f) {
    base = 0.25f * k_pi;
    a = (a - 1.0f) / (a + 1.0f);
  } else {
    base = 0.0f;
  }
  const float z = a * a;
  const float y =
      base + ((((8.05374449538e-2f * z - 1.38776856032e-1f) * z + 1.99777106478e-1f) * z -
               3.33329491539e-1f) *
                  z * a +
              a);
  return x < 0.0f ? -y : y;
}

float atan2(float y, float x) {
  if (x == 0.0f) {
    if (y > 0.0f) return k_half_pi;
    if (y < 0.0f) return -k_half_pi;
    return std::signbit(x) ? (std::signbit(y) ? -k_pi : k_pi) : y;
  }
  // Work with the smaller ratio to keep atan's argument ≤ 1 in magnitude.
  float result;
  if (std::fabs(y) <= std::fabs(x)) {
    result = atan(y / x);
    if (x < 0.0f) result += std::signbit(y) ? -k_pi : k_pi;
  } else {
    result = (y > 0.0f ? k_half_pi : -k_half_pi) - atan(x / y);
  }
  return result;
}

float center_angle_around_zero(float angle) {
  if (angle < -k_pi || angle > k_pi) {
    angle = std::fmod(angle + k_pi, k_two_pi);
    if (angle < 0.0f) angle += k_two_pi;
    angle -= k_pi;
  }
  return angle;
}

}  // namespace atl
