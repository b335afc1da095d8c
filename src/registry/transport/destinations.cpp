#include "registry/transport/destinations.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <array>
#include <cstring>
#include <netinet/in.h>
#include <sys/socket.h>

#include <archfit/base/text.hpp>

#include "registry/transport/url.hpp"

namespace archfit::registry {

namespace {

constexpr std::array<std::string_view, 4> kMetadataNames = {
    "metadata.google.internal", "metadata", "metadata.azure.internal", "instance-data"};

bool is_link_local_v4(const unsigned char* a) {
  return a[0] == 169 && a[1] == 254;
}

bool is_link_local_v6(const unsigned char* a) {
  // fe80::/10, and AWS's metadata service at fd00:ec2::254.
  static constexpr unsigned char kAwsMetadata[16] = {0xfd, 0x00, 0x0e, 0xc2, 0, 0, 0,    0,
                                                     0,    0,    0,    0,    0, 0, 0x02, 0x54};
  if (a[0] == 0xfe && (a[1] & 0xc0) == 0x80) return true;
  if (std::memcmp(a, kAwsMetadata, 16) == 0) return true;
  // An IPv4 address mapped into IPv6 (::ffff:169.254.x.y).
  static constexpr unsigned char kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  return std::memcmp(a, kMapped, 12) == 0 && is_link_local_v4(a + 12);
}

// 127.0.0.0/8, and 0.0.0.0/8: a connection to "this network" reaches this
// machine.
bool is_loopback_v4(const unsigned char* a) {
  return a[0] == 127 || a[0] == 0;
}

// ::1, the unspecified ::, and the IPv4 ones mapped into IPv6.
bool is_loopback_v6(const unsigned char* a) {
  static constexpr unsigned char kZero[15] = {};
  static constexpr unsigned char kMapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  if (std::memcmp(a, kZero, 15) == 0 && (a[15] == 0 || a[15] == 1)) return true;
  return std::memcmp(a, kMapped, 12) == 0 && is_loopback_v4(a + 12);
}

bool usable_text(std::string_view url) {
  return std::all_of(url.begin(), url.end(), [](char c) {
    auto u = static_cast<unsigned char>(c);
    return u > 0x20 && u < 0x7f;
  });
}

std::string describe(const Destination& d) {
  bool v6 = d.host.find(':') != std::string::npos;
  return d.scheme + "://" + (v6 ? "[" + d.host + "]" : d.host) + ":" + std::to_string(d.port);
}

}  // namespace

std::optional<Destination> destination_of(std::string_view url) {
  if (!usable_text(url)) return std::nullopt;
  // Read as libcurl reads the URLs it connects to.
  std::optional<UrlParts> parts = url_parts(url);
  if (!parts || (parts->scheme != "http" && parts->scheme != "https")) return std::nullopt;
  Destination d;
  d.scheme = parts->scheme;
  d.host = to_lower(parts->host);
  while (d.host.ends_with('.'))
    d.host.pop_back();  // "metadata.google.internal." is the same name
  if (d.host.empty() || parts->port <= 0 || parts->port > 65535) return std::nullopt;
  d.port = parts->port;
  return d;
}

bool is_loopback(std::string_view host) {
  if (host == "localhost" || host.ends_with(".localhost")) return true;
  unsigned char a[16];
  std::string h(host);
  // inet_aton, as the resolver: "127.1" and "2130706433" are 127.0.0.1.
  if (in_addr v4{}; inet_aton(h.c_str(), &v4) == 1) {
    return is_loopback_v4(reinterpret_cast<const unsigned char*>(&v4));
  }
  if (inet_pton(AF_INET6, h.c_str(), a) == 1) return is_loopback_v6(a);
  return false;
}

bool is_loopback(const sockaddr* address) {
  if (address == nullptr) return false;
  if (address->sa_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(address);
    return is_loopback_v4(reinterpret_cast<const unsigned char*>(&in->sin_addr));
  }
  if (address->sa_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(address);
    return is_loopback_v6(reinterpret_cast<const unsigned char*>(&in6->sin6_addr));
  }
  return false;
}

bool is_link_local(std::string_view host) {
  if (std::find(kMetadataNames.begin(), kMetadataNames.end(), host) != kMetadataNames.end()) {
    return true;
  }
  unsigned char a[16];
  std::string h(host);
  if (inet_pton(AF_INET, h.c_str(), a) == 1) return is_link_local_v4(a);
  if (inet_pton(AF_INET6, h.c_str(), a) == 1) return is_link_local_v6(a);
  return false;
}

bool is_link_local(const sockaddr* address) {
  if (address == nullptr) return false;
  if (address->sa_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(address);
    return is_link_local_v4(reinterpret_cast<const unsigned char*>(&in->sin_addr));
  }
  if (address->sa_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(address);
    return is_link_local_v6(reinterpret_cast<const unsigned char*>(&in6->sin6_addr));
  }
  return false;
}

std::string refuse_request(const Destination& registry, const Destination& target,
                           std::string_view what) {
  if (is_link_local(target.host) && target.host != registry.host) {
    return std::string(what) + " " + describe(target) +
           " is a link-local address, where cloud metadata services answer; archfit sends "
           "nothing there on behalf of the registry " +
           describe(registry);
  }
  return {};
}

std::string refuse_credentials(const Destination& registry, const Destination& target) {
  if (target.host == registry.host) {
    if (is_loopback(target.host) && target.port != registry.port) {
      return "the token server " + describe(target) +
             " is another port of the loopback interface than the registry's, where any local "
             "program may listen; archfit sends the registry's credentials there only when it is "
             "the registry's own port";
    }
    return {};
  }
  if (target.scheme == "https" && !is_loopback(target.host) && !is_link_local(target.host)) {
    return {};
  }
  return "the token server " + describe(target) + " is on another host than the registry " +
         describe(registry) +
         (target.scheme == "https" ? " and on this machine" : " and not reached over https") +
         "; archfit sends the registry's credentials only to the registry's own host or over "
         "https to another";
}

}  // namespace archfit::registry
