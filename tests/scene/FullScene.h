#pragma once
// A scene that uses every key of the format at least once (every shape type, body field,
// generator, action and probe option), for the round-trip and documentation tests.

namespace atl::test {

inline constexpr const char* k_full_scene = R"({
  "description": "every key",
  "settings": {
    "dt": 0.01, "steps": 120, "collision_steps": 2, "gravity": [0.5, -9.5, 0.25],
    "velocity_steps": 8, "position_steps": 3, "baumgarte": 0.3, "warm_start": false,
    "penetration_slop": 0.01, "speculative_contact_distance": 0.03,
    "max_penetration_distance": 0.1, "contact_point_preserve_lambda_max_dist": 0.02,
    "contact_normal_cos_max_delta_rotation": 0.99, "manifold_tolerance": 0.002,
    "body_pair_cache_max_delta_position_sq": 2e-6,
    "body_pair_cache_cos_max_delta_rotation_div2": 0.9999, "linear_cast_threshold": 0.5,
    "linear_cast_max_penetration": 0.2, "time_before_sleep": 1.5,
    "point_velocity_sleep_threshold": 0.05, "allow_sleeping": false,
    "use_large_island_splitter": false, "deterministic_simulation": true,
    "min_velocity_for_restitution": 2, "use_friction": false,
    "use_position_solver_for_contacts": false
  },
  "shapes": {
    "crate": {"type": "box", "half_extent": [0.5, 0.25, 0.75], "convex_radius": 0.05,
              "density": 700},
    "ball": {"type": "sphere", "radius": 0.3, "density": 1200},
    "pill": {"type": "capsule", "half_height": 0.5, "radius": 0.2, "density": 900},
    "drum": {"type": "cylinder", "half_height": 0.4, "radius": 0.3, "convex_radius": 0.02,
             "density": 800},
    "gem": {"type": "convex_hull", "points": [[0, 1, 0], [1, 0, 0], [0, 0, 1], [-1, 0, -1],
            [0, -1, 0]], "convex_radius": 0.01, "density": 2000},
    "ramp": {"type": "mesh", "vertices": [[0, 0, 0], [4, 0, 0], [0, 0, 4], [4, 1, 4]],
             "triangles": [[0, 2, 1], [1, 2, 3]]},
    "hills": {"type": "heightfield", "sample_count": 3,
              "heights": [0, 0.5, 0, 0.25, 1, 0.25, 0, 0.5, 0], "offset": [-2, 0, -2],
              "scale": [2, 1.5, 2]},
    "dumbbell": {"type": "compound", "children": [
      {"shape": "ball", "position": [-0.5, 0, 0]},
      {"shape": "ball", "position": [0.5, 0, 0]},
      {"shape": {"type": "capsule", "half_height": 0.5, "radius": 0.05},
       "position": [0, 0, 0], "rotation": [0, 0, 0.70710677, 0.70710677]}]},
    "tilted": {"type": "rotated_translated", "shape": "drum", "position": [0, 0.5, 0],
               "rotation": [0.38268343, 0, 0, 0.9238795]},
    "flat": {"type": "scaled", "shape": "gem", "scale": [2, 0.5, -1]},
    "heavy_bottom": {"type": "offset_center_of_mass", "shape": "pill", "offset": [0, -0.3, 0]}
  },
  "bodies": [
    {"name": "ground", "shape": "hills", "position": [0, -1, 0], "motion": "static",
     "friction": 0.8, "restitution": 0.1, "object_layer": 0},
    {"name": "ramp", "shape": "ramp", "position": [5, 0, 0], "motion": "static"},
    {"name": "mover", "shape": {"type": "box", "half_extent": [1, 0.1, 1]},
     "position": [0, 3, 0], "rotation": [0, 0.6, 0, 0.8], "motion": "kinematic",
     "linear_velocity": [1, 0, 0], "angular_velocity": [0, 0.5, 0]},
    {"name": "hero", "shape": "dumbbell", "position": [1, 2, 3], "mass": 3.5, "friction": 0.4,
     "restitution": 0.6, "linear_velocity": [0, 1, 0], "angular_velocity": [0.1, 0.2, 0.3],
     "motion_quality": "linear_cast", "allow_sleeping": false, "sensor": false,
     "gravity_factor": 0.5, "linear_damping": 0.1, "angular_damping": 0.2,
     "max_linear_velocity": 50, "max_angular_velocity": 20, "object_layer": 1,
     "allowed_dofs": ["tx", "ty", "tz", "ry"]},
    {"name": "flat2d", "shape": "tilted", "position": [-3, 1, 0], "allowed_dofs": "plane_xy"},
    {"name": "trigger", "shape": "ball", "position": [0, 5, 0], "motion": "static",
     "sensor": true},
    {"name": "wobbly", "shape": "heavy_bottom", "position": [2, 1, -2], "allowed_dofs": "all"},
    {"name": "pebble", "shape": "flat", "position": [-2, 1, -2]}
  ],
  "generators": [
    {"type": "stack", "name": "s", "shape": "crate", "count": 4, "base": [-6, 0.25, 0],
     "gap": 0.01, "friction": 0.6},
    {"type": "pyramid", "name": "p", "shape": "crate", "layers": 3, "base": [6, 0.25, 6],
     "gap": 0.05},
    {"type": "grid", "name": "g", "shape": "pill", "counts": [2, 1, 2], "spacing": [1, 1, 1],
     "base": [0, 0.7, 8], "motion_quality": "linear_cast"},
    {"type": "pile", "name": "r", "shape": "ball", "count": 6, "min": [-2, 4, -2],
     "max": [2, 8, 2], "seed": 7, "random_rotation": true},
    {"type": "jolt_pyramid", "name": "j", "shape": "crate", "layers": 2,
     "allow_sleeping": false}
  ],
  "constraints": [],
  "events": [
    {"step": 1, "action": "add_force", "body": "hero", "force": [10, 0, 0]},
    {"step": 2, "action": "add_impulse", "body": "s0", "impulse": [0, 5, 0]},
    {"step": 3, "action": "add_torque", "body": "s1", "torque": [0, 0, 1]},
    {"step": 4, "action": "add_angular_impulse", "body": "s2", "angular_impulse": [1, 0, 0]},
    {"step": 5, "action": "set_linear_velocity", "body": "p0", "linear_velocity": [0, 0, 1]},
    {"step": 6, "action": "set_angular_velocity", "body": "p1", "angular_velocity": [0, 1, 0]},
    {"step": 7, "action": "set_motion_quality", "body": "g0", "value": "discrete"},
    {"step": 8, "action": "set_motion_type", "body": "g1", "value": "kinematic"},
    {"step": 9, "action": "activate", "body": "r0"},
    {"step": 10, "action": "deactivate", "body": "r1"},
    {"step": 11, "action": "remove", "body": "r2"},
    {"step": 12, "action": "move_kinematic", "body": "mover", "position": [1, 3, 0],
     "rotation": [0, 0, 0, 1]},
    {"step": 13, "action": "move_kinematic", "body": "mover", "position": [2, 3, 0]}
  ],
  "probes": [
    {"name": "wall", "type": "plane_crossing", "axis": "x", "value": 0},
    {"name": "floor", "type": "plane_crossing", "axis": "y", "value": -0.5,
     "bodies": ["hero", "s0"]},
    {"name": "back", "type": "plane_crossing", "axis": "z", "value": 10}
  ]
})";

}  // namespace atl::test
