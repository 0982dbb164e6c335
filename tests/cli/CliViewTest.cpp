// `atoll run --record-contacts` and `atoll view` (docs/viewer.md): the GET-only server on
// 127.0.0.1, the self-contained --html page, and bad recordings refused with one line and
// nothing written. The page itself is tested in a browser by viewer/test/browser-test.mjs.

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "atoll/run/Recording.h"
#include "cli/CliRun.h"

namespace {

namespace fs = std::filesystem;
using atl::cli_test::Outcome;
using atl::cli_test::run_atoll;

class CliViewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("atoll_cli_view_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string read(const std::string& name) const {
    std::ifstream in(path(name), std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  void record(const std::string& name) {
    const Outcome out = run_atoll("run tower10 --quiet --steps 5 --record " + path(name));
    ASSERT_EQ(out.status, 0) << out.output;
  }
  fs::path dir_;
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

// One HTTP request to 127.0.0.1:port; the whole response (the server closes the connection).
std::string http(int port, const std::string& request) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(uint16_t(port));
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    ::close(fd);
    return "connect failed";
  }
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
  // Served, the page fetches /recording: nothing is inlined.
  EXPECT_EQ(body_of(page).find("id=\"atoll-recording\""), std::string::npos);
  EXPECT_EQ(http(port, "POST / HTTP/1.1\r\nHost: x\r\n\r\n").rfind("HTTP/1.1 405", 0), 0u);
  EXPECT_EQ(http(port, "GET /etc/passwd HTTP/1.1\r\n\r\n").rfind("HTTP/1.1 404", 0), 0u);
  EXPECT_EQ(http(port, "nonsense\r\n\r\n").rfind("HTTP/1.1 400", 0), 0u);

  // Ctrl-C ends it cleanly.
  ASSERT_EQ(::kill(pid, SIGINT), 0);
  const int status = pclose(pipe);
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
