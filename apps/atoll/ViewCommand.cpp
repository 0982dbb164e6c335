// `atoll view`: the web viewer (viewer/, docs/viewer.md) for a recording. Serves the page and the
// recording on 127.0.0.1 with a small GET-only HTTP server, or writes one self-contained HTML
// file (--html) that opens from file://. The page is built at build time (esbuild) and
// compiled into this program (ViewerPage.h); a build without node has no page and says so.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "Commands.h"
#include "ViewerPage.h"
#include "atoll/run/Recording.h"

namespace atl::cli {

namespace {

namespace fs = std::filesystem;

// Where the page template takes the recording (--html) or nothing (served: the page fetches
// /recording).
constexpr std::string_view k_recording_marker = "<!--ATOLL_RECORDING-->";

int bad_input(const std::string& message) {
  std::fprintf(stderr, "atoll: %s\n", message.c_str());
  return k_exit_bad_input;
}

std::string base64(const std::vector<unsigned char>& bytes) {
  static constexpr char k_alphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const uint32_t v = uint32_t(bytes[i]) << 16 | uint32_t(bytes[i + 1]) << 8 | bytes[i + 2];
    for (int shift = 18; shift >= 0; shift -= 6) out.push_back(k_alphabet[(v >> shift) & 63]);
  }
  if (i < bytes.size()) {
    const bool two = i + 1 < bytes.size();
    const uint32_t v = uint32_t(bytes[i]) << 16 | (two ? uint32_t(bytes[i + 1]) << 8 : 0u);
    out.push_back(k_alphabet[(v >> 18) & 63]);
    out.push_back(k_alphabet[(v >> 12) & 63]);
    out.push_back(two ? k_alphabet[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

// The page with `insert` in place of the recording marker.
std::string page_with(std::string_view insert) {
  const std::string_view page(viewer_page_data(), viewer_page_size());
  const size_t at = page.find(k_recording_marker);
  std::string out;
  if (at == std::string_view::npos) return std::string(page);
  out.reserve(page.size() + insert.size());
  out.append(page.substr(0, at)).append(insert).append(page.substr(at + k_recording_marker.size()));
  return out;
}

int write_html(const ViewArgs& args, const std::vector<unsigned char>& recording) {
  const std::string page =
      page_with("<script id=\"atoll-recording\" type=\"application/octet-stream\">" +
                base64(recording) + "</script>");
  fs::path temp = args.html;
  temp += ".partial";
  std::error_code ec;
  if (fs::is_directory(args.html, ec))
    return bad_input(args.html + ": cannot write: is a directory");
  std::FILE* file = std::fopen(temp.c_str(), "wb");
  bool ok = file != nullptr;
  if (ok) {
    ok = std::fwrite(page.data(), 1, page.size(), file) == page.size();
    ok = std::fclose(file) == 0 && ok;
  }
  if (ok) {
    fs::rename(temp, args.html, ec);
    ok = !ec;
  }
  if (!ok) {
    const std::string reason = ec ? ec.message() : std::strerror(errno);
    fs::remove(temp, ec);
    return bad_input(args.html + ": cannot write: " + reason);
  }
  return k_exit_ok;
}

volatile sig_atomic_t g_stop = 0;
void on_stop_signal(int) { g_stop = 1; }

bool send_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t sent = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent <= 0) return false;
    data.remove_prefix(size_t(sent));
  }
  return true;
}

void respond(int fd, int status, std::string_view reason, std::string_view type,
             std::string_view body, bool with_body) {
  std::string head = "HTTP/1.1 " + std::to_string(status) + " " + std::string(reason) +
                     "\r\nContent-Type: " + std::string(type) +
                     "\r\nContent-Length: " + std::to_string(body.size()) +
                     "\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n";
  if (send_all(fd, head) && with_body) send_all(fd, body);
}

// Answers one connection: GET (or HEAD) / and /recording; 404 for other paths, 405 for other
// methods, 400 for a request line it cannot read.
void serve_one(int fd, const std::string& page, std::string_view recording) {
  timeval timeout{5, 0};  // a client that sends nothing does not hold the server
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  std::string request;
  char buffer[4096];
  while (request.find("\r\n\r\n") == std::string::npos && request.size() < 16384) {
    const ssize_t got = ::recv(fd, buffer, sizeof(buffer), 0);
    if (got < 0 && errno == EINTR && g_stop == 0) continue;
    if (got <= 0) break;
    request.append(buffer, size_t(got));
  }
  const size_t line_end = request.find("\r\n");
  const std::string line = request.substr(0, line_end);
  const size_t space1 = line.find(' ');
  const size_t space2 = space1 == std::string::npos ? space1 : line.find(' ', space1 + 1);
  if (line_end == std::string::npos || space2 == std::string::npos) {
    respond(fd, 400, "Bad Request", "text/plain", "bad request\n", true);
    return;
  }
  const std::string method = line.substr(0, space1);
  std::string target = line.substr(space1 + 1, space2 - space1 - 1);
  target = target.substr(0, target.find('?'));
  if (method != "GET" && method != "HEAD") {
    respond(fd, 405, "Method Not Allowed", "text/plain", "only GET\n", true);
    return;
  }
  const bool body = method == "GET";
  if (target == "/" || target == "/index.html")
    respond(fd, 200, "OK", "text/html; charset=utf-8", page, body);
  else if (target == "/recording")
    respond(fd, 200, "OK", "application/octet-stream", recording, body);
  else
    respond(fd, 404, "Not Found", "text/plain", "not found\n", body);
}

int serve(const ViewArgs& args, const std::vector<unsigned char>& recording) {
  if (args.port < 0 || args.port > 65535)
    return bad_input("--port: must be in [0, 65535], got " + std::to_string(args.port));
  const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listener < 0) return bad_input(std::string("view: cannot open a socket: ") + strerror(errno));
  const int yes = 1;
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(args.port));
  if (::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
      ::listen(listener, 16) != 0) {
    const std::string reason = std::strerror(errno);
    ::close(listener);
    return bad_input("--port " + std::to_string(args.port) +
                     ": cannot listen on 127.0.0.1:" + std::to_string(args.port) + ": " + reason);
  }
  socklen_t length = sizeof(address);
  getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);
  const int port = ntohs(address.sin_port);

  // Ctrl-C (or SIGTERM) ends the loop: accept() returns EINTR (no SA_RESTART).
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);

  const std::string page = page_with("");
  const std::string_view bytes(reinterpret_cast<const char*>(recording.data()), recording.size());
  std::printf("atoll: viewing %s at http://127.0.0.1:%d/ (Ctrl-C to stop)\n",
              args.recording.c_str(), port);
  std::fflush(stdout);
  while (g_stop == 0) {
    const int client = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      const std::string reason = std::strerror(errno);
      ::close(listener);
      std::fprintf(stderr, "atoll: view: accept failed: %s\n", reason.c_str());
      return k_exit_failure;
    }
    serve_one(client, page, bytes);
    ::close(client);
  }
  ::close(listener);
  return k_exit_ok;
}

}  // namespace

int view_command(const ViewArgs& args) {
  // The recording is checked in full before anything is served or written (and the parsed copy
  // is let go: a big recording is held once, as the bytes served).
  if (Result<Recording> recording = read_recording(args.recording); !recording)
    return bad_input(recording.error().message());
  if (!args.html.empty()) {
    std::error_code ec;
    if (fs::equivalent(args.html, args.recording, ec))
      return bad_input("--html " + args.html + ": is the recording; choose another output path");
  }
  if (viewer_page_size() == 0) {
    std::fprintf(stderr,
                 "atoll: view: the viewer was not built into this atoll (node or "
                 "viewer/node_modules were missing at build time, or -DATOLL_BUILD_VIEWER=OFF: "
                 "run scripts/setup.sh, then rebuild)\n");
    return k_exit_failure;
  }
  std::ifstream in(args.recording, std::ios::binary);
  const std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)),
                                         std::istreambuf_iterator<char>());
  if (!args.html.empty()) return write_html(args, bytes);
  return serve(args, bytes);
}

}  // namespace atl::cli
