"""The harness proves itself without archfit: what skopeo pushed reads back
with the expected media types and digests, the catalogue's expected platform
sets follow from the registry's content, the fake registry's faults behave,
and the delay proxy delays and counts. These pass before the registry client
exists, so a failure elsewhere is archfit's, not the harness's."""

import http.client
import json
import os
import subprocess
import sys
import time
import unittest
import urllib.error
import urllib.request

from lib import catalog, fake_registry as fr, harness, oci
from lib.registry import Registry

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))
from delay_proxy import DelayProxy  # noqa: E402

ACCEPT = [oci.OCI_INDEX, oci.DOCKER_LIST, oci.OCI_MANIFEST, oci.DOCKER_MANIFEST]


def reference_platforms(get_manifest, get_blob, digest, depth=0):
    """What a correct client reports, written plainly as the oracle for the
    catalogue: follow nested indexes, skip attestations, read the config when
    an entry has no platform, normalize arm64/v8 and sort."""
    if depth > 4:
        raise ValueError("index nested too deep")
    doc = json.loads(get_manifest(digest))
    found = set()
    if "manifests" in doc:
        for entry in doc["manifests"]:
            ann = entry.get("annotations", {})
            if ann.get(oci.ATTESTATION_ANNOTATION) == oci.ATTESTATION_VALUE:
                continue
            p = entry.get("platform")
            if entry["mediaType"] in oci.INDEX_TYPES or not p:
                found |= set(reference_platforms(get_manifest, get_blob, entry["digest"],
                                                 depth + 1))
            elif p["os"] != "unknown":
                found.add(_format(p))
    else:
        found.add(_format(json.loads(get_blob(doc["config"]["digest"]))))
    return sorted(found)


def _format(p):
    arch, variant = p["architecture"], p.get("variant")
    if arch == "arm64" and variant == "v8":
        variant = None
    return "/".join(x for x in (p["os"], arch, variant) if x)


class RealRegistryTest(unittest.TestCase):
    """Each mode: every kind pushed, read back by skopeo and by plain HTTP."""

    MODES = {"http": {}, "tls": {"tls": True},
             "htpasswd": {"tls": True, "users": {"alice": "harness-pw-31"}}}

    def check_mode(self, mode):
        with Registry(**self.MODES[mode]) as reg:
            pushed = catalog.populate(reg, catalog.layout_dir(harness.temp_dir("layout")))
            self.assertEqual(set(pushed), {k.name for k in catalog.KINDS})
            for name, p in pushed.items():
                with self.subTest(mode=mode, kind=name):
                    raw = reg.inspect_raw(f"{p.repo}:{p.tag}")
                    self.assertEqual(oci.sha256(raw), p.digest)
                    self.assertEqual(json.loads(raw).get("mediaType"), p.kind.media_type)
                    self.assertEqual(reg.inspect_raw(f"{p.repo}@{p.digest}"), raw)

                    def manifest(d, repo=p.repo):
                        return reg.request("GET", f"/v2/{repo}/manifests/{d}",
                                           headers={"Accept": ", ".join(ACCEPT)})[2]

                    def blob(d, repo=p.repo):
                        return reg.request("GET", f"/v2/{repo}/blobs/{d}")[2]

                    self.assertEqual(reference_platforms(manifest, blob, p.digest),
                                     p.kind.expected)
            return reg, pushed

    def test_plain_http(self):
        self.check_mode("http")

    def test_tls_needs_the_ca(self):
        with Registry(tls=True) as reg:
            self.assertEqual(reg.request("GET", "/v2/")[0], 200)
            proc = subprocess.run([harness.require_tool("skopeo"), "inspect", "--raw",
                                   f"docker://{reg.host}/nothing/here:v1"],
                                  capture_output=True, text=True, timeout=60)
            self.assertNotEqual(proc.returncode, 0)
            self.assertRegex(proc.stderr, r"certificate|x509")
        self.check_mode("tls")

    def test_htpasswd(self):
        reg, pushed = self.check_mode("htpasswd")
        # The registry is stopped now; a new one checks anonymous access is refused.
        with Registry(tls=True, users={"bob": "harness-pw-32"}) as reg:
            status, headers, body = reg.request("GET", "/v2/", auth=False)
            self.assertEqual(status, 401)
            self.assertIn("Basic", headers["WWW-Authenticate"])
            self.assertEqual(json.loads(body)["errors"][0]["code"], "UNAUTHORIZED")
            self.assertEqual(reg.request("GET", "/v2/")[0], 200)

    def test_registry_stops_cleanly(self):
        reg = Registry().start()
        pid = reg.proc.pid
        reg.stop()
        self.assertFalse(os.path.exists(f"/proc/{pid}"), "docker-registry still running")


