// cast_shape, cast_ray and collide_point against closed-form answers.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "CollideTestUtil.h"
#include "atoll/collision/narrowphase/ShapeCast.h"
#include "atoll/collision/narrowphase/ShapeQueries.h"
#include "atoll/shape/BoxShape.h"
#include "atoll/shape/CapsuleShape.h"
#include "atoll/shape/ConvexHullShape.h"
#include "atoll/shape/ScaledShape.h"
#include "atoll/shape/SphereShape.h"
#include "atoll/shape/StaticCompoundShape.h"
#include "atoll/shape/TriangleMeshShape.h"

namespace atl::test {
namespace cast_shape_test {
namespace {

Ref<Shape> floor_box() { return make_ref<BoxShape>(Vec3(5, 0.5f, 5)); }
Mat44 floor_transform() { return Mat44::translation(Vec3(0, -0.5f, 0)); }

// Casts and expects the call to be accepted; returns whether io_result was updated.
bool cast(const Shape& shape, const Mat44& start, const Vec3& displacement, const Shape& target,
          const Mat44& target_transform, ShapeCastResult& io_result,
          const ShapeCastSettings& settings = {}) {
  const Result<bool> r =
      cast_shape(shape, start, displacement, target, target_transform, settings, io_result);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message());
  return r.ok() && *r;
}

TEST(CastShape, SphereOntoBoxHitsAtTheAnalyticFraction) {
  const Ref<Shape> sphere = make_ref<SphereShape>(0.5f);
  ShapeCastResult result;
  // The centre falls from y = 3 by 5 m; the sphere touches y = 0 when the centre is at 0.5.
  ASSERT_TRUE(cast(*sphere, Mat44::translation(Vec3(0.2f, 3, -0.4f)), Vec3(0, -5, 0), *floor_box(),
                   floor_transform(), result));
  EXPECT_TRUE(result.has_hit);
  EXPECT_NEAR(result.fraction, 0.5f, 1e-4f);
  EXPECT_TRUE(vec_near(result.normal, Vec3(0, -1, 0), 1e-4f));
  EXPECT_TRUE(vec_near(result.point_on_target, Vec3(0.2f, 0, -0.4f), 1e-3f));
  EXPECT_TRUE(vec_near(result.point_on_shape, Vec3(0.2f, 0, -0.4f), 1e-3f));
  EXPECT_EQ(result.penetration_depth, 0.0f);
}

TEST(CastShape, SlantedCastOntoAPlaneMeshHitsAtTheAnalyticFraction) {
  const Ref<Shape> plane = flat_grid(10).create().value();
  const Ref<Shape> sphere = make_ref<SphereShape>(0.25f);
  // From (2, 2.25, 3) along (4, -4, 2): y reaches 0.25 after half of it.
  ShapeCastResult result;
  ASSERT_TRUE(cast(*sphere, Mat44::translation(Vec3(2, 2.25f, 3)), Vec3(4, -4, 2), *plane, Mat44(),
                   result));
  EXPECT_NEAR(result.fraction, 0.5f, 1e-4f);
  EXPECT_TRUE(vec_near(result.normal, Vec3(0, -1, 0), 1e-4f));
  EXPECT_TRUE(vec_near(result.point_on_target, Vec3(4, 0, 4), 1e-3f));
  EXPECT_FALSE(result.sub_shape_id2.is_empty());
  EXPECT_TRUE(result.sub_shape_id1.is_empty());
}

TEST(CastShape, AHitAtTheVeryEndOfTheDisplacementCounts) {
  // LAWS.md B3: the shape ends flush with the target at fraction 1; the hit is kept.
  const Ref<Shape> sphere = make_ref<SphereShape>(0.5f);
  ShapeCastResult result;
  ASSERT_TRUE(cast(*sphere, Mat44::translation(Vec3(0, 3, 0)), Vec3(0, -2.5f, 0), *floor_box(),
                   floor_transform(), result));
  EXPECT_TRUE(result.has_hit);
  EXPECT_LE(result.fraction, 1.0f);
  EXPECT_GE(result.fraction, 1.0f - 1e-4f);
  // Against a sharp floor or a plane mesh the touch is at exactly fraction 1 (0.5 + 2.5 = 3
  // is exact in float), and it is reported.
  const Ref<Shape> sharp_floor = make_ref<BoxShape>(Vec3(5, 0.5f, 5), 0.0f);
  const Ref<Shape> plane = flat_grid(4).create().value();
  for (const Shape* target : {sharp_floor.get(), plane.get()}) {
    ShapeCastResult exact;
    const Mat44 transform = target == plane.get() ? Mat44() : floor_transform();
    ASSERT_TRUE(cast(*sphere, Mat44::translation(Vec3(1, 3, 1)), Vec3(0, -2.5f, 0), *target,
                     transform, exact));
    EXPECT_TRUE(exact.has_hit);
    EXPECT_EQ(exact.fraction, 1.0f);
    EXPECT_TRUE(vec_near(exact.point_on_target, Vec3(1, 0, 1), 1e-4f));
  }
  // Stopping 1 mm short of the floor is no hit.
  ShapeCastResult miss;
  EXPECT_FALSE(cast(*sphere, Mat44::translation(Vec3(0, 3, 0)), Vec3(0, -2.499f, 0), *floor_box(),
                    floor_transform(), miss));
  EXPECT_FALSE(miss.has_hit);
  EXPECT_EQ(miss.fraction, 1.0f);
}

// Records every hit.
class AllCastHits final : public ShapeCastCollector {
 public:
  void add_hit(const ShapeCastResult& hit) override { hits.push_back(hit); }
  std::vector<ShapeCastResult> hits;
};

TEST(CastShape, ACollectorSeesEveryLeafHitNotOnlyTheEarliest) {
  // A sphere sunk 5 cm into a floor mesh slides along it into a wall of the same mesh. The
  // earliest hit is the floor at fraction 0; a collector also gets the wall at 0.75 (what CCD
  // needs to ignore the floor it slides on and stop at the wall).
  TriangleMeshShapeSettings settings = flat_grid(4);
  const uint32_t first = static_cast<uint32_t>(settings.vertices.size());
  for (const Float3& v : {Float3{3, 0, 0}, Float3{3, 0, 4}, Float3{3, 2, 0}, Float3{3, 2, 4}})
    settings.vertices.push_back(v);
  settings.triangles.push_back({{first, first + 1, first + 2}, 0});
  settings.triangles.push_back({{first + 2, first + 1, first + 3}, 0});
  const Ref<Shape> mesh = settings.create().value();
  const Ref<Shape> sphere = make_ref<SphereShape>(0.5f);
  const Mat44 start = Mat44::translation(Vec3(1, 0.45f, 2));
  const Vec3 displacement(2, 0, 0);

  ShapeCastResult earliest;
  ASSERT_TRUE(cast(*sphere, start, displacement, *mesh, Mat44(), earliest));
  EXPECT_EQ(earliest.fraction, 0.0f);

  AllCastHits all;
  ASSERT_TRUE(cast_shape(*sphere, start, displacement, *mesh, Mat44(), {}, all).ok());
  // One hit per triangle reached: the floor triangles under the start, those entered later, and
  // the wall's.
  bool floor_at_start = false, wall = false;
  float earliest_of_all = 1.0f;
  for (const ShapeCastResult& hit : all.hits) {
    EXPECT_TRUE(hit.has_hit);
    EXPECT_GE(hit.fraction, 0.0f);
    EXPECT_LE(hit.fraction, 1.0f);
    earliest_of_all = std::min(earliest_of_all, hit.fraction);
    if (hit.fraction == 0.0f && vec_near(hit.normal, Vec3(0, -1, 0), 1e-3f) &&
        std::fabs(hit.penetration_depth - 0.05f) < 1e-4f)
      floor_at_start = true;
    if (std::fabs(hit.fraction - 0.75f) < 1e-4f && vec_near(hit.normal, Vec3(1, 0, 0), 1e-3f))
      wall = true;
  }
  EXPECT_TRUE(floor_at_start);
  EXPECT_TRUE(wall);
  EXPECT_EQ(earliest_of_all, earliest.fraction);
}

TEST(CastShape, BoxCastStartingInPenetrationReportsTheDepth) {
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(0.5f, 0.5f, 0.5f));
  ShapeCastResult result;
  ASSERT_TRUE(cast(*box, Mat44::translation(Vec3(0, 0.4f, 0)), Vec3(0, -1, 0), *floor_box(),
                   floor_transform(), result));
  EXPECT_EQ(result.fraction, 0.0f);
  EXPECT_TRUE(vec_near(result.normal, Vec3(0, -1, 0), 1e-4f));
  EXPECT_NEAR(result.penetration_depth, 0.1f, 1e-4f);
}

TEST(CastShape, EarliestHitOverSeveralTargetsIsKept) {
  const Ref<Shape> sphere = make_ref<SphereShape>(0.5f);
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(0.5f, 0.5f, 0.5f));
  ShapeCastResult result;
  const Mat44 start = Mat44::translation(Vec3(0, 0, 0));
  const Vec3 displacement(10, 0, 0);
  // Boxes whose near faces are at x = 6 and x = 3: the sphere touches them at 5.5 / 2.5.
  EXPECT_TRUE(
      cast(*sphere, start, displacement, *box, Mat44::translation(Vec3(6.5f, 0, 0)), result));
  EXPECT_NEAR(result.fraction, 0.55f, 1e-4f);
  EXPECT_TRUE(
      cast(*sphere, start, displacement, *box, Mat44::translation(Vec3(3.5f, 0, 0)), result));
  EXPECT_NEAR(result.fraction, 0.25f, 1e-4f);
  EXPECT_FALSE(
      cast(*sphere, start, displacement, *box, Mat44::translation(Vec3(8.5f, 0, 0)), result));
  EXPECT_NEAR(result.fraction, 0.25f, 1e-4f);
  EXPECT_TRUE(vec_near(result.normal, Vec3(1, 0, 0), 1e-4f));
}

