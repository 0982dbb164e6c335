// Fuzz target: the reader of `atoll run --record` files (read_recording, which `atoll view`
// uses). It reads a path, so the bytes go to a file of this process in the temporary directory
// first. An accepted recording is read back completely: every body's state in every frame, the
// stats, the constraint flags, the contacts and the soft bodies' vertices of every frame. Checks: a
// rejection has a message; no read outside the file's data (the address sanitizer).
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "FuzzCommon.h"
#include "atoll/run/Recording.h"

namespace fuzz_recording_reader {

const std::filesystem::path& scratch_file() {
  static const std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("atoll_fuzz_recording_" + std::to_string(::getpid()) + ".bin");
  return path;
}

// Removes the scratch file when the process ends normally.
struct ScratchCleanup {
  ~ScratchCleanup() {
    std::error_code ec;
    std::filesystem::remove(scratch_file(), ec);
  }
};

}  // namespace fuzz_recording_reader

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace atl;
  static const fuzz_recording_reader::ScratchCleanup cleanup;
  const std::filesystem::path& path = fuzz_recording_reader::scratch_file();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    fuzz::check(static_cast<bool>(out), "cannot write the scratch file " + path.string());
    out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
  }
  const Result<Recording> recording = read_recording(path);
  if (!fuzz::accepted(recording, "read_recording")) return 0;
  const Recording& r = *recording;
  fuzz::check(r.frame_data.size() >= r.num_frames() * r.bytes_per_frame(),
              "an accepted recording holds fewer frame bytes than its frames need");
  for (size_t frame = 0; frame < r.num_frames(); ++frame) {
    for (size_t body = 0; body < r.header.bodies.size(); ++body) (void)r.state(frame, body);
    for (size_t c = 0; c < r.header.constraints.size(); ++c) (void)r.constraint_flags(frame, c);
    (void)r.stats(frame);
    (void)r.contacts(frame);
    for (size_t soft = 0; soft < r.header.soft_bodies.size(); ++soft)
      fuzz::check(r.soft_body_state(frame, soft).positions.size() ==
                      r.header.soft_bodies[soft].vertex_count,
                  "a soft body's state has not one position per vertex");
  }
  return 0;
}
