// `atoll sweep`: the sweep itself is Python (atoll.sweeps on a Dask cluster); this command finds
// the interpreter and the module and hands over the arguments.

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "Commands.h"

#ifndef ATOLL_PYTHON_EXECUTABLE
#define ATOLL_PYTHON_EXECUTABLE "python3"
#endif

namespace atl::cli {

namespace {

namespace fs = std::filesystem;

// Imports atoll.sweeps and runs its main(); a missing module is one clear line, exit status 2.
constexpr const char* k_bootstrap =
    "import sys\n"
    "try:\n"
    "    import atoll.sweeps\n"
    "except ImportError as e:\n"
    "    sys.stderr.write('atoll: sweep: cannot import the Python module atoll (%s); build it "
    "with pybind11-dev and python3-dev installed (scripts/setup.sh), or set ATOLL_PYTHONPATH "
    "to the directory that holds it\\n' % e)\n"
    "    sys.exit(2)\n"
    "sys.exit(atoll.sweeps.main(sys.argv[1:]))\n";

// <build>/python, when the executable runs from <build>/apps/atoll.
std::string build_python_dir(const char* argv0) {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) exe = fs::absolute(argv0, ec);
  const fs::path dir = exe.parent_path().parent_path().parent_path() / "python";
  if (fs::is_regular_file(dir / "atoll" / "__init__.py", ec)) return dir.string();
  return "";
}

}  // namespace

int sweep_command(const SweepArgs& args, const char* argv0) {
  std::string path;
  if (const char* given = std::getenv("ATOLL_PYTHONPATH"); given != nullptr && *given != '\0')
    path = given;
  else
    path = build_python_dir(argv0);
  if (!path.empty()) {
    const char* old = std::getenv("PYTHONPATH");
    const std::string value = old != nullptr && *old != '\0' ? path + ":" + old : path;
    setenv("PYTHONPATH", value.c_str(), 1);
  }
  const char* env_python = std::getenv("ATOLL_PYTHON");
  const std::string python =
      env_python != nullptr && *env_python != '\0' ? env_python : ATOLL_PYTHON_EXECUTABLE;

  std::vector<std::string> words{python, "-c", k_bootstrap, args.scene};
  for (const std::string& g : args.grid) words.insert(words.end(), {"--grid", g});
  words.insert(words.end(), {"--seeds", std::to_string(args.seeds)});
  if (args.steps != -1) words.insert(words.end(), {"--steps", std::to_string(args.steps)});
  if (!args.scheduler.empty()) words.insert(words.end(), {"--scheduler", args.scheduler});
  if (args.workers != -1) words.insert(words.end(), {"--workers", std::to_string(args.workers)});
  words.insert(words.end(), {"--out", args.out});
  if (args.quiet) words.emplace_back("--quiet");

  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  execvp(python.c_str(), argv.data());
  std::fprintf(stderr,
               "atoll: sweep: cannot run %s: %s (sweeps need Python 3 with the atoll module, "
               "numpy, pandas and Dask: scripts/setup.sh installs them; ATOLL_PYTHON chooses "
               "the interpreter)\n",
               python.c_str(), std::strerror(errno));
  return k_exit_bad_input;
}

}  // namespace atl::cli
