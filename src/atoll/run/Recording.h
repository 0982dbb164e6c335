#pragma once
// Recordings of a run (`atoll run --record FILE`): the bodies and their drawable geometry once,
// then every body's pose and flags (and every soft body's vertices) after every step, in a file
// a viewer (JavaScript) or a script reads with a few lines of code. The format is specified in
// docs/recording-format.md: a 16-byte preamble, a JSON header, then fixed-size little-endian binary
// frames.

#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "atoll/body/BodyManager.h"
#include "atoll/core/Result.h"
#include "atoll/world/Stage.h"

namespace atl {

/// The 8 bytes a recording starts with.
inline constexpr char k_recording_magic[8] = {'A', 'T', 'O', 'L', 'L', 'R', 'E', 'C'};
/// The format version this code writes; it reads this one, version 2 (no soft bodies) and
/// version 1 (no per-step stats, contacts or constraint states either).
inline constexpr uint32_t k_recording_version = 3;
/// The oldest format version this code reads.
inline constexpr uint32_t k_recording_oldest_version = 1;
/// Bytes of one recorded contact: point x, y, z (m), normal x, y, z, penetration (m), float32.
inline constexpr size_t k_recording_contact_bytes = 28;
/// Bytes of the contact index, after a version-2 frame's figures: index of its first contact,
/// number of contacts (uint32).
inline constexpr size_t k_recording_contact_index_bytes = 8;
/// Bytes of one soft body vertex in a version-3 frame: x, y, z (m), float32.
inline constexpr size_t k_recording_vertex_bytes = 12;

/// Bits of a body's flags byte in a frame.
enum RecordingFlags : uint8_t {
  /// The body is awake.
  k_recording_active = 1 << 0,
  /// The body is in the simulation (clear: removed or destroyed; the pose is then meaningless).
  k_recording_added = 1 << 1,
  /// The world quarantined the body (its state went non-finite; DESIGN.md §7).
  k_recording_quarantined = 1 << 2,
};
/// The body's current MotionType sits in bits 3–4 of the flags byte.
inline constexpr int k_recording_motion_type_shift = 3;

/// Bits of a constraint's state byte in a version-2 frame.
enum RecordingConstraintFlags : uint8_t {
  /// The constraint is enabled (solved).
  k_recording_constraint_enabled = 1 << 0,
  /// The constraint broke (an impulse exceeded its break threshold) and was not enabled since.
  k_recording_constraint_broken = 1 << 1,
  /// Bits 0–1 were recorded; clear: the writer was not told the state (a recording made
  /// through RecordingWriter::add_frame(bodies) alone), draw the constraint as enabled.
  k_recording_constraint_known = 1 << 7,
};

/// Bits of a soft body's flags byte in a version-3 frame (the same bits as a body's bits 0–1).
enum RecordingSoftBodyFlags : uint8_t {
  /// The soft body is awake (clear: it sleeps, its vertices stay where they are).
  k_recording_soft_body_active = 1 << 0,
  /// The soft body is in the simulation and its vertices are in the frame (clear: it was
  /// removed or destroyed, or the writer was not told its vertices: they are 0, do not draw it).
  k_recording_soft_body_added = 1 << 1,
};

/// The per-step figures a version-2 frame carries, in this order (float32 each); the header's
/// "stats" lists their names. Stage times follow them, one per Stage, named "ms_" + stage name.
inline constexpr const char* k_recording_stat_names[] = {
    "kinetic_energy_J",   // kinetic energy of the recorded bodies (J), linear + rotational
    "max_penetration_m",  // deepest contact penetration the step's narrow phase found (m)
    "active_bodies",      // recorded bodies awake after the step
    "contacts",           // contacts the step had (all of them, also when not recorded)
};
/// Number of figures before the stage times.
inline constexpr size_t k_recording_num_base_stats = std::size(k_recording_stat_names);

/// One drawable primitive of a body's shape, in the body's shape space with every decorator and
/// compound resolved: a point p of the primitive's own space is at
/// position + rotation · (scale ⊙ p) relative to the body's position and rotation.
struct RecordedPart {
  /// Sphere, Box, Capsule, Cylinder, ConvexHull, TriangleMesh or HeightField.
  ShapeSubType type = ShapeSubType::Box;
  /// Placement in the body's shape space (m).
  Vec3 position;
  /// Placement rotation (unit).
  Quat rotation;
  /// Scale per axis of the primitive's own space (negative mirrors).
  Vec3 scale = Vec3::replicate(1.0f);
  /// Box: half size (m), convex radius included.
  Vec3 half_extent;
  /// Sphere, capsule, cylinder: radius (m).
  float radius = 0.0f;
  /// Capsule: half length of the cylindrical part (m); cylinder: half height (m).
  float half_height = 0.0f;
  /// Box, cylinder, convex hull: rounding of the core (m); the surface is the full shape.
  float convex_radius = 0.0f;
  /// Convex hull, mesh: vertex coordinates x, y, z, x, y, z, … (m).
  std::vector<float> vertices;
  /// Convex hull, mesh: vertex indices, three per triangle, counter-clockwise seen from the
  /// outside (hull faces are fanned into triangles).
  std::vector<uint32_t> triangles;
  /// Height field: samples per side.
  uint32_t sample_count = 0;
  /// Height field: sample_count² heights, row-major in z then x; sample (x, z) is at
  /// (x, heights[z · sample_count + x], z) (spacing and offset are in the placement). Holes are
  /// HeightFieldShape::k_no_collision.
  std::vector<float> heights;

