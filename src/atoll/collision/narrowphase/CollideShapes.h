#pragma once
// Narrow-phase collision between two shapes: which pairs of leaves touch, with a contact
// manifold for each. Supported pairs:
//  - convex vs convex (GJK / EPA, face clipping, manifold reduction);
//  - convex vs TriangleMeshShape or HeightFieldShape (front faces only, active edges, manifolds
//    of nearly parallel normals merged), in either order;
//  - StaticCompoundShape vs anything and anything vs StaticCompoundShape (each child that
//    overlaps the other shape's bounds);
//  - decorators (RotatedTranslated, Scaled, OffsetCenterOfMass) around any of these.
// Mesh vs mesh, mesh vs height field and height field vs height field report nothing: those
// shapes are static only, so such pairs never need contacts.

#include "atoll/collision/narrowphase/CollideShapeSettings.h"
#include "atoll/collision/narrowphase/ContactCollector.h"
#include "atoll/shape/Shape.h"

namespace atl {

/// Collides `a` placed by `transform_a` with `b` placed by `transform_b` (rigid transforms,
/// world space) and sends every manifold to `collector`: normal from a to b, shape 1 = a. A
/// pair given as (mesh, convex) is handled as (convex, mesh) and flipped back. SubShapeIDs are
/// built as the shapes' ray casts build them. Fails, reporting nothing, when the settings are
/// invalid or a transform is not finite or not rigid.
Status collide_shapes(const Shape& a, const Mat44& transform_a, const Shape& b,
                      const Mat44& transform_b, const CollideShapeSettings& settings,
                      ContactCollector& collector);

/// collide_shapes without its checks of the settings and transforms, for a caller whose inputs
/// are valid by construction: the world's narrow phase (settings validated when set, rigid body
/// transforms from unit quaternions). Checked, every pair of a step paid for the same proofs
/// again (3 % of convex_vs_mesh's step); an assertion of them cost as much again in the release
/// build, which keeps assertions on (5 % of convex_vs_mesh's instructions), so there is none.
void collide_shapes_unchecked(const Shape& a, const Mat44& transform_a, const Shape& b,
                              const Mat44& transform_b, const CollideShapeSettings& settings,
                              ContactCollector& collector);

}  // namespace atl
