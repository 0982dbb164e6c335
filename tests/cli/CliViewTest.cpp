// `atoll run --record-contacts` and `atoll view` (docs/viewer.md): the GET-only server on
// 127.0.0.1 (the page, the recording, and its header, figures, frames and contacts separately,
// with bad requests refused), the self-contained --html page, and bad recordings refused with one
// line and nothing written. The page itself is tested in a browser by viewer/test/browser-test.mjs.

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "TestDirectory.h"
#include "atoll/run/Recording.h"
#include "cli/CliRun.h"

namespace cli_view_test {
namespace {

namespace fs = std::filesystem;
using atl::cli_test::Outcome;
using atl::cli_test::run_atoll;

class CliViewTest : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string read(const std::string& name) const {
    std::ifstream in(path(name), std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  void record(const std::string& name) {
    const Outcome out = run_atoll("run tower10 --quiet --steps 5 --record " + path(name));
    ASSERT_EQ(out.status, 0) << out.output;
  }
  atl::test::TestDirectory dir_{"atoll_cli_view"};
};

std::string decode_base64(const std::string& text) {
  std::string out;
  uint32_t bits = 0;
  int count = 0;
  for (char c : text) {
    const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const char* at = c == '\0' ? nullptr : std::strchr(alphabet, c);
    if (at == nullptr) continue;  // '=' and white space
    bits = bits << 6 | uint32_t(at - alphabet);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push_back(char((bits >> count) & 0xff));
    }
  }
  return out;
}

// A connection to 127.0.0.1:port, or -1; a receive buffer of `receive_buffer` bytes when not 0.
int connect_loopback(int port, int receive_buffer = 0) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (receive_buffer != 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof(receive_buffer));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(uint16_t(port));
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// One HTTP request to 127.0.0.1:port; the whole response (the server closes the connection).
std::string http(int port, const std::string& request) {
  const int fd = connect_loopback(port);
  if (fd < 0) return "connect failed";
  ::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  std::string response;
  char buffer[65536];
  ssize_t got;
  while ((got = ::recv(fd, buffer, sizeof(buffer), 0)) > 0) response.append(buffer, size_t(got));
  ::close(fd);
  return response;
}

std::string body_of(const std::string& response) {
  const size_t end = response.find("\r\n\r\n");
  return end == std::string::npos ? std::string() : response.substr(end + 4);
}

std::string get(int port, const std::string& target) {
  return http(port, "GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n");
}

// The status line's code of a response ("HTTP/1.1 416 …" → 416), or 0.
int status_of(const std::string& response) {
  return response.rfind("HTTP/1.1 ", 0) == 0 ? std::atoi(response.c_str() + 9) : 0;
}

// `atoll view RECORDING --port 0` running in the background; stop() interrupts it (Ctrl-C) and
// returns its exit status.
struct Server {
  FILE* pipe = nullptr;
  pid_t pid = 0;
  int port = 0;
  std::string printed;

