#include <algorithm>
#include <arpa/inet.h>
#include <charconv>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <map>
#include <mutex>
#include <netinet/in.h>
#include <stdexcept>
#include <sys/socket.h>
#include <thread>

#include <archfit/base/error.hpp>
#include <archfit/base/text.hpp>
#include <archfit/base/threads.hpp>
#include <archfit/registry/transport/curl_transport.hpp>

#include "registry/transport/destinations.hpp"
#include "registry/transport/libcurl.hpp"
#include "registry/transport/trust_store.hpp"

namespace archfit::registry {

namespace {

// One request in flight: owned by the caller of perform(), which waits on
// `done`; every libcurl call on it happens on the loop thread.
struct Exchange {
  const HttpRequest* request = nullptr;
  HttpResponse response;
  CURL* easy = nullptr;
  curl_slist* headers = nullptr;
  char error[CURL_ERROR_SIZE] = {};
  bool too_large = false;
  std::string refused;  // why archfit would not connect or send
  std::size_t header_bytes = 0;
  bool too_many_headers = false;
  long status = 0;  // of the response whose headers are arriving
  bool finished = false;
  std::mutex mutex;
  std::condition_variable done;
};

// Registries send a few hundred bytes of headers; past this much the
// answer is broken, and asking again would not mend it.
constexpr std::size_t kMaxHeaderBytes = 128 * 1024;

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* ex = static_cast<Exchange*>(user);
  ex->header_bytes += size * count;
  if (ex->header_bytes > kMaxHeaderBytes) {
    ex->too_many_headers = true;
    return 0;
  }
  std::string_view line(data, size * count);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
    line.remove_suffix(1);
  if (line.rfind("HTTP/", 0) == 0) {
    // A new status line: an interim (1xx) response came first; keep only the last.
    ex->response.headers.clear();
    std::size_t space = line.find(' ');
    ex->status = 0;
    if (space != std::string_view::npos) {
      std::string_view code = line.substr(space + 1, 3);
      std::from_chars(code.data(), code.data() + code.size(), ex->status);
    }
    return size * count;
  }
  std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) return size * count;
  std::string name = to_lower(trim(line.substr(0, colon)));
  std::string value(trim(line.substr(colon + 1)));
  if (name == "content-length" && ex->request->method != "HEAD" && ex->status < 300) {
    std::size_t length = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), length);
    if (ec == std::errc() && length > ex->request->max_body) {
      ex->too_large = true;
      return 0;  // stop before reading a body we would refuse anyway
    }
  }
  ex->response.headers.emplace_back(std::move(name), std::move(value));
  return size * count;
}

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* ex = static_cast<Exchange*>(user);
  std::size_t n = size * count;
  if (ex->status >= 300) {
    std::size_t room = ex->request->max_error_body -
                       std::min(ex->request->max_error_body, ex->response.body.size());
    ex->response.body.append(data, std::min(room, n));
    return n;
  }
  if (ex->response.body.size() + n > ex->request->max_body) {
    ex->too_large = true;
    return 0;
  }
  ex->response.body.append(data, n);
  return n;
}

std::string address_text(const curl_sockaddr& address) {
  char text[INET6_ADDRSTRLEN] = "?";
  const void* raw =
      address.family == AF_INET
          ? static_cast<const void*>(&reinterpret_cast<const sockaddr_in*>(&address.addr)->sin_addr)
          : static_cast<const void*>(
                &reinterpret_cast<const sockaddr_in6*>(&address.addr)->sin6_addr);
  inet_ntop(address.family, raw, text, sizeof text);
  return text;
}

// Opens the socket for a connection, unless it goes to an address the
// request may not reach: a host name can resolve to a link-local address, or
// to this machine's.
curl_socket_t open_socket(void* user, curlsocktype, curl_sockaddr* address) {
  auto* ex = static_cast<Exchange*>(user);
  if (!ex->request->allow_link_local && is_link_local(&address->addr)) {
    ex->refused = "refused to connect to " + address_text(*address) +
                  ", a link-local address (where cloud metadata services answer)";
    return CURL_SOCKET_BAD;
  }
  if (!ex->request->allow_loopback && is_loopback(&address->addr)) {
    ex->refused = "refused to send the registry's credentials to " + address_text(*address) +
                  ", an address of this machine on another port than the registry's (any local "
                  "program may listen there)";
    return CURL_SOCKET_BAD;
  }
  return ::socket(address->family, address->socktype, address->protocol);
}

// A header line or URL with a control character would let a value end the
// line and start another: nothing of the kind is sent.
bool sendable(std::string_view text) {
  return std::none_of(text.begin(), text.end(), [](char c) {
    auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && c != '\t') || u == 0x7f;
  });
}

