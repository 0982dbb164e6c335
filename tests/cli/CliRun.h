#pragma once
// Runs the built `atoll` program (ATOLL_CLI_PATH) as a user would, for the CLI tests.

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace atl::cli_test {

/// What one run of `atoll` did.
struct Outcome {
  /// False when a signal ended it.
  bool exited = false;
  /// Exit status (-1 when it did not exit).
  int status = -1;
  /// stdout and stderr together.
  std::string output;
};

/// Runs `atoll ARGUMENTS` through the shell, capturing both output streams.
inline Outcome run_atoll(const std::string& arguments) {
  const std::string command = std::string(ATOLL_CLI_PATH) + " " + arguments + " 2>&1";
  Outcome outcome;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return outcome;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) outcome.output.append(buffer, n);
  const int raw = pclose(pipe);
  outcome.exited = WIFEXITED(raw);
  outcome.status = outcome.exited ? WEXITSTATUS(raw) : -1;
  return outcome;
}

}  // namespace atl::cli_test