class FakeRegistryTest(unittest.TestCase):
    def setUp(self):
        self.fake = fr.FakeRegistry().start()
        self.addCleanup(self.fake.stop)
        s = self.fake.store
        self.index = s.index([s.image("linux/amd64"), s.image("linux/arm64/v8")])
        self.fake.tag("multi/app", "v1", self.index)

    def get(self, path, headers=None, method="GET"):
        conn = http.client.HTTPConnection("127.0.0.1", self.fake.port, timeout=10)
        try:
            conn.request(method, path, headers=headers or {})
            resp = conn.getresponse()
            return resp, resp.read()
        finally:
            conn.close()

    def test_bearer_dance_and_log(self):
        self.fake.auth = "bearer"
        self.fake.service = 'fake "registry", eu'
        self.fake.challenge = "one-header"
        resp, _ = self.get("/v2/multi/app/manifests/v1")
        self.assertEqual(resp.status, 401)
        challenge = resp.getheader("WWW-Authenticate")
        self.assertIn('Basic realm="fake, basic", Bearer realm=', challenge)
        self.assertIn(r'service="fake \"registry\", eu"', challenge)
        self.assertIn('scope="repository:multi/app:pull"', challenge)
        query = "service=fake+%22registry%22%2C+eu&scope=repository%3Amulti%2Fapp%3Apull"
        resp, body = self.get(f"/token?{query}")
        token = json.loads(body)["token"]
        resp, body = self.get("/v2/multi/app/manifests/v1", {"Authorization": f"Bearer {token}"})
        self.assertEqual(resp.status, 200)
        self.assertEqual(oci.sha256(body), self.index["digest"])
        log = self.fake.requests(kind="manifest")
        self.assertEqual([e["status"] for e in log], [401, 200])
        self.assertEqual(log[1]["headers"]["authorization"], f"Bearer {token}")
        self.assertEqual(self.fake.requests(kind="token")[0]["query"]["service"],
                         ['fake "registry", eu'])

    def test_missing_repo_is_401_with_an_oci_error(self):
        self.fake.auth, self.fake.missing_repo_401 = "bearer", True
        resp, body = self.get("/token?scope=repository:nope/app:pull")
        token = json.loads(body)["token"]
        resp, body = self.get("/v2/nope/app/manifests/v1", {"Authorization": f"Bearer {token}"})
        self.assertEqual(resp.status, 401)
        self.assertEqual(json.loads(body)["errors"][0]["code"], "UNAUTHORIZED")
        self.assertIn('error="insufficient_scope"', resp.getheader("WWW-Authenticate"))

    def test_faults(self):
        f = self.fake
        f.fault(fr.manifest("multi/app"), fr.status(429, {"Retry-After": "1"}, "TOOMANYREQUESTS"),
                times=1)
        resp, body = self.get("/v2/multi/app/manifests/v1")
        self.assertEqual((resp.status, resp.getheader("Retry-After")), (429, "1"))
        resp, body = self.get("/v2/multi/app/manifests/v1")
        self.assertEqual(resp.status, 200, "times=1 fault fires once")

        f.faults.clear()
        f.fault(fr.manifest(), fr.truncated())
        conn = http.client.HTTPConnection("127.0.0.1", f.port, timeout=10)
        conn.request("GET", "/v2/multi/app/manifests/v1")
        with self.assertRaises(http.client.IncompleteRead):
            conn.getresponse().read()
        conn.close()

        f.faults.clear()
        f.fault(fr.manifest(), fr.wrong_body(b'{"schemaVersion":2}'))
        resp, body = self.get(f"/v2/multi/app/manifests/{self.index['digest']}")
        self.assertEqual(resp.getheader("Docker-Content-Digest"), self.index["digest"])
        self.assertNotEqual(oci.sha256(body), self.index["digest"])

        f.faults.clear()
        f.fault(fr.manifest(), fr.delay(0.5))
        start = time.monotonic()
        resp, body = self.get("/v2/multi/app/manifests/v1")
        self.assertGreaterEqual(time.monotonic() - start, 0.5)
        self.assertEqual(resp.status, 200)

    def test_blob_redirect_goes_to_storage(self):
        storage = fr.BlobStorage(self.fake.store).start()
        self.addCleanup(storage.stop)
        self.fake.blob_redirect = storage
        single = self.fake.store.image("linux/s390x", in_index=False)
        config = json.loads(self.fake.store.get(single["digest"]))["config"]["digest"]
        resp, _ = self.get(f"/v2/multi/app/blobs/{config}")
        self.assertEqual(resp.status, 307)
        location = resp.getheader("Location")
        self.assertTrue(location.startswith(f"http://{storage.host}/storage/"))
        with urllib.request.urlopen(location, timeout=10) as r:
            self.assertEqual(oci.sha256(r.read()), config)
        req = urllib.request.Request(location, headers={"Authorization": "Bearer x"})
        with self.assertRaises(urllib.error.HTTPError):
            urllib.request.urlopen(req, timeout=10)
        self.assertEqual(["authorization" in e["headers"] for e in storage.log], [False, True])


