// How many requests the client has in flight to one host: the concurrency
// over HTTP/1.1 (each request a connection), more once the host answered over
// HTTP/2 (streams sharing one), and each host on its own.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <archfit/registry/protocol/client.hpp>

#include "registry/protocol/gates.hpp"
#include "support/fake_registry.hpp"

namespace archfit::registry {
namespace {

using archfit::testing::FakeRegistry;

// The registry behind a network that takes a moment per request, counting
// the requests in flight at once; its answers come over HTTP/2 or not.
class Network : public Transport {
 public:
  Network(Transport& registry, bool multiplexed) : registry_(registry), multiplexed_(multiplexed) {}

  HttpResponse perform(const HttpRequest& request) override {
    const std::size_t now = ++in_flight_;
    std::size_t seen = most_.load();
    while (now > seen && !most_.compare_exchange_weak(seen, now)) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
    HttpResponse response = registry_.perform(request);
    response.multiplexed = multiplexed_;
    --in_flight_;
    return response;
  }
  std::size_t most() const { return most_.load(); }

 private:
  Transport& registry_;
  bool multiplexed_;
  std::atomic<std::size_t> in_flight_{0};
  std::atomic<std::size_t> most_{0};
};

// `images` distinct images resolved by as many threads through one client.
std::size_t most_in_flight(bool multiplexed, std::size_t images, const ClientOptions& options) {
  FakeRegistry registry;
  for (std::size_t i = 0; i < images; ++i)
    registry.tags["t" + std::to_string(i)] = registry.add_image("linux", "arm64");
  Network network(registry, multiplexed);
  Keychain keychain;
  Client client(network, keychain, options);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < images; ++i) {
    threads.emplace_back([&client, i] {
      Resolved r = client.resolve(
          image::Reference::parse("registry.example/app:t" + std::to_string(i)), {}, nullptr);
      EXPECT_EQ(r.platforms.str(), "linux/arm64");
    });
  }
  for (std::thread& t : threads)
    t.join();
  return network.most();
}

ClientOptions options(std::size_t concurrency) {
  ClientOptions o;
  o.concurrency = concurrency;
  o.multiplexed_concurrency = multiplexed_concurrency(concurrency);
  return o;
}

TEST(Connections, OverHttp1AHostGetsTheConcurrencyAtOnce) {
  std::size_t most = most_in_flight(false, 48, options(4));
  EXPECT_LE(most, 4u);
  EXPECT_GE(most, 2u);  // it did run requests side by side
}

TEST(Connections, OverHttp2AHostGetsMoreOnceItAnsweredSo) {
  std::size_t most = most_in_flight(true, 48, options(4));
  EXPECT_GT(most, 4u);
  EXPECT_LE(most, multiplexed_concurrency(4));
}

TEST(Connections, HttpTwoStreamsAreEightTimesTheConcurrencyUpToOneConnection) {
  EXPECT_EQ(multiplexed_concurrency(1), 8u);
  EXPECT_EQ(multiplexed_concurrency(4), 32u);
  EXPECT_EQ(multiplexed_concurrency(16), 100u);
  EXPECT_EQ(multiplexed_concurrency(256), 100u);
}

TEST(HostGates, EachHostHasItsOwnLimitAndWideningIsPerHost) {
  HostGates gates(2, 5);
  const std::string a = "a.example";
  const std::string b = "b.example";
  std::atomic<int> entered{0};
  std::vector<std::thread> threads;
  std::atomic<bool> release{false};
  auto hold = [&](const std::string& host) {
    HostGates::Slot slot = gates.enter(host);
    ++entered;
    while (!release)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  };
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back(hold, std::cref(a));
    threads.emplace_back(hold, std::cref(b));
  }
  // Two of each host's four get in; widening b lets its other two in.
  while (entered < 4)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(entered.load(), 4);
  gates.widen(b);
  while (entered < 6)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(entered.load(), 6);
  release = true;
  for (std::thread& t : threads)
    t.join();
  EXPECT_EQ(gates.most_in_flight(a), 2u);
  EXPECT_EQ(gates.most_in_flight(b), 4u);
}

}  // namespace
}  // namespace archfit::registry