  bool operator==(const RecordedPart&) const = default;
};

/// A shape as a list of parts; bodies that share a Shape share one RecordedShape.
struct RecordedShape {
  std::vector<RecordedPart> parts;

  bool operator==(const RecordedShape&) const = default;
};

/// Resolves `shape` into drawable parts (decorators and compounds flattened).
RecordedShape describe_shape(const Shape& shape);

/// A recorded body.
struct RecordedBody {
  /// Name (scene body name).
  std::string name;
  /// Motion type when the recording started (frames carry the current one).
  MotionType motion_type = MotionType::Static;
  /// Index into RecordingHeader::shapes.
  uint32_t shape = 0;
};

/// A recorded constraint: its bodies and attachment points, so that a viewer can draw it from
/// the frames' poses.
struct RecordedConstraint {
  /// Scene constraint name.
  std::string name;
  /// Scene type name ("hinge", …).
  std::string type;
  /// Indices into RecordingHeader::bodies; −1 = the fixed world.
  int body1 = -1, body2 = -1;
  /// Attachment points: in the body's shape space (a point p is at position + rotation · p of
  /// the body's frame pose), or in world space (m) for the world.
  Vec3 point1, point2;

  bool operator==(const RecordedConstraint&) const = default;
};

/// A recorded soft body: what a viewer needs besides the frames' vertex positions to draw it.
struct RecordedSoftBody {
  /// Scene soft body name.
  std::string name;
  /// Number of vertices (≥ 1): the frames carry this many positions for it.
  uint32_t vertex_count = 0;
  /// Collision radius of every vertex (m): a rope drawn as a tube, a cloth's half thickness.
  float vertex_radius = 0.0f;
  /// Structural edges (SoftBodySettings::edges: the distance constraints, not the bend edges),
  /// pairs of vertex indices: what a viewer draws when there are no faces (a rope).
  std::vector<std::array<uint32_t, 2>> edges;
  /// Triangles, vertex indices counter-clockwise seen from outside (empty for a rope).
  std::vector<std::array<uint32_t, 3>> faces;

  bool operator==(const RecordedSoftBody&) const = default;
};

/// One soft body's state for a frame, as the run loop hands it to RecordingWriter::add_frame.
struct RecordingSoftBodyFrame {
  /// The vertex positions (m, world space), RecordedSoftBody::vertex_count of them; empty when
  /// the soft body is gone (the frame then holds zeros, and flags without
  /// k_recording_soft_body_added).
  std::span<const Vec3> positions;
  /// RecordingSoftBodyFlags.
  uint8_t flags = 0;
};

/// A contact recorded in a frame (one per contact manifold).
struct RecordedContact {
  /// First contact point of the manifold, on body 2 (world, m).
  Vec3 point;
  /// World normal from body 1 to body 2 (unit).
  Vec3 normal;
  /// Penetration (m); negative for a speculative contact (a gap).
  float penetration = 0.0f;

