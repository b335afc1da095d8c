"""archfit resolve against the real docker-registry: every image kind of the
catalogue, by tag, by digest and by tag+digest, over plain http, TLS with a
CA file, and htpasswd basic auth (over TLS)."""

import base64
import os
import unittest

from lib import catalog, harness
from lib.archfit_case import ArchfitCase, docker_config
from lib.registry import Registry

PASSWORD = "Reg1stry-Passw0rd-7f3a9c"  # distinctive, so a leak is unmistakable
USER = "alice"
SECRETS = [PASSWORD, base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()]


def refs(registry, pushed):
    """(image as given, canonical, kind) for every kind, three ways each."""
    out = []
    for p in pushed.values():
        base = f"{registry.host}/{p.repo}"
        for image in (f"{base}:{p.tag}", f"{base}@{p.digest}", f"{base}:{p.tag}@{p.digest}"):
            out.append((image, image, p))
    return out


class RegistryCase(ArchfitCase):
    MODE = {}

    @classmethod
    def setUpClass(cls):
        cls.registry = Registry(**cls.MODE).start()
        try:
            cls.pushed = catalog.populate(cls.registry,
                                          catalog.layout_dir(harness.temp_dir("layout")))
        except BaseException:
            cls.registry.stop()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.registry.stop()

    def resolve_all(self, config, env=None):
        wanted = refs(self.registry, self.pushed)
        run, results = self.resolve([w[0] for w in wanted], config, env=env)
        for (image, canonical, p), result in zip(wanted, results):
            with self.subTest(image=image, kind=p.kind.name):
                self.assertResolved(result, p.kind.expected, p.digest, canonical, "registry")
        self.assertEqual(run.code, 0, run)
        self.assertCacheValid()
        return run

    def one(self, kind="oci-index"):
        p = self.pushed[kind]
        return f"{self.registry.host}/{p.repo}:{p.tag}", p


class PlainHttpTest(RegistryCase):
    def test_every_kind_three_ways(self):
        self.resolve_all(self.write_config({"insecureRegistries": [self.registry.host]}))

    def test_plain_http_needs_insecure_registries(self):
        image, _ = self.one()
        run, [result] = self.resolve([image], self.write_config({}))
        self.assertEqual(run.code, 3, run)
        self.assertFailed(result, self.registry.host)

    def test_cache_entries_follow_the_layout(self):
        self.resolve_all(self.write_config({"insecureRegistries": [self.registry.host]}))
        for p in self.pushed.values():
            self.assertCacheHas(p.digest, f"{self.registry.host}/{p.repo}:{p.tag}")


class TlsTest(RegistryCase):
    MODE = {"tls": True}

    def test_every_kind_three_ways_with_ca_file(self):
        self.resolve_all(self.write_config({"caFile": self.registry.ca_file}))

    def test_without_ca_file_a_tls_error(self):
        image, _ = self.one()
        run, [result] = self.resolve([image], self.write_config({}))
        self.assertEqual(run.code, 3, run)
        self.assertFailed(result, self.registry.host, r"(?i)certificate|tls|ssl|x509")
        self.assertNamesImage(run, result)


class HtpasswdTest(RegistryCase):
    MODE = {"tls": True, "users": {USER: PASSWORD}}

    def config(self, **resolve):
        return self.write_config({"caFile": self.registry.ca_file, **resolve})

    def test_every_kind_three_ways_with_docker_config(self):
        path = docker_config(os.path.join(self.tmp, "config.json"),
                             {self.registry.host: (USER, PASSWORD)})
        run = self.resolve_all(self.config(dockerConfig=path))
        self.assertNoSecrets(run, SECRETS)

    def test_docker_config_env(self):
        os.makedirs(os.path.join(self.tmp, "docker"))
        docker_config(os.path.join(self.tmp, "docker", "config.json"),
                      {self.registry.host: (USER, PASSWORD)})
        image, p = self.one("docker-list")
        run, [result] = self.resolve([image], self.config(), args=["-v"],
                                     env={"DOCKER_CONFIG": os.path.join(self.tmp, "docker")})
        self.assertResolved(result, p.kind.expected, p.digest)
        self.assertNoSecrets(run, SECRETS)

    def test_credentials_dir(self):
        creds = os.path.join(self.tmp, "creds")
        os.makedirs(creds)
        with open(os.path.join(creds, f"{self.registry.host}.toml"), "w") as f:
            f.write(f'user = "{USER}"\nsecret = "{PASSWORD}"\n')
        image, p = self.one("oci-single")
        run, [result] = self.resolve([image], self.config(credentialsDir=creds))
        self.assertResolved(result, p.kind.expected, p.digest)
        self.assertNoSecrets(run, SECRETS)

    def test_no_credentials_is_a_401_naming_the_source(self):
        image, _ = self.one()
        run, [result] = self.resolve([image], self.config())
        self.assertEqual(run.code, 3, run)
        self.assertFailed(result, "401", "UNAUTHORIZED", self.registry.host,
                          r"credentials: none")
        self.assertNamesImage(run, result)
        self.assertCacheValid()

    def test_wrong_password_names_the_source_not_the_secret(self):
        wrong = "Wr0ng-Passw0rd-e41b7d"
        path = docker_config(os.path.join(self.tmp, "config.json"),
                             {self.registry.host: (USER, wrong)})
        image, _ = self.one()
        run, [result] = self.resolve([image], self.config(dockerConfig=path), args=["-v"])
        self.assertEqual(run.code, 3, run)
        self.assertFailed(result, "401", self.registry.host, r"credentials: (?!none)")
        self.assertNoSecrets(run, [wrong, base64.b64encode(f"{USER}:{wrong}".encode()).decode()])


if __name__ == "__main__":
    unittest.main()