// Found once per process and configured file (see trust_store.hpp).
const TrustStore& trust_store(const std::string& configured) {
  static std::mutex mutex;
  static std::map<std::string, TrustStore> found;
  std::lock_guard lock(mutex);
  auto it = found.find(configured);
  if (it == found.end()) {
    const curl_version_info_data* info = libcurl().version_info(CURLVERSION_NOW);
    std::string_view built_in = info != nullptr && info->cainfo != nullptr ? info->cainfo : "";
    auto exists = [](const std::string& path) {
      std::error_code ignored;
      return std::filesystem::exists(path, ignored);
    };
    it = found.emplace(configured, find_trust_store(configured, process_getenv(), built_in, exists))
             .first;
  }
  return it->second;
}

void set_up(Exchange& ex) {
  if (!sendable(ex.request->url)) {
    ex.refused = "refused to send a request whose URL holds a control character";
    return;
  }
  for (const auto& [name, value] : ex.request->headers) {
    if (!sendable(name) || !sendable(value)) {
      ex.refused = "refused to send the header " + printable(name, 40) +
                   ": its value holds a control character";
      return;
    }
  }
  const Libcurl& curl = libcurl();
  const HttpRequest& r = *ex.request;
  CURL* e = curl.easy_init();
  if (e == nullptr)
    fail(ErrorKind::Resolution, "libcurl could not start a transfer (curl_easy_init failed)");
  ex.easy = e;
  curl.easy_setopt(e, CURLOPT_PRIVATE, &ex);
  curl.easy_setopt(e, CURLOPT_URL, r.url.c_str());
  curl.easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
  curl.easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl.easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
  curl.easy_setopt(e, CURLOPT_USERAGENT, "archfit");
  curl.easy_setopt(e, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_2TLS));
  curl.easy_setopt(e, CURLOPT_PIPEWAIT, 1L);
  curl.easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(r.timeout.count()));
  curl.easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(r.connect_timeout.count()));
  curl.easy_setopt(e, CURLOPT_SSL_VERIFYPEER, r.verify_tls ? 1L : 0L);
  curl.easy_setopt(e, CURLOPT_SSL_VERIFYHOST, r.verify_tls ? 2L : 0L);
  const TrustStore& store = trust_store(r.ca_file);
  if (!store.file.empty()) curl.easy_setopt(e, CURLOPT_CAINFO, store.file.c_str());
  if (!store.directory.empty()) curl.easy_setopt(e, CURLOPT_CAPATH, store.directory.c_str());
  curl.easy_setopt(e, CURLOPT_ERRORBUFFER, ex.error);
  curl.easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
  curl.easy_setopt(e, CURLOPT_HEADERDATA, &ex);
  curl.easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
  curl.easy_setopt(e, CURLOPT_WRITEDATA, &ex);
  curl.easy_setopt(e, CURLOPT_OPENSOCKETFUNCTION, open_socket);
  curl.easy_setopt(e, CURLOPT_OPENSOCKETDATA, &ex);
  if (r.method == "HEAD") {
    curl.easy_setopt(e, CURLOPT_NOBODY, 1L);
  } else if (r.method == "POST") {
    curl.easy_setopt(e, CURLOPT_POSTFIELDSIZE, static_cast<long>(r.body.size()));
    curl.easy_setopt(e, CURLOPT_COPYPOSTFIELDS, r.body.c_str());
  }
  for (const auto& [name, value] : r.headers) {
    std::string line = name + ": " + value;
    ex.headers = curl.slist_append(ex.headers, line.c_str());
  }
  // libcurl adds "Expect: 100-continue" to larger POSTs; registries do not need it.
  ex.headers = curl.slist_append(ex.headers, "Expect:");
  curl.easy_setopt(e, CURLOPT_HTTPHEADER, ex.headers);
}

// The server spoke HTTP/2 wrongly (endless CONTINUATION frames, a header
// block past nghttp2's limits, a stream reset for a protocol error): an
// answer archfit cannot read, not a connection cut short, so not asked
// again. libcurl reports some of these as CURLE_RECV_ERROR, in nghttp2's words.
bool is_protocol_error(CURLcode code, const Exchange& ex) {
  if (code == CURLE_HTTP2 || code == CURLE_HTTP2_STREAM) return true;
  return code == CURLE_RECV_ERROR &&
         std::string_view(ex.error).find("nghttp2") != std::string_view::npos;
}

Failure classify(CURLcode code, const Exchange& ex) {
  if (!ex.refused.empty()) return Failure::Refused;
  if (ex.too_large) return Failure::TooLarge;
  if (ex.too_many_headers) return Failure::Broken;
  if (is_protocol_error(code, ex)) return Failure::Broken;
  switch (code) {
    case CURLE_OK:
      return Failure::None;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_PROXY:
      return Failure::Connect;
    case CURLE_OPERATION_TIMEDOUT:
      return Failure::Timeout;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
      return Failure::Tls;
    case CURLE_PARTIAL_FILE:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
      return Failure::Truncated;
    default:
      return Failure::Other;
  }
}