  bool operator==(const RecordedContact&) const = default;
};

/// What the run loop knows about a step beyond the bodies' state (RecordingWriter::add_frame).
struct RecordingFrameInfo {
  /// Deepest contact penetration the step's narrow phase found (m); 0 before the first step.
  float max_penetration = 0.0f;
  /// Number of contacts (manifolds) of the step, also when the contacts are not recorded.
  uint32_t num_contacts = 0;
  /// Wall time of each stage in the step (ms); zeros before the first step.
  std::array<double, k_num_stages> stage_ms{};
  /// The step's contacts (recorded only when the writer records contacts; at most its
  /// max_contacts_per_frame of them, the first ones).
  std::span<const RecordedContact> contacts;
  /// Per recorded constraint, RecordingConstraintFlags; empty (or not one per recorded
  /// constraint): not known.
  std::span<const uint8_t> constraint_flags;
  /// Per recorded soft body, in header order; empty (or not one per recorded soft body): not
  /// known, every soft body gets flags 0 and zero positions.
  std::span<const RecordingSoftBodyFrame> soft_bodies;
};

/// Choices of a recording beyond its bodies.
struct RecordingOptions {
  /// Record the contacts of every step (point, normal, penetration per manifold). Off by
  /// default: a big scene has thousands of contacts per step.
  bool contacts = false;
  /// With contacts: the most contacts kept per frame (the first ones, in the order of the
  /// step's contact events); the frame's stats still count all of them.
  uint32_t max_contacts_per_frame = 10000;
};

/// What a recording says before its frames.
struct RecordingHeader {
  /// Where the scene came from ("tower10 (built-in)", a file name).
  std::string source;
  /// Step length (s).
  float dt = 0.0f;
  /// Steps recorded; the recording holds steps + 1 frames (frame k: after k steps).
  int steps = 0;
  /// Distinct shapes.
  std::vector<RecordedShape> shapes;
  /// Bodies, in frame order.
  std::vector<RecordedBody> bodies;
  /// Constraints between them (an empty list is not written).
  std::vector<RecordedConstraint> constraints;
  /// Version 2: names of the per-step figures of every frame (k_recording_stat_names, then
  /// "ms_" + each stage name); empty for version 1.
  std::vector<std::string> stats;
  /// Version 2: whether the frames carry contacts.
  bool contacts = false;
  /// Version 2, with contacts: the most contacts kept per frame.
  uint32_t max_contacts_per_frame = 0;
  /// Version 3: the soft bodies whose vertices every frame carries, in frame order (an empty
  /// list is not written).
  std::vector<RecordedSoftBody> soft_bodies;
};

/// One body in one frame.
struct RecordedBodyState {
  /// Position (m) of the shape's origin (Body::position()).
  Vec3 position;
  /// Rotation.
  Quat rotation;
  /// RecordingFlags bits and the motion type.
  uint8_t flags = 0;

  bool active() const { return (flags & k_recording_active) != 0; }
  bool added() const { return (flags & k_recording_added) != 0; }
  bool quarantined() const { return (flags & k_recording_quarantined) != 0; }
  MotionType motion_type() const {
    return static_cast<MotionType>((flags >> k_recording_motion_type_shift) & 3);
  }
};

/// One soft body in one frame.
struct RecordedSoftBodyState {
  /// Vertex positions (m, world space), RecordedSoftBody::vertex_count of them (zeros when the
  /// soft body is not in the frame).
  std::vector<Vec3> positions;
  /// RecordingSoftBodyFlags bits.
  uint8_t flags = 0;

  bool active() const { return (flags & k_recording_soft_body_active) != 0; }
  bool added() const { return (flags & k_recording_soft_body_added) != 0; }
};

/// Writes a recording. The file appears complete or not at all: frames go to a temporary
/// sibling ("FILE.partial"), which finish() renames to FILE; without finish() (an error, an
/// early return) the temporary file is removed.
class RecordingWriter {
 public:
  /// Starts a recording of the bodies `ids` (named `names`, same length) of `bodies`, which
  /// exist now, for `steps` (≥ 0) steps of `dt` s. Error "FILE: cannot write: reason" when the
  /// temporary file cannot be created; nothing is written then. With options.contacts, the
  /// contacts stream into a second temporary file ("FILE.contacts.partial") that finish()
  /// appends. Every frame carries the vertices of `soft_bodies` (each with at least one
  /// vertex), which add_frame takes through RecordingFrameInfo::soft_bodies.
  static Result<std::unique_ptr<RecordingWriter>> create(
      const std::filesystem::path& path, const BodyManager& bodies, std::span<const BodyID> ids,
      std::span<const std::string> names, float dt, int steps, std::string_view source,
      std::span<const RecordedConstraint> constraints = {}, const RecordingOptions& options = {},
      std::span<const RecordedSoftBody> soft_bodies = {});
  RecordingWriter(const RecordingWriter&) = delete;
  RecordingWriter& operator=(const RecordingWriter&) = delete;
  ~RecordingWriter();

