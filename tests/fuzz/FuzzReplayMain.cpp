// The main of the fuzz targets outside the fuzz preset: runs LLVMFuzzerTestOneInput on every
// file named on the command line, and on every regular file under every directory named there
// (in sorted order), once each. A crash, a sanitizer report or a failed check of the target ends
// the process as it would under libFuzzer; otherwise it prints how many inputs ran and exits 0.
// No input at all is an error (exit 2), so that a corpus lost on the way fails its test.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace fuzz_replay_main {

// The files `arg` names: itself, or the regular files below it, sorted.
std::vector<std::filesystem::path> inputs_of(const std::filesystem::path& arg) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  if (std::filesystem::is_directory(arg, ec)) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(arg, ec))
      if (entry.is_regular_file()) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
  } else if (std::filesystem::is_regular_file(arg, ec)) {
    files.push_back(arg);
  }
  return files;
}

}  // namespace fuzz_replay_main

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR_OR_FILE...\n", argv[0]);
    return 2;
  }
  size_t runs = 0;
  for (int i = 1; i < argc; ++i) {
    const std::vector<std::filesystem::path> files = fuzz_replay_main::inputs_of(argv[i]);
    if (files.empty()) {
      std::fprintf(stderr, "%s: no input files\n", argv[i]);
      return 2;
    }
    for (const std::filesystem::path& file : files) {
      std::ifstream in(file, std::ios::binary);
      if (!in) {
        std::fprintf(stderr, "%s: cannot open file\n", file.string().c_str());
        return 2;
      }
      const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                       std::istreambuf_iterator<char>());
      // A copy of exactly the file's size, so that the address sanitizer catches a read past
      // the end as it would under libFuzzer.
      std::vector<uint8_t> exact(bytes.begin(), bytes.end());
      LLVMFuzzerTestOneInput(exact.empty() ? nullptr : exact.data(), exact.size());
      ++runs;
    }
  }
  std::printf("%zu inputs ran\n", runs);
  return 0;
}
