#include "atoll/state/DeterminismLog.h"

#include <cinttypes>
#include <cstdio>
#include <sstream>

namespace atl {

void DeterminismLogWriter::on_stage(uint64_t step, int collision_step, const char* stage,
                                    uint64_t hash) {
  char line[128];
  std::snprintf(line, sizeof(line), "%" PRIu64 " %d %s %016" PRIx64 "\n", step, collision_step,
                stage, hash);
  out_ << line;
}

namespace {

struct LogLine {
  uint64_t step = 0;
  int collision_step = 0;
  std::string stage;
  std::string hash;
};

// Reads the next line of a log: true with `line` set, false at the end; an error for a line
// that is not "STEP COLLISION_STEP STAGE HASH".
Result<bool> next_line(std::istream& in, std::string_view name, size_t& number, LogLine& line) {
  std::string text;
  while (std::getline(in, text)) {
    ++number;
    if (text.empty()) continue;
    std::istringstream fields(text);
    std::string extra;
    if (!(fields >> line.step >> line.collision_step >> line.stage >> line.hash) ||
        (fields >> extra) || line.hash.size() != 16 ||
        line.hash.find_first_not_of("0123456789abcdef") != std::string::npos)
      return Error(std::string(name) + " line " + std::to_string(number) +
                   ": not a determinism log line (\"STEP COLLISION_STEP STAGE HASH\"): " + text);
    return true;
  }
  return false;
}

}  // namespace

Result<std::optional<std::string>> first_difference(std::istream& a, std::string_view a_name,
                                                    std::istream& b, std::string_view b_name) {
  size_t number_a = 0, number_b = 0;
  for (;;) {
    LogLine la, lb;
    const Result<bool> more_a = next_line(a, a_name, number_a, la);
    if (!more_a) return more_a.error();
    const Result<bool> more_b = next_line(b, b_name, number_b, lb);
    if (!more_b) return more_b.error();
    if (!*more_a && !*more_b) return std::optional<std::string>();
    if (!*more_a || !*more_b) {
      const LogLine& longer = *more_a ? la : lb;
      return std::optional<std::string>(
          std::string(*more_a ? b_name : a_name) + " ends before step " +
          std::to_string(longer.step) + ", collision step " +
          std::to_string(longer.collision_step) + ", stage " + longer.stage);
    }
    const auto where = [](const LogLine& l) {
      return "step " + std::to_string(l.step) + ", collision step " +
             std::to_string(l.collision_step) + ", stage " + l.stage;
    };
    if (la.step != lb.step || la.collision_step != lb.collision_step || la.stage != lb.stage)
      return std::optional<std::string>("the logs run different stages: " + std::string(a_name) +
                                        " has " + where(la) + ", " + std::string(b_name) + " has " +
                                        where(lb));
    if (la.hash != lb.hash)
      return std::optional<std::string>(where(la) + ": " + std::string(a_name) + " has " + la.hash +
                                        ", " + std::string(b_name) + " has " + lb.hash);
  }
}

}  // namespace atl
