// `atoll view`: the web viewer (viewer/, docs/viewer.md) for a recording. Serves the page and the
// recording on 127.0.0.1 with a small GET-only HTTP server, or writes one self-contained HTML
// file (--html) that opens from file://. The page is built at build time (esbuild) and
// compiled into this program (ViewerPage.h); a build without node has no page and says so.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "Commands.h"
#include "ViewerPage.h"
#include "atoll/run/Recording.h"

namespace atl::cli {

namespace {

namespace fs = std::filesystem;

// Where the page template takes the recording (--html) or nothing (served: the page fetches
// /header, /stats and the frames it shows).
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
    if (sent <= 0) return false;  // the client went away (or stalled past the send timeout)
    data.remove_prefix(size_t(sent));
  }
  return true;
}

std::string_view as_text(const std::vector<unsigned char>& bytes, size_t begin = 0,
                         size_t end = size_t(-1)) {
  end = std::min(end, bytes.size());
  return std::string_view(reinterpret_cast<const char*>(bytes.data()) + begin, end - begin);
}

// Sends a response whose body is the concatenation of `parts` (without them for HEAD).
void respond_parts(int fd, int status, std::string_view reason, std::string_view type,
                   std::initializer_list<std::string_view> parts, bool with_body) {
  size_t length = 0;
  for (const std::string_view part : parts) length += part.size();
  const std::string head = "HTTP/1.1 " + std::to_string(status) + " " + std::string(reason) +
                           "\r\nContent-Type: " + std::string(type) +
                           "\r\nContent-Length: " + std::to_string(length) +
                           "\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n";
  if (!send_all(fd, head) || !with_body) return;
  for (const std::string_view part : parts)
    if (!send_all(fd, part)) return;
}

void respond(int fd, int status, std::string_view reason, std::string_view type,
             std::string_view body, bool with_body) {
  respond_parts(fd, status, reason, type, {body}, with_body);
}

// Bytes of frames the page loads per request (docs/viewer.md, "Loading").
constexpr size_t k_chunk_bytes = size_t(4) << 20;

// What the server hands out, prepared once: the recording (checked) and the pieces the page
// loads separately (docs/viewer.md, "Endpoints").
struct ServedRecording {
  std::string page;
  /// The file's first 16 + H bytes: magic, version, header length, header.
  std::vector<unsigned char> prefix;
  Recording recording;
  size_t frame_bytes = 0;
  size_t frames = 0;
  /// Frames per chunk the page loads (about k_chunk_bytes of them, at least 1).
  size_t chunk_frames = 1;
  /// GET /header: {"version", "frame_count", "frame_bytes", "chunk_frames", "stat_count",
  /// "contact_count", "header": the recording's header JSON}.
  std::string header_json;
  /// GET /stats: every frame's figures, frame after frame, float32 little-endian (as in the
  /// file).
  std::string stats;

  /// Index of frame k's first contact and its number of contacts (version 2 and later).
  std::pair<uint64_t, uint64_t> contact_span(size_t k) const {
    const unsigned char* index =
        recording.frame_data.data() + k * frame_bytes + recording.contact_index_offset();
    uint32_t first = 0, count = 0;
    std::memcpy(&first, index, 4);  // little-endian file on a little-endian host
    std::memcpy(&count, index + 4, 4);
    return {first, count};
  }
};

// Parses a query "first=K&count=N" (both required, decimal, in any order, nothing else).
// Returns an error message, or "" with `first` and `count` set.
std::string parse_range_query(std::string_view query, uint64_t& first, uint64_t& count) {
  bool have_first = false, have_count = false;
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    const size_t eq = pair.find('=');
    const std::string_view key = pair.substr(0, eq);
    const std::string_view value =
        eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1);
    bool* seen = key == "first" ? &have_first : key == "count" ? &have_count : nullptr;
    if (seen == nullptr)
      return "unknown parameter \"" + std::string(key) + "\" (expected first and count)";
    if (*seen) return "parameter " + std::string(key) + " given twice";
    if (value.empty() || value.size() > 12 ||
        !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return std::string(key) + ": expected a non-negative integer, got \"" + std::string(value) +
             "\"";
    *seen = true;
    uint64_t v = 0;
    for (const char c : value) v = v * 10 + uint64_t(c - '0');
    (key == "first" ? first : count) = v;
  }
  if (!have_first || !have_count) return "expected ?first=K&count=N";
  if (count == 0) return "count: must be at least 1";
  return "";
}