  /// Appends a frame with the bodies' state now (kinetic energy and active bodies computed
  /// from them; the other figures 0, constraint states and soft bodies unknown). I/O errors
  /// surface in finish().
  void add_frame(const BodyManager& bodies);
  /// Appends a frame with the bodies' state now and what the run loop knows of the step.
  void add_frame(const BodyManager& bodies, const RecordingFrameInfo& info);
  /// Whether this recording keeps contacts (RecordingOptions::contacts).
  bool records_contacts() const { return options_.contacts; }
  /// Checks that steps + 1 frames were added, flushes and moves the file into place. Error
  /// "FILE: …" otherwise (and the temporary file is removed).
  Status finish();

 private:
  RecordingWriter() = default;
  void discard();

  std::filesystem::path path_;
  std::filesystem::path temp_path_;
  std::filesystem::path contacts_path_;
  std::FILE* file_ = nullptr;
  std::FILE* contacts_file_ = nullptr;
  RecordingOptions options_;
  std::vector<BodyID> ids_;
  size_t num_constraints_ = 0;
  /// Vertices of each recorded soft body, in header order.
  std::vector<uint32_t> soft_vertex_counts_;
  uint64_t num_contacts_ = 0;
  int expected_frames_ = 0;
  int frames_ = 0;
  std::vector<unsigned char> frame_;
};

/// A recording read back (version 1, 2 or 3).
struct Recording {
  /// Format version of the file.
  uint32_t version = k_recording_version;
  RecordingHeader header;
  /// The frames' bytes, as in the file.
  std::vector<unsigned char> frame_data;
  /// Version 2: the contact section's bytes, as in the file (k_recording_contact_bytes each).
  std::vector<unsigned char> contact_data;

  /// Bytes per version-1 frame for `num_bodies` bodies: 28 per body (7 float32), 1 flags byte
  /// per body, zero padding to a multiple of 4.
  static size_t frame_bytes(size_t num_bodies);
  /// Bytes per version-2 frame: poses, body flags, one state byte per constraint, zero padding
  /// to a multiple of 4, 4 bytes per stat, then the contact index (8 bytes).
  static size_t frame_bytes_v2(size_t num_bodies, size_t num_constraints, size_t num_stats);
  /// Bytes a version-3 frame has after its version-2 part for `num_soft_bodies` soft bodies of
  /// `num_vertices` vertices in all: a flags byte per soft body, zero padding to a multiple of
  /// 4, 12 bytes per vertex. 0 without soft bodies.
  static size_t soft_body_section_bytes(size_t num_soft_bodies, size_t num_vertices);
  /// Bytes per frame of this recording.
  size_t bytes_per_frame() const;
  /// Version 2 and later: where in a frame its figures start (after the poses, the body flags,
  /// the constraint states and the padding).
  size_t stats_offset() const;
  /// Version 2 and later: where in a frame its contact index starts (after the figures).
  size_t contact_index_offset() const;
  /// Version 3: where in a frame the soft bodies' flags bytes start (after the contact index);
  /// their positions follow, padded to a multiple of 4 (docs/recording-format.md).
  size_t soft_body_flags_offset() const;
  /// Version 3: where in a frame the positions of soft body `soft` (< header.soft_bodies.size())
  /// start.
  size_t soft_body_positions_offset(size_t soft) const;
  /// Number of frames (header.steps + 1).
  size_t num_frames() const;
  /// State of body `body` (< header.bodies.size()) in frame `frame` (< num_frames()).
  RecordedBodyState state(size_t frame, size_t body) const;
  /// Version 2: the per-step figures of frame `frame`, parallel to header.stats (empty for
  /// version 1).
  std::vector<float> stats(size_t frame) const;
  /// Version 2: RecordingConstraintFlags of constraint `constraint` in frame `frame` (0 for
  /// version 1: not known).
  uint8_t constraint_flags(size_t frame, size_t constraint) const;
  /// The contacts recorded in frame `frame` (none for version 1 or without contacts).
  std::vector<RecordedContact> contacts(size_t frame) const;
  /// Version 3: the state of soft body `soft` (< header.soft_bodies.size()) in frame `frame`.
  RecordedSoftBodyState soft_body_state(size_t frame, size_t soft) const;
};

/// Reads and checks a recording (magic, version, header, size, the frames' contact index, the
/// soft bodies' vertex counts against the file's size).
/// Errors read "FILE: problem", header problems "FILE: header.JSON.PATH: problem".
Result<Recording> read_recording(const std::filesystem::path& path);

}  // namespace atl