TEST(CastShape, CompoundCastReportsTheChildThatHitsFirst) {
  StaticCompoundShapeSettings settings;
  const Ref<Shape> sphere = make_ref<SphereShape>(0.5f);
  settings.children.push_back({sphere, Vec3(0, 2, 0), Quat::identity()});
  settings.children.push_back({sphere, Vec3(1, 0, 0), Quat::identity()});
  const Ref<StaticCompoundShape> compound = settings.create_compound().value();
  ShapeCastResult result;
  ASSERT_TRUE(cast(*compound, Mat44::translation(Vec3(0, 3, 0)), Vec3(0, -4, 0), *floor_box(),
                   floor_transform(), result));
  // Child 1's centre is at y = 3 and must fall 2.5 m.
  EXPECT_NEAR(result.fraction, 2.5f / 4, 1e-4f);
  EXPECT_EQ(result.sub_shape_id1, SubShapeIDCreator().push(1, compound->sub_shape_id_bits()).id());
  EXPECT_TRUE(vec_near(result.point_on_target, Vec3(1, 0, 0), 1e-3f));
}

TEST(CastShape, TiltedBoxLandingOnTheGridHitsWithTheFaceNormal) {
  const Ref<Shape> plane = flat_grid(10).create().value();
  // A sharp box tilted so that a corner touches first, next to internal edges.
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(0.5f, 0.5f, 0.5f), 0.0f);
  const Mat44 start = Mat44::rotation_translation(Quat::rotation(Vec3(1, 0, 1).normalized(), 0.05f),
                                                  Vec3(5.0f, 2, 5.0f));
  ShapeCastResult result;
  ASSERT_TRUE(cast(*box, start, Vec3(0.3f, -3, 0), *plane, Mat44(), result));
  EXPECT_TRUE(vec_near(result.normal, Vec3(0, -1, 0), 1e-5f));
  EXPECT_NEAR(result.point_on_target.y(), 0.0f, 1e-4f);
  EXPECT_GT(result.fraction, 0.0f);
}