// Answers one connection: GET (or HEAD) /, /recording, /header, /stats, /frames?first=K&count=N
// and /contacts?first=K&count=N; 404 for other paths, 405 for other methods, 400 for a request
// it cannot read or bad parameters, 416 for frames outside the recording.
void serve_one(int fd, const ServedRecording& served) {
  timeval timeout{5, 0};  // a client that sends nothing does not hold the server
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  timeval send_timeout{30, 0};  // nor one that stops reading
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &send_timeout, sizeof(send_timeout));
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
  const std::string full_target = line.substr(space1 + 1, space2 - space1 - 1);
  const size_t question = full_target.find('?');
  const std::string target = full_target.substr(0, question);
  const std::string query = question == std::string::npos ? "" : full_target.substr(question + 1);
  if (method != "GET" && method != "HEAD") {
    respond(fd, 405, "Method Not Allowed", "text/plain", "only GET\n", true);
    return;
  }
  const bool body = method == "GET";
  const Recording& rec = served.recording;
  constexpr std::string_view k_binary = "application/octet-stream";
  if (target == "/" || target == "/index.html") {
    respond(fd, 200, "OK", "text/html; charset=utf-8", served.page, body);
  } else if (target == "/recording") {
    respond_parts(fd, 200, "OK", k_binary,
                  {as_text(served.prefix), as_text(rec.frame_data), as_text(rec.contact_data)},
                  body);
  } else if (target == "/header") {
    respond(fd, 200, "OK", "application/json", served.header_json, body);
  } else if (target == "/stats") {
    respond(fd, 200, "OK", k_binary, served.stats, body);
  } else if (target == "/frames" || target == "/contacts") {
    uint64_t first = 0, count = 0;
    const std::string problem = parse_range_query(query, first, count);
    if (!problem.empty()) {
      respond(fd, 400, "Bad Request", "text/plain", target + ": " + problem + "\n", body);
      return;
    }
    if (first >= served.frames || count > served.frames - first) {
      respond(fd, 416, "Range Not Satisfiable", "text/plain",
              target + ": frames " + std::to_string(first) + " + " + std::to_string(count) +
                  " are outside the recording's frames 0 to " + std::to_string(served.frames - 1) +
                  "\n",
              body);
      return;
    }
    if (target == "/frames") {
      respond(
          fd, 200, "OK", k_binary,
          as_text(rec.frame_data, first * served.frame_bytes, (first + count) * served.frame_bytes),
          body);
      return;
    }
    if (rec.version < 2 || !rec.header.contacts) {
      respond(fd, 404, "Not Found", "text/plain",
              "/contacts: this recording has no contacts (atoll run --record-contacts)\n", body);
      return;
    }
    const uint64_t begin = served.contact_span(first).first;
    const auto [last_first, last_count] = served.contact_span(first + count - 1);
    respond(fd, 200, "OK", k_binary,
            as_text(rec.contact_data, begin * k_recording_contact_bytes,
                    (last_first + last_count) * k_recording_contact_bytes),
            body);
  } else {
    respond(fd, 404, "Not Found", "text/plain", "not found\n", body);
  }
}

// The connections being answered, one thread each (a big /recording download does not hold
// back the page's small requests); Ctrl-C shuts their sockets and joins them.
class Connections {
 public:
  void start(int fd, const ServedRecording& served) {
    std::lock_guard lock(mutex_);
    reap();
    auto done = std::make_shared<std::atomic<bool>>(false);
    open_.push_back(Open{fd, done, std::thread([fd, &served, done] {
                           serve_one(fd, served);
                           ::shutdown(fd, SHUT_RDWR);
                           done->store(true);
                         })});
  }
  void stop_all() {
    std::lock_guard lock(mutex_);
    for (Open& open : open_) ::shutdown(open.fd, SHUT_RDWR);
    for (Open& open : open_) {
      open.thread.join();
      ::close(open.fd);
    }
    open_.clear();
  }

 private:
  struct Open {
    int fd;
    std::shared_ptr<std::atomic<bool>> done;
    std::thread thread;
  };
  // Joins and closes the connections that are answered.
  void reap() {
    for (auto it = open_.begin(); it != open_.end();) {
      if (it->done->load()) {
        it->thread.join();
        ::close(it->fd);
        it = open_.erase(it);
      } else {
        ++it;
      }
    }
  }
  std::mutex mutex_;
  std::vector<Open> open_;
};

