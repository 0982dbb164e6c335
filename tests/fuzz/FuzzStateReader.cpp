// Fuzz target: the saved-state reader (PhysicsSystem::restore_state, docs/state-format.md). A
// small world (a ragdoll and two boxes on a floor, 10 steps run) is restored from the bytes in
// one of three ways, chosen by the first byte:
//   0: the bytes as they are (the header's checks: magic, version, length, checksum);
//   1: the bytes as a payload behind a valid header with a correct checksum (the walk over the
//      world's fields meets arbitrary data: lengths, ids, types, flags, floats);
//   2: the world's own saved state with the bytes XOR-ed in from an offset the next two bytes
//      give, checksum fixed (a state that is nearly right).
// Checks: a refusal has a message starting "state:" and leaves the world exactly as it was (its
// state saved before and after are the same bytes); an accepted state leaves every body finite,
// also after two more steps.
#include <cstdint>
#include <memory>
#include <vector>

#include "FuzzCommon.h"
#include "atoll/run/SceneWorld.h"
#include "atoll/scene/SceneReader.h"
#include "atoll/state/StateRecorder.h"

namespace fuzz_state_reader {

constexpr char k_scene[] = R"({
  "settings": { "allow_sleeping": false },
  "shapes": { "crate": { "type": "box", "half_extent": [0.3, 0.3, 0.3] } },
  "bodies": [ { "name": "floor", "shape": { "type": "box", "half_extent": [10, 1, 10] },
                "position": [0, -1, 0], "motion": "static" },
              { "name": "a", "shape": "crate", "position": [2, 0.3, 0] },
              { "name": "b", "shape": "crate", "position": [2, 0.91, 0] } ],
  "generators": [ { "type": "ragdoll", "name": "r", "position": [0, 1.2, 0] } ]
})";

std::unique_ptr<atl::SceneWorld> make_world() {
  using namespace atl;
  static const SceneDescription scene = read_scene_text(k_scene, "fuzz_state.json").value();
  std::unique_ptr<SceneWorld> world = SceneWorld::create(scene, "fuzz_state.json").value();
  for (int step = 0; step < 10; ++step) (void)world->system().update(scene.dt);
  return world;
}

}  // namespace fuzz_state_reader

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace atl;
  using namespace fuzz_state_reader;
  if (size == 0) return 0;
  std::unique_ptr<SceneWorld> world = make_world();
  PhysicsSystem& system = world->system();
  StateRecorder before;
  (void)system.save_state(before);

  // Modes 1 and 2 get a valid header, length and checksum from StateRecorder itself.
  constexpr size_t k_header = StateRecorder::k_header_bytes;
  StateRecorder recorder;
  std::vector<uint8_t> bytes;
  const uint8_t mode = data[0] % 3;
  if (mode == 0) {
    bytes.assign(data + 1, data + size);
  } else if (mode == 1) {
    (void)recorder.begin_save(StateParts(size > 1 ? data[1] & 15u : 15u));
    bytes = recorder.data();
    if (size > 2) bytes.insert(bytes.end(), data + 2, data + size);
  } else {
    bytes = before.data();
    const size_t offset =
        size > 2 ? (size_t{data[1]} | size_t{data[2]} << 8) % (bytes.size() - k_header) : 0;
    for (size_t i = 3; i < size && k_header + offset + (i - 3) < bytes.size(); ++i)
      bytes[k_header + offset + (i - 3)] ^= data[i];
  }
  recorder.set_data(bytes);
  if (mode != 0) recorder.finish_save();
  const Status restored = system.restore_state(recorder);
  if (!restored.ok()) {
    fuzz::check(
        std::string(restored.error().message()).rfind("state: ", 0) == 0,
        std::string("a refusal's message starts with \"state: \": ") + restored.error().message());
    StateRecorder after;
    (void)system.save_state(after);
    fuzz::check(after.data() == before.data(), "a refused state changed the world");
    return 0;
  }
  fuzz::check_world_finite(system);
  for (int step = 0; step < 2; ++step) {
    if (!fuzz::accepted(system.update(1.0f / 60.0f), "PhysicsSystem::update")) break;
    fuzz::check_world_finite(system);
  }
  return 0;
}
