#include "registry/transport/trust_store.hpp"

#include <map>
#include <set>

#include <gtest/gtest.h>

namespace archfit::registry {
namespace {

struct Machine {
  std::map<std::string, std::string> env;
  std::set<std::string> files;

  TrustStore find(const std::string& configured = "", std::string_view built_in = "") const {
    auto getenv = [this](const std::string& name) -> std::optional<std::string> {
      auto it = env.find(name);
      if (it == env.end()) return std::nullopt;
      return it->second;
    };
    auto exists = [this](const std::string& path) { return files.contains(path); };
    return find_trust_store(configured, getenv, built_in, exists);
  }
};

TEST(TrustStore, TheConfiguredFileComesFirst) {
  Machine m{{{"SSL_CERT_FILE", "/env/ca.pem"}}, {"/etc/ssl/certs/ca-certificates.crt"}};
  EXPECT_EQ(m.find("/conf/ca.pem").file, "/conf/ca.pem");
}

TEST(TrustStore, SslCertFileAndDirAreHonoured) {
  Machine m{{{"SSL_CERT_FILE", "/env/ca.pem"}, {"SSL_CERT_DIR", "/env/certs:/more"}},
            {"/etc/ssl/certs/ca-certificates.crt"}};
  TrustStore store = m.find("", "/usr/lib/ssl/cert.pem");
  EXPECT_EQ(store.file, "/env/ca.pem");
  EXPECT_EQ(store.directory, "/env/certs:/more");

  Machine dir_only{{{"SSL_CERT_DIR", "/env/certs"}}, {"/etc/ssl/certs/ca-certificates.crt"}};
  store = dir_only.find();
  EXPECT_EQ(store.file, "");  // the directory alone, as the user asked
  EXPECT_EQ(store.directory, "/env/certs");
}

TEST(TrustStore, LibcurlsOwnBundleIsKeptWhereItExists) {
  Machine m{{}, {"/etc/ssl/certs/ca-certificates.crt"}};
  TrustStore store = m.find("", "/etc/ssl/certs/ca-certificates.crt");
  EXPECT_EQ(store.file, "");
  EXPECT_EQ(store.directory, "");
}

TEST(TrustStore, EachDistributionsBundleIsFound) {
  // A static executable (no built-in bundle), or one whose bundle is missing.
  for (const char* bundle : kCaBundles) {
    Machine m{{}, {bundle, "/etc/ssl/certs"}};
    EXPECT_EQ(m.find().file, bundle);
    EXPECT_EQ(m.find("", "/nonexistent/ca.crt").file, bundle);
  }
  Machine rhel{{}, {"/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/cert.pem"}};
  EXPECT_EQ(rhel.find().file, "/etc/pki/tls/certs/ca-bundle.crt");
}

TEST(TrustStore, ADirectoryOfCertificatesIsTheLastResort) {
  Machine m{{}, {"/etc/ssl/certs"}};
  TrustStore store = m.find();
  EXPECT_EQ(store.file, "");
  EXPECT_EQ(store.directory, "/etc/ssl/certs");
  EXPECT_EQ(Machine{}.find().directory, "");
}

}  // namespace
}  // namespace archfit::registry