TEST(CastShape, MovingAwayFromAFrontFaceIsNoHit) {
  const Ref<Shape> plane = flat_grid(10).create().value();
  const Ref<Shape> sphere = make_ref<SphereShape>(0.5f);
  ShapeCastResult result;
  EXPECT_FALSE(
      cast(*sphere, Mat44::translation(Vec3(5, 0.45f, 5)), Vec3(0, 1, 0), *plane, Mat44(), result));
  // From below, coming up through the back face: no hit either.
  EXPECT_FALSE(
      cast(*sphere, Mat44::translation(Vec3(5, -2, 5)), Vec3(0, 4, 0), *plane, Mat44(), result));
}

TEST(CastShape, ScaledTargetAndMeshesThatCannotMove) {
  const Ref<Shape> unit = make_ref<BoxShape>(Vec3(1, 1, 1));
  const Ref<Shape> wide = ScaledShapeSettings{unit, Vec3(5, 0.5f, 5)}.create().value();
  const Ref<Shape> sphere = make_ref<SphereShape>(0.5f);
  ShapeCastResult result;
  ASSERT_TRUE(cast(*sphere, Mat44::translation(Vec3(0, 3, 0)), Vec3(0, -5, 0), *wide,
                   floor_transform(), result));
  EXPECT_NEAR(result.fraction, 0.5f, 1e-4f);
  // A mesh is static: casting it finds nothing.
  const Ref<Shape> plane = flat_grid(2).create().value();
  ShapeCastResult none;
  EXPECT_FALSE(cast(*plane, Mat44::translation(Vec3(0, 3, 0)), Vec3(0, -5, 0), *floor_box(),
                    floor_transform(), none));
}