void finish(Exchange& ex, CURLcode code) {
  const Libcurl& curl = libcurl();
  long status = 0;
  curl.easy_getinfo(ex.easy, CURLINFO_RESPONSE_CODE, &status);
  ex.response.status = status;
  long version = 0;
  curl.easy_getinfo(ex.easy, CURLINFO_HTTP_VERSION, &version);
  ex.response.multiplexed = version >= CURL_HTTP_VERSION_2_0;
  ex.response.failure = classify(code, ex);
  if (ex.response.failure == Failure::Refused) {
    ex.response.failure_message = ex.refused;
  } else if (ex.too_many_headers) {
    ex.response.failure_message = "the response headers are larger than the limit of " +
                                  std::to_string(kMaxHeaderBytes) + " bytes";
  } else if (ex.response.failure == Failure::TooLarge) {
    ex.response.failure_message = "the response is larger than the limit of " +
                                  std::to_string(ex.request->max_body) + " bytes";
  } else if (ex.response.failure != Failure::None) {
    ex.response.failure_message = ex.error[0] != '\0' ? ex.error : curl.easy_strerror(code);
  }
  if (ex.response.failure != Failure::None) ex.response.body.clear();
}

}  // namespace

struct CurlTransport::Loop {
  CURLM* multi = nullptr;
  std::mutex mutex;
  std::deque<Exchange*> pending;
  bool stopping = false;
  std::thread thread;

  void run() {
    const Libcurl& curl = libcurl();
    int running = 0;
    for (;;) {
      std::deque<Exchange*> added;
      {
        std::lock_guard<std::mutex> hold(mutex);
        if (stopping && pending.empty() && running == 0) return;
        added.swap(pending);
      }
      for (Exchange* ex : added) {
        try {
          set_up(*ex);
          if (!ex->refused.empty()) {
            ex->response.failure = Failure::Refused;
            ex->response.failure_message = ex->refused;
            release(*ex);
            continue;
          }
          curl.multi_add_handle(multi, ex->easy);
          ++running;
        } catch (const std::exception& e) {
          ex->response.failure = Failure::Other;
          ex->response.failure_message = e.what();
          release(*ex);
        }
      }
      int still = 0;
      curl.multi_perform(multi, &still);
      int queued = 0;
      while (CURLMsg* msg = curl.multi_info_read(multi, &queued)) {
        if (msg->msg != CURLMSG_DONE) continue;
        Exchange* ex = nullptr;
        curl.easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &ex);
        finish(*ex, msg->data.result);
        curl.multi_remove_handle(multi, ex->easy);
        --running;
        release(*ex);
      }
      curl.multi_poll(multi, nullptr, 0, 1000, nullptr);
    }
  }

  static void release(Exchange& ex) {
    const Libcurl& curl = libcurl();
    if (ex.easy != nullptr) curl.easy_cleanup(ex.easy);
    ex.easy = nullptr;
    curl.slist_free_all(ex.headers);
    ex.headers = nullptr;
    std::lock_guard<std::mutex> hold(ex.mutex);
    ex.finished = true;
    ex.done.notify_one();
  }
};

CurlTransport::CurlTransport() : loop_(std::make_unique<Loop>()) {
  const Libcurl& curl = libcurl();
  loop_->multi = curl.multi_init();
  if (loop_->multi == nullptr) {
    fail(ErrorKind::Resolution,
         "cannot start libcurl (curl_multi_init failed); the registry cannot be reached");
  }
  curl.multi_setopt(loop_->multi, CURLMOPT_PIPELINING, static_cast<long>(CURLPIPE_MULTIPLEX));
  loop_->thread = try_thread([loop = loop_.get()] { loop->run(); });
  if (!loop_->thread.joinable()) {
    curl.multi_cleanup(loop_->multi);
    fail(ErrorKind::Resolution,
         "cannot start the thread that talks to registries: the system gives this process no "
         "more threads (a limit on processes: ulimit -u, or a container's pids limit); raise "
         "the limit, or run offline from the lock file (--offline)");
  }
}

CurlTransport::~CurlTransport() {
  const Libcurl& curl = libcurl();
  {
    std::lock_guard<std::mutex> hold(loop_->mutex);
    loop_->stopping = true;
  }
  curl.multi_wakeup(loop_->multi);
  loop_->thread.join();
  curl.multi_cleanup(loop_->multi);
}

HttpResponse CurlTransport::perform(const HttpRequest& request) {
  const Libcurl& curl = libcurl();
  Exchange ex;
  ex.request = &request;
  {
    std::lock_guard<std::mutex> hold(loop_->mutex);
    loop_->pending.push_back(&ex);
  }
  curl.multi_wakeup(loop_->multi);
  std::unique_lock<std::mutex> hold(ex.mutex);
  ex.done.wait(hold, [&] { return ex.finished; });
  return std::move(ex.response);
}

}  // namespace archfit::registry
