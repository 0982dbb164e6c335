#include "atoll/collision/narrowphase/TriangleFeature.h"

#include "atoll/shape/ActiveEdges.h"

namespace atl {

uint8_t swap_winding_edges(uint8_t active_edges) {
  uint8_t result = active_edges & k_active_edge_12;
  if (active_edges & k_active_edge_01) result |= k_active_edge_20;
  if (active_edges & k_active_edge_20) result |= k_active_edge_01;
  return result;
}

bool on_active_triangle_feature(const Vec3& v0, const Vec3& v1, const Vec3& v2,
                                uint8_t active_edges, const Vec3& point) {
  if (active_edges == 0) return false;
  // Barycentric weights (u, v, w) of v0, v1, v2 by projection onto the triangle's plane.
  const Vec3 e1 = v1 - v0, e2 = v2 - v0, p = point - v0;
  const float d11 = e1.dot(e1), d12 = e1.dot(e2), d22 = e2.dot(e2);
  const float dp1 = p.dot(e1), dp2 = p.dot(e2);
  const float denominator = d11 * d22 - d12 * d12;
  if (!(denominator > 0.0f)) return false;
  const float v = (d22 * dp1 - d12 * dp2) / denominator;
  const float w = (d11 * dp2 - d12 * dp1) / denominator;
  const float u = 1.0f - v - w;
  constexpr float k_one_minus = 1.0f - k_triangle_feature_epsilon;
  uint8_t touched;
  if (u > k_one_minus)
    touched = k_active_edge_01 | k_active_edge_20;  // vertex 0
  else if (v > k_one_minus)
    touched = k_active_edge_01 | k_active_edge_12;  // vertex 1
  else if (w > k_one_minus)
    touched = k_active_edge_12 | k_active_edge_20;  // vertex 2
  else if (u < k_triangle_feature_epsilon)
    touched = k_active_edge_12;
  else if (v < k_triangle_feature_epsilon)
    touched = k_active_edge_20;
  else if (w < k_triangle_feature_epsilon)
    touched = k_active_edge_01;
  else
    return false;  // interior
  return (touched & active_edges) != 0;
}

Vec3 active_edge_normal(const Vec3& v0, const Vec3& v1, const Vec3& v2, uint8_t active_edges,
                        const Vec3& face_normal, const Vec3& point, const Vec3& normal,
                        float cone_cos) {
  if (active_edges == k_active_edge_all || -normal.dot(face_normal) >= cone_cos) return normal;
  return on_active_triangle_feature(v0, v1, v2, active_edges, point) ? normal : -face_normal;
}

}  // namespace atl
