#pragma once
// What the field tables (scene/FieldTable.h) say about the keys of bodies and shapes, for the
// documentation and its test: one row per key, nested keys as "children[].shape".

#include <string>
#include <utility>
#include <vector>

namespace atl {

/// One documented key.
struct FieldDoc {
  /// Key, with its parents for a nested one ("children[].position").
  std::string key;
  /// Kind and unit ("real, m", "[x, y, z], m/s", "string").
  std::string type;
  /// Valid values ("> 0", "[0, 1]", "`static`, `kinematic`, `dynamic`"); empty: any.
  std::string range;
  /// The default as JSON text ("0.05", "[0, 0, 0, 1]", "\"dynamic\""); empty when the key is
  /// required, an alias, or unset by default.
  std::string default_value;
  /// The key must be given.
  bool required = false;
  /// The key stands for others.
  bool alias = false;
};

/// The keys of a body, in table order.
std::vector<FieldDoc> body_field_docs();

/// Per shape type (its scene name, in ShapeSubType order), the keys besides "type".
std::vector<std::pair<std::string, std::vector<FieldDoc>>> shape_field_docs();

/// The common keys of a constraint (name, type, body1, body2, enabled, …), in table order.
std::vector<FieldDoc> constraint_common_field_docs();

/// Per supported constraint type (its scene name, in ConstraintSubType order), its type keys.
std::vector<std::pair<std::string, std::vector<FieldDoc>>> constraint_field_docs();

/// The keys every soft body has (name, pinned, attach, …), in table order.
std::vector<FieldDoc> soft_body_common_field_docs();

/// Per soft body type (its scene name), its type keys.
std::vector<std::pair<std::string, std::vector<FieldDoc>>> soft_body_field_docs();

}  // namespace atl
