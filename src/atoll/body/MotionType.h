#pragma once
// How a body moves.

#include <cstdint>

namespace atl {

/// How a body moves. Values are stable: they are serialized.
enum class MotionType : uint8_t {
  /// Never moves (unless teleported); infinite mass; never active.
  Static = 0,
  /// Moved by its velocity only, which the user sets (e.g. through move_kinematic); pushes
  /// dynamic bodies but is not pushed; infinite mass.
  Kinematic = 1,
  /// Moved by forces, gravity and contacts.
  Dynamic = 2,
};

/// Lower-case name ("static", "kinematic", "dynamic"), as used in scene files and errors.
constexpr const char* motion_type_name(MotionType type) {
  switch (type) {
    case MotionType::Static:
      return "static";
    case MotionType::Kinematic:
      return "kinematic";
    case MotionType::Dynamic:
      return "dynamic";
  }
  return "invalid";
}

}  // namespace atl