TEST(CastShape, InvalidInputIsRejectedWithTheFieldName) {
  const Ref<Shape> sphere = make_ref<SphereShape>(0.5f);
  ShapeCastResult result;
  Result<bool> r = cast_shape(*sphere, Mat44(), Vec3(0, std::nanf(""), 0), *floor_box(),
                              floor_transform(), {}, result);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(std::string(r.error().message()), "cast_shape.displacement.y: must be finite, got nan");
  ShapeCastSettings settings;
  settings.collision_tolerance = 0;
  r = cast_shape(*sphere, Mat44(), Vec3(0, -1, 0), *floor_box(), floor_transform(), settings,
                 result);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(std::string(r.error().message()).find("ShapeCastSettings.collision_tolerance"),
            std::string::npos);
  r = cast_shape(*sphere, Mat44::scale(Vec3(1, 1, -1)), Vec3(0, -1, 0), *floor_box(),
                 floor_transform(), {}, result);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(std::string(r.error().message()).find("cast_shape.start"), std::string::npos);
  result.fraction = -1;
  r = cast_shape(*sphere, Mat44(), Vec3(0, -1, 0), *floor_box(), floor_transform(), {}, result);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(std::string(r.error().message()).find("ShapeCastResult.fraction"), std::string::npos);
}

TEST(ShapeQueries, CastRayInWorldSpace) {
  const Ref<Shape> box = make_ref<BoxShape>(Vec3(1, 2, 3));
  // Turned 90° about y: the box's local z (half extent 3) lies along world x.
  const Mat44 transform =
      Mat44::rotation_translation(Quat::rotation(Vec3::axis_y(), k_half_pi), Vec3(10, 0, 0));
  RayCastResult hit;
  Result<bool> r = cast_ray(*box, transform, Vec3(0, 0.5f, 0.2f), Vec3(20, 0, 0), hit);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(*r);
  EXPECT_NEAR(hit.fraction, 7.0f / 20, 1e-5f);
  // A farther hit does not replace it.
  r = cast_ray(*box, transform, Vec3(-10, 0.5f, 0.2f), Vec3(40, 0, 0), hit);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(*r);
  EXPECT_NEAR(hit.fraction, 7.0f / 20, 1e-5f);
  r = cast_ray(*box, transform, Vec3(0, 0, 0), Vec3(std::nanf(""), 0, 0), hit);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(std::string(r.error().message()).find("cast_ray.direction"), std::string::npos);
}

TEST(ShapeQueries, CollidePointInWorldSpace) {
  const Ref<Shape> capsule = make_ref<CapsuleShape>(1.0f, 0.5f);
  // Lying along x, centred at (0, 5, 0).
  const Mat44 transform =
      Mat44::rotation_translation(Quat::rotation(Vec3::axis_z(), k_half_pi), Vec3(0, 5, 0));
  EXPECT_TRUE(*collide_point(*capsule, transform, Vec3(1.4f, 5, 0)));
  EXPECT_FALSE(*collide_point(*capsule, transform, Vec3(0, 6.4f, 0)));
  EXPECT_TRUE(*collide_point(*capsule, transform, Vec3(0, 5.4f, 0)));
  const Result<bool> bad = collide_point(*capsule, transform * 2.0f, Vec3(0, 5, 0));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(std::string(bad.error().message()).find("collide_point.transform"), std::string::npos);
}

// Issue 7 item 11: a flat convex hull casts as a 2D shape (radius 0) and as a plate.
TEST(CastShape, FlatHullCastsOntoTheFloorAndIsHit) {
  ConvexHullShapeSettings settings;
  settings.points = {Vec3(-1, 0, -1), Vec3(1, 0, -1), Vec3(1, 0, 1), Vec3(-1, 0, 1)};
  for (const float radius : {0.0f, 0.05f}) {
    settings.max_convex_radius = radius;
    const Ref<Shape> plate = settings.create().value();
    ShapeCastResult result;
    // Tilted by 90° about x, the square stands on its edge: its lowest point is y = −1 (the
    // outline is the square whatever r).
    const Mat44 start =
        Mat44::rotation_translation(Quat::rotation(Vec3::axis_x(), 0.5f * k_pi), Vec3(0, 3, 0));
    ASSERT_TRUE(cast(*plate, start, Vec3(0, -4, 0), *floor_box(), floor_transform(), result));
    EXPECT_NEAR(result.fraction, 2.0f / 4.0f, 1e-4f) << radius;
    EXPECT_TRUE(vec_near(result.normal, Vec3(0, -1, 0), 1e-3f)) << radius;
    // A sphere dropped onto the lying plate stops on its top.
    const Ref<Shape> sphere = make_ref<SphereShape>(0.25f);
    ShapeCastResult onto;
    ASSERT_TRUE(cast(*sphere, Mat44::translation(Vec3(0.2f, 2, 0.1f)), Vec3(0, -4, 0), *plate,
                     Mat44(), onto));
    EXPECT_NEAR(onto.fraction, (2.0f - 0.25f - radius) / 4.0f, 1e-4f) << radius;
  }
}

}  // namespace
}  // namespace cast_shape_test
}  // namespace atl::test