  explicit Server(const std::string& recording) {
    // The shell prints its pid, then becomes atoll (exec), so that the test can interrupt it.
    const std::string command = "sh -c 'echo $$; exec " + std::string(ATOLL_CLI_PATH) + " view " +
                                recording + " --port 0' 2>&1";
    pipe = popen(command.c_str(), "r");
    char line[512];
    if (pipe == nullptr || std::fgets(line, sizeof(line), pipe) == nullptr) return;
    pid = pid_t(std::stol(line));
    if (std::fgets(line, sizeof(line), pipe) == nullptr) return;
    printed = line;
    const size_t at = printed.find("http://127.0.0.1:");
    if (at != std::string::npos) port = std::atoi(printed.c_str() + at + 17);
  }
  int stop() { return finish(true); }
  // Waits for it to exit on its own (without the viewer it refuses at once: interrupting it
  // then raced its exit and sometimes gave 130 instead of its status 1).
  int wait() { return finish(false); }
  int finish(bool interrupt) {
    if (pipe == nullptr) return -1;
    if (interrupt && pid > 0) ::kill(pid, SIGINT);
    const int status = pclose(pipe);
    pipe = nullptr;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  ~Server() { stop(); }
};

// A connection to 127.0.0.1:port with a small receive buffer (so that the server's sends
// block), or -1.
int connect_small(int port) { return connect_loopback(port, 4096); }

TEST_F(CliViewTest, RecordContactsNeedsARecordingAndFillsIt) {
  Outcome out = run_atoll("run tower10 --quiet --steps 2 --record-contacts");
  EXPECT_EQ(out.status, 2);
  EXPECT_EQ(out.output, "atoll: --record-contacts: needs --record FILE\n");
  out = run_atoll("run tower10 --quiet --steps 2 --record " + path("r.rec") +
                  " --record-contacts --max-contacts -1");
  EXPECT_EQ(out.status, 2);
  EXPECT_EQ(out.output, "atoll: --max-contacts: must be in [0, 4294967295], got -1\n");
  EXPECT_FALSE(fs::exists(path("r.rec")));
  out = run_atoll("run tower10 --quiet --steps 5 --record " + path("r.rec") +
                  " --record-contacts --max-contacts 4");
  ASSERT_EQ(out.status, 0) << out.output;
  const atl::Recording recording = atl::read_recording(path("r.rec")).value();
  EXPECT_TRUE(recording.header.contacts);
  EXPECT_EQ(recording.header.max_contacts_per_frame, 4u);
  EXPECT_EQ(recording.contacts(5).size(), 4u);  // ten stacked boxes touch in more than 4 places
}

TEST_F(CliViewTest, AMissingOrBadRecordingExits2WithOneLineAndWritesNothing) {
  Outcome out = run_atoll("view " + path("missing.rec") + " --html " + path("out.html"));
  EXPECT_EQ(out.status, 2);
  EXPECT_EQ(out.output, "atoll: " + path("missing.rec") + ": cannot open file\n");
  std::ofstream(path("bad.rec")) << "hello";
  out = run_atoll("view " + path("bad.rec") + " --html " + path("out.html"));
  EXPECT_EQ(out.status, 2);
  EXPECT_EQ(out.output,
            "atoll: " + path("bad.rec") + ": not an Atoll recording (no ATOLLREC magic)\n");
  out = run_atoll("view " + path("bad.rec") + " --port 0");  // refused before serving
  EXPECT_EQ(out.status, 2);
  EXPECT_EQ(std::count(out.output.begin(), out.output.end(), '\n'), 1) << out.output;
  EXPECT_FALSE(fs::exists(path("out.html")));
  EXPECT_FALSE(fs::exists(path("out.html.partial")));
  EXPECT_EQ(run_atoll("view").status, 2);  // the recording is required
  record("r.rec");
  const std::string before = read("r.rec");
  out = run_atoll("view --html " + path("r.rec") + " " + path("r.rec"));
  EXPECT_EQ(out.status, 2);
  EXPECT_EQ(out.output,
            "atoll: --html " + path("r.rec") + ": is the recording; choose another output path\n");
  EXPECT_EQ(read("r.rec"), before);
  EXPECT_NE(run_atoll("help view").output.find("--html"), std::string::npos);
}

TEST_F(CliViewTest, HtmlIsOneSelfContainedPageWithTheRecordingInside) {
  record("r.rec");
  const Outcome out = run_atoll("view --html " + path("page.html") + " " + path("r.rec"));
  if (!ATOLL_VIEWER_BUILT) {
    EXPECT_EQ(out.status, 1);
    EXPECT_NE(out.output.find("the viewer was not built"), std::string::npos) << out.output;
    EXPECT_FALSE(fs::exists(path("page.html")));
    return;
  }
  ASSERT_EQ(out.status, 0) << out.output;
  EXPECT_EQ(out.output, "");
  const std::string page = read("page.html");
  const std::string open = "<script id=\"atoll-recording\" type=\"application/octet-stream\">";
  const size_t begin = page.find(open);
  ASSERT_NE(begin, std::string::npos);
  const size_t end = page.find("</script>", begin);
  ASSERT_NE(end, std::string::npos);
  EXPECT_EQ(decode_base64(page.substr(begin + open.size(), end - begin - open.size())),
            read("r.rec"));
  // Nothing is loaded from elsewhere: no script or stylesheet by URL.
  EXPECT_EQ(page.find("<script src"), std::string::npos);
  EXPECT_EQ(page.find("<link rel=\"stylesheet\""), std::string::npos);
  EXPECT_NE(page.find("<canvas"), std::string::npos);
  EXPECT_FALSE(fs::exists(path("page.html.partial")));
}

TEST_F(CliViewTest, ServesThePageAndTheRecordingOnLoopbackUntilInterrupted) {
  record("r.rec");
  // The shell prints its pid, then becomes atoll (exec), so that the test can interrupt it.
  const std::string command = "sh -c 'echo $$; exec " + std::string(ATOLL_CLI_PATH) + " view " +
                              path("r.rec") + " --port 0' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  char line[512];
  ASSERT_NE(std::fgets(line, sizeof(line), pipe), nullptr);
  const pid_t pid = pid_t(std::stol(line));
  ASSERT_NE(std::fgets(line, sizeof(line), pipe), nullptr);
  const std::string printed = line;
  if (!ATOLL_VIEWER_BUILT) {
    EXPECT_NE(printed.find("the viewer was not built"), std::string::npos) << printed;
    EXPECT_EQ(WEXITSTATUS(pclose(pipe)), 1);
    return;
  }
  const std::string prefix = "atoll: viewing " + path("r.rec") + " at http://127.0.0.1:";
  ASSERT_EQ(printed.rfind(prefix, 0), 0u) << printed;
  const int port = std::stoi(printed.substr(prefix.size()));
  EXPECT_GT(port, 0);
  EXPECT_NE(printed.find("/ (Ctrl-C to stop)"), std::string::npos) << printed;

  const std::string recording = http(port, "GET /recording HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(recording.rfind("HTTP/1.1 200 OK\r\n", 0), 0u) << recording.substr(0, 100);
  EXPECT_NE(recording.find("Content-Type: application/octet-stream\r\n"), std::string::npos);
  EXPECT_EQ(body_of(recording), read("r.rec"));
  const std::string page = http(port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(page.rfind("HTTP/1.1 200 OK\r\n", 0), 0u);
  EXPECT_NE(page.find("Content-Type: text/html; charset=utf-8\r\n"), std::string::npos);
  EXPECT_NE(body_of(page).find("<canvas"), std::string::npos);
  // Served, the page fetches the header, the figures and the first chunk (preloaded while the
  // script is read): nothing is inlined.
  EXPECT_EQ(body_of(page).find("id=\"atoll-recording\""), std::string::npos);
  EXPECT_NE(body_of(page).find("<link rel=\"preload\" href=\"header\" as=\"fetch\""),
            std::string::npos);
  EXPECT_NE(body_of(page).find("<link rel=\"preload\" href=\"frames?first=0&amp;count=6\""),
            std::string::npos);
  EXPECT_EQ(http(port, "POST / HTTP/1.1\r\nHost: x\r\n\r\n").rfind("HTTP/1.1 405", 0), 0u);
  EXPECT_EQ(http(port, "GET /etc/passwd HTTP/1.1\r\n\r\n").rfind("HTTP/1.1 404", 0), 0u);
  EXPECT_EQ(http(port, "nonsense\r\n\r\n").rfind("HTTP/1.1 400", 0), 0u);

  // Ctrl-C ends it cleanly.
  ASSERT_EQ(::kill(pid, SIGINT), 0);
  const int status = pclose(pipe);
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST_F(CliViewTest, ServesTheHeaderFiguresFramesAndContactsSeparately) {
  const Outcome made =
      run_atoll("run tower10 --quiet --steps 12 --record " + path("r.rec") + " --record-contacts");
  ASSERT_EQ(made.status, 0) << made.output;
  Server server(path("r.rec"));
  if (!ATOLL_VIEWER_BUILT) {
    EXPECT_NE(server.printed.find("the viewer was not built"), std::string::npos);
    EXPECT_EQ(server.wait(), 1);
    return;
  }
  ASSERT_GT(server.port, 0) << server.printed;
  const int port = server.port;
  const atl::Recording rec = atl::read_recording(path("r.rec")).value();
  const size_t frame_bytes = rec.bytes_per_frame(), frames = rec.num_frames();
  ASSERT_EQ(frames, 13u);
  const std::string file = read("r.rec");
  uint32_t header_bytes = 0;
  std::memcpy(&header_bytes, file.data() + 12, 4);

  // /header: the numbers a reader needs and the recording's header JSON.
  const std::string header = get(port, "/header");
  EXPECT_EQ(status_of(header), 200) << header.substr(0, 200);
  EXPECT_NE(header.find("Content-Type: application/json\r\n"), std::string::npos);
  std::string header_json = file.substr(16, header_bytes);
  header_json.erase(header_json.find_last_not_of(' ') + 1);
  EXPECT_EQ(
      body_of(header),
      "{\"version\": 3, \"frame_count\": 13, \"frame_bytes\": " + std::to_string(frame_bytes) +
          ", \"chunk_frames\": 13, \"stat_count\": " + std::to_string(rec.header.stats.size()) +
          ", \"contact_count\": " + std::to_string(rec.contact_data.size() / 28) +
          ", \"header\": " + header_json + "}");

  // /stats: every frame's figures, float32, frame after frame.
  const std::string stats = body_of(get(port, "/stats"));
  const size_t s = rec.header.stats.size();
  ASSERT_EQ(stats.size(), frames * s * 4);
  for (size_t k = 0; k < frames; ++k) {
    const std::vector<float> expected = rec.stats(k);
    for (size_t i = 0; i < s; ++i) {
      float value = 0;
      std::memcpy(&value, stats.data() + 4 * (k * s + i), 4);
      EXPECT_EQ(value, expected[i]) << "frame " << k << " figure " << rec.header.stats[i];
    }
  }

  // /frames: the frames' bytes as in the file, in either parameter order.
  const std::string frames_begin = file.substr(16 + header_bytes);
  EXPECT_EQ(body_of(get(port, "/frames?first=2&count=3")),
            frames_begin.substr(2 * frame_bytes, 3 * frame_bytes));
  EXPECT_EQ(body_of(get(port, "/frames?count=1&first=12")),
            frames_begin.substr(12 * frame_bytes, frame_bytes));
  EXPECT_EQ(body_of(get(port, "/frames?first=0&count=13")),
            frames_begin.substr(0, 13 * frame_bytes));
  // HEAD: the length without the bytes.
  const std::string head = http(port, "HEAD /frames?first=0&count=2 HTTP/1.1\r\n\r\n");
  EXPECT_NE(head.find("Content-Length: " + std::to_string(2 * frame_bytes) + "\r\n"),
            std::string::npos);
  EXPECT_EQ(body_of(head), "");

  // /contacts: the contacts of frames first … first + count − 1, as in the file.
  const std::string contacts_section = frames_begin.substr(frames * frame_bytes);
  const auto span = [&](size_t k) {
    uint32_t first = 0, count = 0;
    std::memcpy(&first, frames_begin.data() + (k + 1) * frame_bytes - 8, 4);
    std::memcpy(&count, frames_begin.data() + (k + 1) * frame_bytes - 4, 4);
    return std::pair<size_t, size_t>(first, count);
  };
  const size_t begin = span(4).first, end = span(8).first + span(8).second;
  EXPECT_GT(end, begin);
  EXPECT_EQ(body_of(get(port, "/contacts?first=4&count=5")),
            contacts_section.substr(28 * begin, 28 * (end - begin)));
  EXPECT_EQ(body_of(get(port, "/contacts?first=0&count=1")), "");  // no contacts before a step

  // Bad parameters: 400 with the reason; frames outside the recording: 416.
  const std::pair<const char*, int> bad[] = {
      {"/frames", 400},
      {"/frames?first=1", 400},
      {"/frames?first=x&count=1", 400},
      {"/frames?first=-1&count=1", 400},
      {"/frames?first=1&count=0", 400},
      {"/frames?first=1&count=2&first=3", 400},
      {"/frames?first=1&count=2&step=3", 400},
      {"/frames?first=1&count=", 400},
      {"/frames?first=1&count=1234567890123", 400},
      {"/frames?first=13&count=1", 416},
      {"/frames?first=12&count=2", 416},
      {"/frames?first=999999999999&count=999999999999", 416},
      {"/contacts?first=0&count=14", 416},
      {"/contacts?first=a&count=1", 400},
  };
  for (const auto& [target, status] : bad) {
    const std::string response = get(port, target);
    EXPECT_EQ(status_of(response), status) << target << ": " << response;
  }
  EXPECT_EQ(body_of(get(port, "/frames?first=x&count=1")),
            "/frames: first: expected a non-negative integer, got \"x\"\n");
  EXPECT_EQ(body_of(get(port, "/frames?first=13&count=1")),
            "/frames: frames 13 + 1 are outside the recording's frames 0 to 12\n");
  EXPECT_EQ(status_of(http(port, "POST /frames?first=0&count=1 HTTP/1.1\r\n\r\n")), 405);
  EXPECT_EQ(server.stop(), 0);

  // A recording without contacts: /contacts is not there.
  record("plain.rec");
  Server plain(path("plain.rec"));
  ASSERT_GT(plain.port, 0) << plain.printed;
  EXPECT_EQ(status_of(get(plain.port, "/contacts?first=0&count=1")), 404);
  EXPECT_EQ(status_of(get(plain.port, "/frames?first=0&count=6")), 200);
  EXPECT_EQ(plain.stop(), 0);
}

TEST_F(CliViewTest, AClientThatStallsOrLeavesMidResponseHoldsNothingUp) {
  // A recording of over 1 MB, read through a 4 kB receive buffer: the server's sends block.
  const Outcome made = run_atoll("run tower10 --quiet --steps 3000 --record " + path("r.rec"));
  ASSERT_EQ(made.status, 0) << made.output;
  Server server(path("r.rec"));
  if (!ATOLL_VIEWER_BUILT) return;
  ASSERT_GT(server.port, 0) << server.printed;
  const int port = server.port;
  // One client asks for the whole recording and reads a little of it; another connects and
  // sends nothing. Both are pending while the small requests are answered.
  const int reader = connect_small(port);
  ASSERT_GE(reader, 0);
  const std::string request = "GET /recording HTTP/1.1\r\n\r\n";
  ::send(reader, request.data(), request.size(), MSG_NOSIGNAL);
  char some[1024];
  EXPECT_GT(::recv(reader, some, sizeof(some), 0), 0);
  const int silent = connect_small(port);
  ASSERT_GE(silent, 0);
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(status_of(get(port, "/header")), 200);
  EXPECT_EQ(status_of(get(port, "/frames?first=3000&count=1")), 200);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));
  // The reader leaves in the middle of the response; the server goes on.
  ::close(reader);
  ::close(silent);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(status_of(get(port, "/stats")), 200);
  EXPECT_EQ(body_of(get(port, "/recording")), read("r.rec"));
  EXPECT_EQ(server.stop(), 0);
}

}  // namespace
}  // namespace cli_view_test
