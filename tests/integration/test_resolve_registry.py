"""archfit resolve against the real docker-registry: every image kind of the
catalogue, by tag, by digest and by tag+digest, over plain http, TLS with a
CA file, and htpasswd basic auth (over TLS)."""

import base64
import json
import os
import shutil
import subprocess
import unittest

from lib import catalog, harness
from lib.archfit_case import ArchfitCase, docker_config
from lib.registry import Registry

PASSWORD = "Reg1stry-Passw0rd-7f3a9c"  # distinctive, so a leak is unmistakable
USER = "alice"
SECRETS = [PASSWORD, base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()]


SECRET = """---
apiVersion: v1
kind: Secret
metadata:
  name: regcred
  namespace: {namespace}
type: kubernetes.io/dockerconfigjson
data:
  .dockerconfigjson: {data}
"""

POD_IN_NAMESPACE = """---
apiVersion: v1
kind: Pod
metadata:
  name: {name}
  namespace: {namespace}
spec:
  imagePullSecrets:
  - name: regcred
  containers:
  - name: main
    image: {image}
"""


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

    def test_ssl_cert_file_and_dir_are_honoured(self):
        image, p = self.one()
        run, [result] = self.resolve([image], self.write_config({}),
                                     env={"SSL_CERT_FILE": self.registry.ca_file})
        self.assertResolved(result, p.kind.expected, p.digest)
        # A directory of hashed certificates (openssl rehash), as SSL_CERT_DIR names it.
        certs = os.path.join(self.tmp, "certs")
        os.makedirs(certs)
        shutil.copy(self.registry.ca_file, os.path.join(certs, "registry-ca.pem"))
        subprocess.run(["openssl", "rehash", certs], check=True, capture_output=True)
        image, p = self.one("docker-list")
        run, [result] = self.resolve([image], self.write_config({}), env={"SSL_CERT_DIR": certs})
        self.assertResolved(result, p.kind.expected, p.digest)

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

    def test_fix_uses_the_pull_secret_of_the_namespace(self):
        """archfit fix, no lock: the Secret in the stream opens the registry
        for the pod that lists it in its namespace, and for no other."""
        auth = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
        dockerconfig = json.dumps({"auths": {self.registry.host: {"auth": auth}}})
        secret_data = base64.b64encode(dockerconfig.encode()).decode()
        arm_image, _ = self.one("oci-single")  # linux/arm64 only
        other_image, _ = self.one("docker-list")
        other = POD_IN_NAMESPACE.format(name="elsewhere", namespace="other", image=other_image)
        text = (SECRET.format(namespace="shop", data=secret_data)
                + POD_IN_NAMESPACE.format(name="api", namespace="shop", image=arm_image)
                + other)
        manifests = os.path.join(self.tmp, "app.yaml")
        with open(manifests, "w") as f:
            f.write(text)
        run = self.archfit(["fix", "-v", "--config", self.config(), "--cache-dir",
                            self.cache_dir, manifests])
        self.assertIn(run.code, (0, 1), run)
        with open(manifests) as f:
            fixed = f.read()
        api = fixed[:fixed.index("name: elsewhere")]
        self.assertRegex(api, r"key: kubernetes.io/arch\n\s+operator: In\n\s+values:\n\s+- arm64")
        self.assertTrue(fixed.endswith(other), "the pod without credentials was changed")
        self.assertIn(other_image, run.stderr)
        self.assertIn("401", run.stderr)
        self.assertNoSecrets(run, SECRETS + [secret_data])
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