int serve(const ViewArgs& args, const ServedRecording& served) {
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
      ::listen(listener, 64) != 0) {
    const std::string reason = std::strerror(errno);
    ::close(listener);
    return bad_input("--port " + std::to_string(args.port) +
                     ": cannot listen on 127.0.0.1:" + std::to_string(args.port) + ": " + reason);
  }
  socklen_t length = sizeof(address);
  getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);
  const int port = ntohs(address.sin_port);

  // Ctrl-C (or SIGTERM) ends the loop: accept() returns EINTR (no SA_RESTART). The connection
  // threads block the signals, so that it reaches the accepting thread.
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);

  std::printf("atoll: viewing %s at http://127.0.0.1:%d/ (Ctrl-C to stop)\n",
              args.recording.c_str(), port);
  std::fflush(stdout);
  Connections connections;
  int status = k_exit_ok;
  while (g_stop == 0) {
    const int client = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      std::fprintf(stderr, "atoll: view: accept failed: %s\n", std::strerror(errno));
      status = k_exit_failure;
      break;
    }
    sigset_t previous;
    pthread_sigmask(SIG_BLOCK, &stop_signals, &previous);
    connections.start(client, served);
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  }
  connections.stop_all();
  ::close(listener);
  return status;
}

// Prepares what `serve` hands out; the recording is moved in.
void prepare(ServedRecording& served, Recording recording,
             const std::vector<unsigned char>& prefix) {
  served.prefix = prefix;
  served.recording = std::move(recording);
  const Recording& rec = served.recording;
  served.frame_bytes = rec.bytes_per_frame();
  served.frames = rec.num_frames();
  served.chunk_frames = std::clamp<size_t>(k_chunk_bytes / served.frame_bytes, 1, served.frames);
  const size_t num_stats = rec.version >= 2 ? rec.header.stats.size() : 0;
  uint64_t contact_count = 0;
  if (num_stats > 0) {
    const size_t stats_at = rec.stats_offset();
    served.stats.reserve(served.frames * 4 * num_stats);
    for (size_t k = 0; k < served.frames; ++k)
      served.stats.append(as_text(rec.frame_data, k * served.frame_bytes + stats_at,
                                  k * served.frame_bytes + stats_at + 4 * num_stats));
  }
  if (rec.version >= 2) contact_count = rec.contact_data.size() / k_recording_contact_bytes;
  std::string header_text(as_text(prefix, 16));
  while (!header_text.empty() && header_text.back() == ' ') header_text.pop_back();
  served.header_json = "{\"version\": " + std::to_string(rec.version) +
                       ", \"frame_count\": " + std::to_string(served.frames) +
                       ", \"frame_bytes\": " + std::to_string(served.frame_bytes) +
                       ", \"chunk_frames\": " + std::to_string(served.chunk_frames) +
                       ", \"stat_count\": " + std::to_string(num_stats) +
                       ", \"contact_count\": " + std::to_string(contact_count) +
                       ", \"header\": " + header_text + "}";
}

}  // namespace

int view_command(const ViewArgs& args) {
  // The recording is checked in full before anything is served or written.
  Result<Recording> recording = read_recording(args.recording);
  if (!recording) return bad_input(recording.error().message());
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
  // The file's first 16 + H bytes (magic, version, header length, header), checked above.
  std::ifstream in(args.recording, std::ios::binary);
  std::vector<unsigned char> prefix(16);
  in.read(reinterpret_cast<char*>(prefix.data()), 16);
  uint32_t header_bytes = 0;
  std::memcpy(&header_bytes, prefix.data() + 12, 4);
  prefix.resize(16 + size_t(header_bytes));
  in.read(reinterpret_cast<char*>(prefix.data()) + 16, header_bytes);
  if (!in) return bad_input(args.recording + ": cannot read");
  if (!args.html.empty()) {
    std::vector<unsigned char> bytes = prefix;
    bytes.insert(bytes.end(), recording->frame_data.begin(), recording->frame_data.end());
    bytes.insert(bytes.end(), recording->contact_data.begin(), recording->contact_data.end());
    return write_html(args, bytes);
  }
  // Served: the parsed recording is kept (frames and contacts held once) and served in parts.
  ServedRecording served;
  prepare(served, std::move(recording).value(), prefix);
  // The page asks for the header, the figures and the first chunk first: the browser fetches
  // them while it reads the page's script.
  const auto preload = [](const std::string& href) {
    return "<link rel=\"preload\" href=\"" + href + "\" as=\"fetch\" crossorigin=\"anonymous\">";
  };
  served.page =
      page_with(preload("header") + preload("stats") +
                preload("frames?first=0&amp;count=" + std::to_string(served.chunk_frames)));
  return serve(args, served);
}

}  // namespace atl::cli