class DelayProxyTest(unittest.TestCase):
    def test_delays_counts_and_resets(self):
        with Registry() as reg, DelayProxy(reg.url, delay=0.05) as proxy:
            conn = http.client.HTTPConnection("127.0.0.1", proxy.server.server_port, timeout=10)
            times = []
            for method, path in [("GET", "/v2/"), ("HEAD", "/v2/a/b/manifests/v1"),
                                 ("GET", "/v2/a/b/manifests/v1"), ("GET", "/v2/a/blobs/sha256:" + "0" * 64)]:
                start = time.monotonic()
                conn.request(method, path)  # one keep-alive connection for all four
                resp = conn.getresponse()
                resp.read()
                times.append(time.monotonic() - start)
                self.assertIn(resp.status, (200, 404))
            conn.close()
            self.assertGreaterEqual(min(times), 0.05, times)
            with urllib.request.urlopen(f"http://{proxy.host}/_proxy/stats") as r:
                stats = json.load(r)
            self.assertEqual(stats, {"total": 4, "by_method": {"GET": 3, "HEAD": 1},
                                     "by_kind": {"blob": {"GET": 1}, "ping": {"GET": 1},
                                                 "manifest": {"GET": 1, "HEAD": 1}}})
            req = urllib.request.Request(f"http://{proxy.host}/_proxy/reset", method="POST")
            with urllib.request.urlopen(req) as r:
                self.assertEqual(json.load(r)["total"], 4)
            self.assertEqual(proxy.stats()["total"], 0)

    def test_skopeo_through_the_proxy(self):
        with Registry() as reg, DelayProxy(reg.url, delay=0.05) as proxy:
            pushed = catalog.populate(reg, catalog.layout_dir(harness.temp_dir("layout")))
            p = pushed["oci-index"]
            start = time.monotonic()
            proc = subprocess.run([harness.require_tool("skopeo"), "inspect", "--raw",
                                   "--tls-verify=false", f"docker://{proxy.host}/{p.repo}:{p.tag}"],
                                  capture_output=True, timeout=60)
            elapsed = time.monotonic() - start
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(oci.sha256(proc.stdout), p.digest)
            stats = proxy.stats()
            # skopeo pings, then GETs the manifest: two round trips of 50 ms.
            self.assertEqual(stats["by_kind"], {"ping": {"GET": 1}, "manifest": {"GET": 1}})
            self.assertGreaterEqual(elapsed, 0.1)

    def test_script_mode(self):
        with Registry() as reg:
            port_file = os.path.join(harness.temp_dir("proxy"), "port")
            script = os.path.join(os.path.dirname(__file__), "..", "..", "bench", "delay_proxy.py")
            proc = harness.spawn([sys.executable, script, "--upstream", reg.url, "--delay-ms", "20",
                                  "--port-file", port_file], stdout=subprocess.PIPE, text=True)
            try:
                line = proc.stdout.readline()
                self.assertIn("listening on", line)
                with open(port_file) as f:
                    port = f.read().strip()
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/v2/") as r:
                    self.assertEqual(r.status, 200)
            finally:
                harness.stop(proc)
            self.assertIn('"total": 1', proc.stdout.read())
            proc.stdout.close()


if __name__ == "__main__":
    unittest.main()
