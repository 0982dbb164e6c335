#pragma once
// Turns the single deepest point pair of GJK/EPA into a contact manifold: the supporting faces
// of both shapes are clipped against each other along the contact normal, and the resulting
// point pairs are reduced to at most k_max_manifold_points.

#include "atoll/collision/ContactManifold.h"
#include "atoll/shape/ConvexShape.h"

namespace atl {

/// Most point pairs held before reduction: two clipped faces can give up to 64 points.
inline constexpr size_t k_max_contact_points = 64;

/// Point pairs of a manifold under construction (any space, but both arrays in the same one).
struct ContactPoints {
  /// Points on shape 1 (m).
  StaticArray<Vec3, k_max_contact_points> on_1;
  /// Points on shape 2 (m), pairwise with on_1.
  StaticArray<Vec3, k_max_contact_points> on_2;

  /// Number of pairs.
  size_t size() const { return on_1.size(); }
  /// Appends a pair; asserts capacity.
  void push_back(const Vec3& p1, const Vec3& p2) {
    on_1.push_back(p1);
    on_2.push_back(p2);
  }
};

/// Appends the manifold points of two touching faces. `face1` is shape 1's supporting face
/// along `normal` (unit, from shape 1 to shape 2) and `face2` shape 2's along -normal, both in
/// the same space, counter-clockwise or not. Face 2 is clipped against face 1 (polygon vs
/// polygon, polygon vs edge, edge vs polygon, or parallel edges); clipped points of face 2 at
/// most `max_separation` (m) in front of face 1's plane are kept, paired with their projection
/// along the normal onto face 1's plane. When no point results (a point-like face, faces at
/// right angles, nothing within range) the pair (point_on_1, point_on_2) is appended instead.
void manifold_between_faces(const Vec3& point_on_1, const Vec3& point_on_2, const Vec3& normal,
                            float max_separation, const SupportingFace& face1,
                            const SupportingFace& face2, ContactPoints& io_points);

/// Reduces `io_points` to at most k_max_manifold_points pairs, deterministically: the deepest
/// pair along `normal` (unit, from shape 1 to shape 2; among pairs within 0.1 mm of the
/// deepest, the one farthest from the centroid), the one farthest from it, the one that
/// maximises the triangle area with those two, then the one that maximises the area of the
/// quadrilateral (convex hull of the four). Other ties go to the earlier pair. Fewer pairs
/// are kept as they are.
void reduce_manifold(ContactPoints& io_points, const Vec3& normal);

}  // namespace atl
