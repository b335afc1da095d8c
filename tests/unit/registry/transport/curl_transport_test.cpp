// The real transport refuses, without connecting, what must not go out: a
// link-local address for a request that may not reach one (a host name can
// resolve to one, so the check is on the address about to be connected to),
// this machine's addresses for a request carrying credentials elsewhere than
// the registry's own port, and a URL or header value with a control character.
#include <chrono>

#include <gtest/gtest.h>

#include <archfit/registry/transport/curl_transport.hpp>

namespace archfit::registry {
namespace {

HttpRequest quick(const std::string& url) {
  HttpRequest r;
  r.url = url;
  r.timeout = std::chrono::milliseconds(3000);
  r.connect_timeout = std::chrono::milliseconds(1000);
  return r;
}

TEST(CurlTransport, RefusesLinkLocalAddressesUnlessAllowed) {
  CurlTransport transport;
  for (std::string url : std::vector<std::string>{"http://169.254.169.254/latest/meta-data/",
                                                  "http://169.254.0.7:5000/v2/",
                                                  "http://[::ffff:169.254.169.254]/"}) {
    auto start = std::chrono::steady_clock::now();
    HttpResponse r = transport.perform(quick(url));
    EXPECT_EQ(r.failure, Failure::Refused) << url << ": " << r.failure_message;
    EXPECT_NE(r.failure_message.find("refused to connect to "), std::string::npos)
        << r.failure_message;
    EXPECT_NE(r.failure_message.find("a link-local address"), std::string::npos);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(900)) << url;
  }
}

TEST(CurlTransport, RefusesThisMachinesAddressesUnlessAllowed) {
  // Checked on the address connected to, whatever the name: localhost, a
  // short form, "this network", IPv6.
  CurlTransport transport;
  for (std::string url :
       std::vector<std::string>{"http://localhost:1/token", "http://127.1:1/token",
                                "http://0.0.0.0:1/", "http://[::1]:1/"}) {
    HttpRequest r = quick(url);
    r.allow_loopback = false;
    HttpResponse refused = transport.perform(r);
    EXPECT_EQ(refused.failure, Failure::Refused) << url << ": " << refused.failure_message;
    EXPECT_NE(refused.failure_message.find("an address of this machine"), std::string::npos)
        << refused.failure_message;
    // Allowed, the connection is tried (and port 1 refuses it).
    EXPECT_EQ(transport.perform(quick(url)).failure, Failure::Connect) << url;
  }
}

TEST(CurlTransport, RefusesControlCharactersInHeadersAndUrls) {
  CurlTransport transport;
  // Port 1 on loopback: a connection attempt would fail with Connect, not Refused.
  HttpRequest header = quick("http://127.0.0.1:1/v2/");
  header.headers.emplace_back("Authorization", "Bearer abc\r\nX-Injected: evil");
  HttpResponse r = transport.perform(header);
  EXPECT_EQ(r.failure, Failure::Refused) << r.failure_message;
  EXPECT_EQ(r.failure_message,
            "refused to send the header Authorization: its value holds a control character");

  HttpRequest bare = quick("http://127.0.0.1:1/v2/");
  bare.headers.emplace_back("Accept", "a\nb");
  EXPECT_EQ(transport.perform(bare).failure, Failure::Refused);

  HttpResponse url = transport.perform(quick("http://127.0.0.1:1/v2/\r\nX: y"));
  EXPECT_EQ(url.failure, Failure::Refused) << url.failure_message;

  HttpResponse fine = transport.perform(quick("http://127.0.0.1:1/v2/"));
  EXPECT_EQ(fine.failure, Failure::Connect) << fine.failure_message;
}

}  // namespace
}  // namespace archfit::registry
