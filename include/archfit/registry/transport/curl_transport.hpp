// The real Transport: every request of a run goes through one libcurl multi
// handle driven by one thread, so connections are kept alive and shared, and
// HTTP/2 streams are multiplexed where the registry offers them. Callers on any
// thread block in perform() until their exchange completes.
#pragma once

#include <memory>

#include <archfit/registry/transport/http.hpp>

namespace archfit::registry {

class CurlTransport : public Transport {
 public:
  CurlTransport();
  ~CurlTransport() override;
  CurlTransport(const CurlTransport&) = delete;
  CurlTransport& operator=(const CurlTransport&) = delete;

  HttpResponse perform(const HttpRequest& request) override;

 private:
  struct Loop;
  std::unique_ptr<Loop> loop_;
};

}  // namespace archfit::registry
