#include "atoll/shape/HeightFieldShape.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "atoll/geometry/RayIntersections.h"
#include "atoll/shape/Validation.h"

namespace atl {

namespace {

/// Largest sample count whose triangle indices, 2·(n − 1)², fit a 31-bit SubShapeID.
constexpr uint32_t k_max_sample_count = 32768;

std::string field(const std::string& path) { return "HeightFieldShapeSettings." + path; }

Vec3 triangle_normal(const Vec3 v[3]) {
  return (v[1] - v[0]).cross(v[2] - v[0]).normalized_or(Vec3::axis_y());
}

/// Cell index range [begin, end) along one axis covering local coordinates [lo, hi] with one
/// cell of margin; NaN-safe (a NaN bound clamps to the grid).
void axis_cell_range(float lo, float hi, float offset, float spacing, uint32_t cells,
                     uint32_t& begin, uint32_t& end) {
  const float last = static_cast<float>(cells - 1);
  float first = std::floor((lo - offset) / spacing) - 1.0f;
  float final = std::floor((hi - offset) / spacing) + 1.0f;
  if (!(first >= 0.0f)) first = 0.0f;
  if (!(first <= last)) first = last;
  if (!(final >= 0.0f)) final = 0.0f;
  if (!(final <= last)) final = last;
  begin = static_cast<uint32_t>(first);
  end = static_cast<uint32_t>(final) + 1;
}

}  // namespace

Result<Ref<HeightFieldShape>> HeightFieldShapeSettings::create_height_field() const {
  if (sample_count < 2)
    return field_error(field("sample_count"), "must be >= 2, got " + std::to_string(sample_count));
  if (sample_count > k_max_sample_count)
    return field_error(field("sample_count"), "must be <= " + std::to_string(k_max_sample_count) +
                                                  ", got " + std::to_string(sample_count));
  const size_t num_samples = size_t{sample_count} * sample_count;
  if (heights.size() != num_samples)
    return field_error(field("heights"),
                       "must hold sample_count^2 = " + std::to_string(num_samples) +
                           " values, got " + std::to_string(heights.size()));
  if (auto error = check_positive(field("scale"), scale)) return *error;
  if (auto error = check_finite(field("offset"), offset)) return *error;
  const uint32_t cells = sample_count - 1;
  if (!is_finite(offset.x() + scale.x() * static_cast<float>(cells)))
    return field_error(field("scale.x"),
                       "the grid's extent overflows a float, got " + format_float(scale.x()));
  if (!is_finite(offset.z() + scale.z() * static_cast<float>(cells)))
    return field_error(field("scale.z"),
                       "the grid's extent overflows a float, got " + format_float(scale.z()));
  for (size_t i = 0; i < num_samples; ++i) {
    const float h = heights[i];
    if (h == k_no_collision) continue;
    const std::string name = field("heights[" + std::to_string(i) + "]");
    if (!is_finite(h))
      return field_error(name, "must be finite or k_no_collision, got " + format_float(h));
    if (!is_finite(offset.y() + scale.y() * h))
      return field_error(name,
                         "offset.y + scale.y * height overflows a float, got " + format_float(h));
  }
  if (!material_indices.empty() && material_indices.size() != size_t{cells} * cells)
    return field_error(
        field("material_indices"),
        "must be empty or hold (sample_count - 1)^2 = " + std::to_string(size_t{cells} * cells) +
            " values, got " + std::to_string(material_indices.size()));
  if (!(active_edge_cos_threshold >= -1.0f && active_edge_cos_threshold <= 1.0f))
    return field_error(field("active_edge_cos_threshold"),
                       "must be in [-1, 1], got " + format_float(active_edge_cos_threshold));
  bool any_triangle = false;
  for (uint32_t z = 0; z < cells && !any_triangle; ++z) {
    for (uint32_t x = 0; x < cells && !any_triangle; ++x) {
      auto solid = [&](uint32_t sx, uint32_t sz) {
        return heights[size_t{sz} * sample_count + sx] != k_no_collision;
      };
      // Both triangles of a cell contain the diagonal (x, z)–(x + 1, z + 1).
      any_triangle = solid(x, z) && solid(x + 1, z + 1) && (solid(x, z + 1) || solid(x + 1, z));
    }
  }
  if (!any_triangle)
    return field_error(field("heights"), "holes leave no triangle (every cell touches a hole)");
  return Ref<HeightFieldShape>(new HeightFieldShape(*this));
}

Result<Ref<Shape>> HeightFieldShapeSettings::create() const {
  Result<Ref<HeightFieldShape>> height_field = create_height_field();
  if (!height_field.ok()) return height_field.error();
  return Ref<Shape>(std::move(height_field).value());
}

HeightFieldShape::HeightFieldShape(const HeightFieldShapeSettings& settings)
    : Shape(ShapeType::HeightField, ShapeSubType::HeightField),
      heights_(settings.heights),
      material_indices_(settings.material_indices),
      sample_count_(settings.sample_count),
      offset_(settings.offset),
      scale_(settings.scale) {
  const uint32_t cells = cell_count();
  id_bits_ = atl::sub_shape_id_bits(2 * cells * cells);
  float min_height = k_float_max;
  float max_height = -k_float_max;
  for (const float h : heights_) {
    if (h == k_no_collision) continue;
    min_height = std::min(min_height, h);
    max_height = std::max(max_height, h);
  }
  // Built from sample_position() so that every vertex lies inside the bounds bit for bit.
  const float far = static_cast<float>(cells);
  bounds_ = AABox(offset_ + scale_ * Vec3(0.0f, min_height, 0.0f),
                  offset_ + scale_ * Vec3(far, max_height, far));
  compute_active_edges(settings.active_edge_cos_threshold);
}

bool HeightFieldShape::triangle_vertices(uint32_t x, uint32_t z, uint32_t which,
                                         Vec3 out_vertices[3]) const {
  ATOLL_ASSERT(x < cell_count() && z < cell_count() && which < 2);
  // Corners: a = (x, z), b = (x + 1, z), c = (x, z + 1), d = (x + 1, z + 1);
  // triangle 0 is (a, c, d), triangle 1 is (a, d, b).
  const uint32_t x2 = which == 0 ? x : x + 1;
  const uint32_t z2 = which == 0 ? z + 1 : z;
  if (is_hole(x, z) || is_hole(x + 1, z + 1) || is_hole(x2, z2)) return false;
  out_vertices[0] = sample_position(x, z);
  if (which == 0) {
    out_vertices[1] = sample_position(x2, z2);
    out_vertices[2] = sample_position(x + 1, z + 1);
  } else {
    out_vertices[1] = sample_position(x + 1, z + 1);
    out_vertices[2] = sample_position(x2, z2);
  }
  return true;
}

void HeightFieldShape::compute_active_edges(float cos_threshold) {
  const uint32_t cells = cell_count();
  active_edges_.assign(size_t{cells} * cells, 0);
  struct Neighbour {
    int dx;
    int dz;
    uint32_t which;
  };
  // The triangle across each edge, in triangle_vertices() edge order (see the corner names
  // there): triangle 0 edges a–c, c–d, d–a; triangle 1 edges a–d, d–b, b–a.
  static constexpr Neighbour k_neighbours[2][3] = {
      {{-1, 0, 1}, {0, 1, 1}, {0, 0, 1}},
      {{0, 0, 0}, {1, 0, 0}, {0, -1, 0}},
  };
  for (uint32_t z = 0; z < cells; ++z) {
    for (uint32_t x = 0; x < cells; ++x) {
      uint8_t mask = 0;
      for (uint32_t which = 0; which < 2; ++which) {
        Vec3 v[3];
        if (!triangle_vertices(x, z, which, v)) continue;
        const Vec3 normal = triangle_normal(v);
        for (uint32_t e = 0; e < 3; ++e) {
          const Neighbour& n = k_neighbours[which][e];
          const int64_t nx = int64_t{x} + n.dx;
          const int64_t nz = int64_t{z} + n.dz;
          Vec3 w[3];
          // Edges on the grid's border or next to a hole have no neighbour: active.
          const bool active = nx < 0 || nz < 0 || nx >= cells || nz >= cells ||
                              !triangle_vertices(static_cast<uint32_t>(nx),
                                                 static_cast<uint32_t>(nz), n.which, w) ||
                              is_edge_active(normal, triangle_normal(w), cos_threshold);
          if (active) mask |= static_cast<uint8_t>(1u << (3 * which + e));
        }
      }
      active_edges_[size_t{z} * cells + x] = mask;
    }
  }
}

bool HeightFieldShape::cell_range(const AABox& box, uint32_t& x_begin, uint32_t& x_end,
                                  uint32_t& z_begin, uint32_t& z_end) const {
  if (!bounds_.overlaps(box)) return false;
  const uint32_t cells = cell_count();
  axis_cell_range(box.min.x(), box.max.x(), offset_.x(), scale_.x(), cells, x_begin, x_end);
  axis_cell_range(box.min.z(), box.max.z(), offset_.z(), scale_.z(), cells, z_begin, z_end);
  return x_begin < x_end && z_begin < z_end;
}

bool HeightFieldShape::cast_ray(const RayCast& ray, const SubShapeIDCreator& creator,
                                RayCastResult& hit) const {
  const Vec3& origin = ray.origin;
  const Vec3& direction = ray.direction;
  const Vec3 inv_direction = direction.reciprocal();
  const float t_enter = bounds_.ray_fraction(origin, inv_direction, hit.fraction);
  if (t_enter == k_float_max) return false;
  // Where the ray leaves the bounds: no cell past it can be hit.
  float t_leave = hit.fraction;
  for (int a = 0; a < 3; ++a) {
    if (std::isinf(inv_direction[a])) continue;
    const float t1 = (bounds_.min[a] - origin[a]) * inv_direction[a];
    const float t2 = (bounds_.max[a] - origin[a]) * inv_direction[a];
    t_leave = std::min(t_leave, std::max(t1, t2));
  }

  // Amanatides–Woo grid walk over the cells in x and z, in the order the ray crosses them.
  const int64_t cells = cell_count();
  const Vec3 start = origin + direction * t_enter;
  auto start_cell = [cells](float p, float offset, float spacing) {
    const float c = std::floor((p - offset) / spacing);
    if (!(c > 0.0f)) return int64_t{0};  // also catches NaN
    return c >= static_cast<float>(cells - 1) ? cells - 1 : static_cast<int64_t>(c);
  };
  int64_t cx = start_cell(start.x(), offset_.x(), scale_.x());
  int64_t cz = start_cell(start.z(), offset_.z(), scale_.z());
  const int step_x = std::isinf(inv_direction.x()) ? 0 : (direction.x() > 0.0f ? 1 : -1);
  const int step_z = std::isinf(inv_direction.z()) ? 0 : (direction.z() > 0.0f ? 1 : -1);
  // Fraction at which the ray crosses the next cell border along one axis; recomputed from
  // the cell index each time (the same formula as the sample positions) so no error builds up.
  auto next_crossing = [&](int step, int64_t cell, int axis) {
    if (step == 0) return k_float_max;
    const float border = offset_[axis] + scale_[axis] * static_cast<float>(cell + (step > 0));
    return (border - origin[axis]) * inv_direction[axis];
  };

  float t = t_enter;
  uint32_t best = UINT32_MAX;
  float best_fraction = hit.fraction;
  for (int64_t steps = 0; steps <= 2 * cells + 1; ++steps) {
    const float t_next_x = next_crossing(step_x, cx, 0);
    const float t_next_z = next_crossing(step_z, cz, 2);
    const float t_exit = std::min(std::min(t_next_x, t_next_z), t_leave);
    const uint32_t x = static_cast<uint32_t>(cx);
    const uint32_t z = static_cast<uint32_t>(cz);

    // Skip the triangle tests when the ray passes entirely above or below the cell's samples
    // (with a relative margin for the rounding of the two heights).
    float cell_min = k_float_max;
    float cell_max = -k_float_max;
    for (uint32_t corner = 0; corner < 4; ++corner) {
      const uint32_t sx = x + (corner & 1u);
      const uint32_t sz = z + (corner >> 1);
      if (is_hole(sx, sz)) continue;
      const float y = sample_position(sx, sz).y();
      cell_min = std::min(cell_min, y);
      cell_max = std::max(cell_max, y);
    }
    const float y0 = origin.y() + direction.y() * t;
    const float y1 = origin.y() + direction.y() * std::min(t_exit, best_fraction);
    const float margin =
        1.0e-5f * (std::fabs(y0) + std::fabs(y1) + std::fabs(cell_min) + std::fabs(cell_max)) +
        1.0e-6f;
    if (cell_min <= cell_max && std::min(y0, y1) <= cell_max + margin &&
        std::max(y0, y1) >= cell_min - margin) {
      for (uint32_t which = 0; which < 2; ++which) {
        Vec3 v[3];
        if (!triangle_vertices(x, z, which, v)) continue;
        const float f = ray_triangle(origin, direction, v[0], v[1], v[2]);
        if (f < best_fraction) {
          best_fraction = f;
          best = 2 * (z * static_cast<uint32_t>(cells) + x) + which;
        }
      }
    }
    // Cells are visited in ray order, so a later cell cannot hold a closer hit.
    if (t_exit >= std::min(best_fraction, t_leave)) break;
    if (t_next_x < t_next_z) {
      cx += step_x;
      t = t_next_x;
    } else {
      cz += step_z;
      t = t_next_z;
    }
    if (cx < 0 || cx >= cells || cz < 0 || cz >= cells) break;
  }
  if (best == UINT32_MAX) return false;
  hit.fraction = best_fraction;
  hit.sub_shape_id = creator.push(best, id_bits_).id();
  return true;
}

uint32_t HeightFieldShape::triangle_index(const SubShapeID& id) const {
  SubShapeID remainder;
  const uint32_t index = id.pop(id_bits_, remainder);
  ATOLL_ASSERT(index < num_triangles(), "SubShapeID does not name a triangle of this height field");
  return index;
}

void HeightFieldShape::triangle_cell(const SubShapeID& id, uint32_t& out_x, uint32_t& out_z,
                                     uint32_t& out_which) const {
  const uint32_t index = triangle_index(id);
  const uint32_t cell = index / 2;
  out_x = cell % cell_count();
  out_z = cell / cell_count();
  out_which = index % 2;
}

void HeightFieldShape::triangle(const SubShapeID& id, Vec3 out_vertices[3]) const {
  uint32_t x, z, which;
  triangle_cell(id, x, z, which);
  const bool exists = triangle_vertices(x, z, which, out_vertices);
  ATOLL_ASSERT(exists, "SubShapeID names a triangle in a hole");
  (void)exists;
}

Vec3 HeightFieldShape::surface_normal(const SubShapeID& id, const Vec3& /*local_point*/) const {
  Vec3 v[3];
  triangle(id, v);
  return triangle_normal(v);
}

uint32_t HeightFieldShape::material_index(const SubShapeID& id) const {
  if (material_indices_.empty()) return 0;
  return material_indices_[triangle_index(id) / 2];
}

}  // namespace atl
