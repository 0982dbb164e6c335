#pragma once
// The numbers a simulation changes, walked field by field in a fixed order. Each object that
// holds such state has one function that names its fields to a StateStream (a constraint's
// accumulated impulses, the contact cache, …: `visit_state`), and the stream decides what
// happens to them: written to a saved state, read back from one, or compared with one
// (state/StateRecorder.h). Saving, restoring and validating walk the same list, so that a field
// cannot be saved and then forgotten on restore.
//
// Once a stream has failed (a saved state that is truncated or does not fit the world, or the
// first difference found when validating) every later call leaves its arguments alone, and the
// walk runs to its end without effect; the caller then reports error().

#include <cstdint>
#include <string>

namespace atl {

class StateStream {
 public:
  enum class Mode : uint8_t {
    /// The fields are read and appended to the saved state.
    save,
    /// The fields are overwritten with the saved values.
    restore,
    /// The fields are compared with the saved values and left alone; the first difference
    /// fails the stream with a message that names the field and both values.
    validate,
  };

  virtual ~StateStream() = default;

  Mode mode() const { return mode_; }
  bool saving() const { return mode_ == Mode::save; }
  /// True when the walk writes the saved values into the fields.
  bool restoring() const { return mode_ == Mode::restore; }
  /// False once the stream has failed.
  bool ok() const { return error_.empty(); }
  /// Why it failed ("" while ok()).
  const std::string& error() const { return error_; }

  /// The object the next fields belong to, for messages: kind "body" and id 7 name the
  /// fields "body b7 linear_velocity.y"; other kinds print the id as a number ("constraint 3
  /// …"). Saved as nothing.
  void object(const char* kind, uint32_t id) {
    kind_ = kind;
    id_ = id;
  }

  /// `count` floats named `name`. In messages a component gets .x .y .z .w (count ≤ 4) or
  /// [i]. Floats are saved and compared as bits (-0 differs from 0, a NaN equals itself).
  virtual void floats(const char* name, float* values, uint32_t count) = 0;
  /// `count` unsigned integers named `name`.
  virtual void u32s(const char* name, uint32_t* values, uint32_t count) = 0;
  /// A flag.
  virtual void flag(const char* name, bool& value) = 0;
  /// The length of a list whose elements follow, each of at least `min_element_bytes`: when
  /// reading, a length that the bytes left cannot hold fails the stream (a corrupted length
  /// must not make the reader allocate memory for it). When validating, a different length is
  /// a difference.
  virtual void count(const char* name, uint32_t& value, uint32_t min_element_bytes) = 0;
  /// A number the world decides and the saved state must agree with (an ID, a type): saved
  /// when saving; when reading, a different saved number fails the stream with
  /// "<object> <name>: the state has X, the world has Y" — restoring included.
  virtual void expect(const char* name, uint32_t world_value) = 0;

  /// Fails the stream with `message` (prefixed by the current object's name), unless it has
  /// failed already.
  void fail(const std::string& message) {
    if (ok()) error_ = object_name() + message;
  }

 protected:
  explicit StateStream(Mode mode) : mode_(mode) {}
  /// "body b7 " or "constraint 3 " (with the trailing space), or "" before any object().
  std::string object_name() const {
    if (kind_ == nullptr) return "";
    const std::string kind(kind_);
    return kind + (kind == "body" ? " b" : " ") + std::to_string(id_) + " ";
  }
  /// `name` with the component suffix of element `i` of `count`.
  static std::string component_name(const char* name, uint32_t i, uint32_t count) {
    std::string s(name);
    if (count == 1) return s;
    if (count <= 4) return s + "." + "xyzw"[i];
    return s + "[" + std::to_string(i) + "]";
  }

 private:
  Mode mode_;
  const char* kind_ = nullptr;
  uint32_t id_ = 0;
  std::string error_;
};

}  // namespace atl
