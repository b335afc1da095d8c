"""archfit resolve against the fake registry: token server variants succeed;
429 and 5xx are retried (Retry-After honoured); slow, truncated, wrong,
oversize, malformed, schema 1 and missing-repository answers end in a clear
error, promptly. After every run: no corrupt cache entry, no credential in
any output."""

import base64
import email.utils
import json
import os
import re
import time
import unittest

from lib import fake_registry as fr
from lib import oci
from lib.h2_server import H2Server
from lib.registry import make_ca
from lib.archfit_case import ArchfitCase, docker_config

SECRET_PASSWORD = "Fake-Secret-Pw-93d1e0"
IDENTITY_TOKEN = "Identity-Token-Secret-5c2b88"


class FaultCase(ArchfitCase):
    def setUp(self):
        super().setUp()
        self.fake = fr.FakeRegistry().start()
        self.addCleanup(self.fake.stop)
        s = self.fake.store
        self.index = s.index([s.image("linux/amd64"), s.image("linux/arm64/v8"),
                              s.image("linux/arm/v7")])
        self.single = s.image("linux/s390x", in_index=False)
        self.fake.tag("multi/app", "v1", self.index)
        self.fake.tag("single/app", "v1", self.single)
        self.run_secrets = []

    def go(self, images, timeout="2s", args=(), env=None, limit=60, **resolve):
        config = self.write_config({"insecureRegistries": [self.fake.host], "timeout": timeout,
                                    **resolve})
        run, results = self.resolve(images, config, args=args, env=env, timeout=limit)
        self.assertCacheValid()
        self.assertNoSecrets(run, self.run_secrets + list(self.fake.tokens))
        return run, results

    def assertResolvesBoth(self, **resolve):
        run, results = self.go([self.fake.ref("multi/app", "v1"),
                                self.fake.ref("single/app", "v1")], **resolve)
        self.assertResolved(results[0], ["linux/amd64", "linux/arm/v7", "linux/arm64"],
                            self.index["digest"])
        self.assertResolved(results[1], ["linux/s390x"], self.single["digest"])
        self.assertEqual(run.code, 0, run)
        return run

    def assertFailsClearly(self, image, *patterns, code=3, **kw):
        run, [result] = self.go([image], **kw)
        self.assertEqual(run.code, code, run)
        self.assertFailed(result, re.escape(self.fake.host), *patterns)
        self.assertNamesImage(run, result)
        return run, result


class TokenServerTest(FaultCase):
    def bearer(self, **settings):
        self.fake.auth = "bearer"
        for key, value in settings.items():
            setattr(self.fake, key, value)
        run = self.assertResolvesBoth()
        tokens = self.fake.requests(kind="token")
        self.assertTrue(tokens, "no token was asked for")
        for entry in self.fake.requests(kind="manifest") + self.fake.requests(kind="blob"):
            if entry["status"] == 200:
                self.assertTrue(entry["headers"].get("authorization", "").startswith("Bearer "))
        return run, tokens

    def test_token_field(self):
        self.bearer(token_fields=("token",))

    def test_only_access_token(self):
        self.bearer(token_fields=("access_token",))  # as ACR answers

    def test_both_fields_and_no_expires_in(self):
        self.bearer(token_fields=("token", "access_token"), expires_in=None)

    def test_challenge_without_service_sends_no_service(self):
        _, tokens = self.bearer(service=None)
        for entry in tokens:
            self.assertNotIn("service", entry["query"], entry)

    def test_scope_and_service_are_sent(self):
        _, tokens = self.bearer()
        scopes = {s for e in tokens for q in e["query"].get("scope", []) for s in q.split(" ")}
        self.assertLessEqual({"repository:multi/app:pull", "repository:single/app:pull"}, scopes)
        self.assertTrue(all(e["query"].get("service") == ["fake-registry"] for e in tokens))

    def test_several_headers_pick_bearer(self):
        self.bearer(challenge="several-headers")

    def test_several_challenges_in_one_header(self):
        self.bearer(challenge="one-header")

    def test_quoted_params_with_commas_and_escapes(self):
        _, tokens = self.bearer(service='fake "registry", eu\\west', token_path="/auth,v2/token",
                                challenge="one-header")
        self.assertTrue(all(e["query"].get("service") == ['fake "registry", eu\\west']
                            for e in tokens), tokens)
        self.assertTrue(all(e["path"] == "/auth,v2/token" for e in tokens))

    def test_insufficient_scope_retries_with_the_new_scope(self):
        extra = "repository:shared/base:pull"
        self.fake.extra_scopes = {"multi/app": [extra]}
        _, tokens = self.bearer()
        scopes = {s for e in tokens for q in e["query"].get("scope", []) for s in q.split(" ")}
        self.assertIn(extra, scopes)
        denied = [e for e in self.fake.requests(kind="manifest", repo="multi/app")
                  if e["status"] == 401]
        self.assertLessEqual(len(denied), 2, "retried once with the new scope, not in a loop")

    def test_refresh_token_post_404_falls_back_to_get(self):
        self.fake.auth, self.fake.token_post_status = "bearer", 404
        path = docker_config(os.path.join(self.tmp, "config.json"),
                             {self.fake.host: {"auth": base64.b64encode(b"bob:").decode(),
                                               "identitytoken": IDENTITY_TOKEN}})
        self.run_secrets = [IDENTITY_TOKEN]
        self.assertResolvesBoth(dockerConfig=path)
        tokens = self.fake.requests(kind="token")
        posts = [e for e in tokens if e["method"] == "POST"]
        self.assertTrue(posts, "the identity token goes in a POST first")
        form = {k: v for k, v in (p.split("=", 1) for p in posts[0]["body"].decode().split("&"))}
        self.assertEqual(form.get("grant_type"), "refresh_token")
        self.assertTrue([e for e in tokens if e["method"] == "GET"], "no GET after the 404")

    def test_basic_credentials_reach_the_token_server_only(self):
        self.fake.users = {"carol": SECRET_PASSWORD}
        self.run_secrets = [SECRET_PASSWORD,
                            base64.b64encode(f"carol:{SECRET_PASSWORD}".encode()).decode()]
        path = docker_config(os.path.join(self.tmp, "config.json"),
                             {self.fake.host: ("carol", SECRET_PASSWORD)})
        self.fake.auth = "bearer"
        self.assertResolvesBoth(dockerConfig=path, args=["-v"])
        tokens = self.fake.requests(kind="token")
        self.assertTrue(all(e["headers"].get("authorization", "").startswith("Basic ")
                            for e in tokens if e["method"] == "GET"))


class HostileRegistryTest(FaultCase):
    """What a registry answers is hostile input: nothing it says reaches a
    header, another port, or the terminal as it was sent."""

    def test_a_token_that_would_inject_a_header_is_never_sent(self):
        self.fake.auth = "bearer"
        self.fake.token_value = "abc\r\nX-Injected: evil"
        run, results = self.go([self.fake.ref("multi/app", "v1")])
        self.assertEqual(run.code, 3, run)
        self.assertFailed(results[0], "the token server's token holds a character a header "
                                      "cannot carry")
        for entry in self.fake.requests():
            self.assertNotIn("x-injected", entry["headers"], entry)
            self.assertFalse(entry["headers"].get("authorization", "").startswith("Bearer abc"))

    def test_a_lifetime_of_1e18_seconds_is_bounded(self):
        self.fake.auth = "bearer"
        self.fake.expires_in = 10 ** 18
        self.assertResolvesBoth()

    def test_credentials_never_go_to_another_loopback_port(self):
        other = fr.FakeRegistry().start()
        self.addCleanup(other.stop)
        self.fake.auth = "bearer"
        self.fake.realm_url = f"http://{other.host}/token"
        path = docker_config(os.path.join(self.tmp, "config.json"),
                             {self.fake.host: ("carol", SECRET_PASSWORD)})
        self.run_secrets = [SECRET_PASSWORD]
        run, results = self.go([self.fake.ref("multi/app", "v1")], dockerConfig=path)
        self.assertEqual(run.code, 3, run)
        self.assertFailed(results[0], "another port of the loopback interface",
                          re.escape(other.host))
        self.assertEqual(other.requests(), [], "the other port heard nothing")

    def test_a_token_server_at_the_metadata_address_is_not_asked(self):
        self.fake.auth = "bearer"
        self.fake.realm_url = "http://169.254.169.254/latest/meta-data/iam/security-credentials/"
        started = time.monotonic()
        run, results = self.go([self.fake.ref("multi/app", "v1")])
        self.assertEqual(run.code, 3, run)
        self.assertFailed(results[0], "is a link-local address, where cloud metadata services "
                                      "answer")
        self.assertLess(time.monotonic() - started, 10)

    def test_a_header_flood_is_not_asked_again(self):
        self.fake.fault(fr.manifest("multi/app"), fr.header_flood())
        run, results = self.go([self.fake.ref("multi/app", "v1")])
        self.assertEqual(run.code, 3, run)
        self.assertFailed(results[0], "the response headers are larger than the limit")
        self.assertNotIn("tries", results[0]["error"])
        self.assertEqual(len(self.fake.requests(kind="manifest", repo="multi/app")), 1)

    def test_a_plain_http_registry_silent_on_a_tls_hello_is_reached_over_http(self):
        self.fake.silent_on_tls = True
        self.assertResolvesBoth(timeout="2s")
        self.assertEqual(len(self.fake.requests(method="TLS")), 1, "one TLS probe, not retried")

    def test_the_servers_words_reach_the_terminal_escaped(self):
        self.fake.fault(fr.manifest("multi/app"),
                        fr.status(403, {"Retry-After": "1\rFAKE: \x1b[31mred"}, "DENIED",
                                  "go away\r\narchfit: all is well\x1b]0;owned\x07"))
        run, results = self.go([self.fake.ref("multi/app", "v1")], args=["-v"])
        self.assertEqual(run.code, 3, run)
        for text in (run.stderr, results[0]["error"]):
            self.assertNotIn("\x1b", text)
            self.assertNotIn("\x07", text)
            self.assertNotIn("\r", text)
        self.assertIn("\\x1b", results[0]["error"])


class RetryTest(FaultCase):
    def test_429_retry_after_seconds(self):
        self.fake.fault(fr.manifest("multi/app"),
                        fr.status(429, {"Retry-After": "1"}, "TOOMANYREQUESTS"), times=1)
        self.assertResolvesBoth()
        self.assertWaited("multi/app", 0.9)

    def test_429_retry_after_http_date(self):
        when = lambda: email.utils.formatdate(time.time() + 2, usegmt=True)  # noqa: E731
        self.fake.fault(fr.manifest("multi/app"),
                        fr.status(429, {"Retry-After": when}, "TOOMANYREQUESTS"), times=1)
        self.assertResolvesBoth()
        self.assertWaited("multi/app", 0.9)  # the date has one-second resolution

    def test_500_then_success(self):
        self.fake.fault(fr.manifest("single/app"), fr.status(500), times=2)
        self.fake.fault(fr.blob("single/app"), fr.status(503), times=1)
        self.assertResolvesBoth()

    def test_500_forever_gives_up(self):
        self.fake.fault(fr.manifest("multi/app"), fr.status(500, oci_code="UNKNOWN"))
        run, result = self.assertFailsClearly(self.fake.ref("multi/app", "v1"), "500",
                                              limit=60)
        attempts = self.fake.requests(kind="manifest", repo="multi/app")
        self.assertLessEqual(len(attempts), 10, "bounded attempts")

    def assertWaited(self, repo, seconds):
        entries = self.fake.requests(kind="manifest", repo=repo)
        first = next(i for i, e in enumerate(entries) if e["status"] == 429)
        self.assertGreater(len(entries), first + 1, "no retry after the 429")
        gap = entries[first + 1]["time"] - entries[first]["time"]
        self.assertGreaterEqual(gap, seconds, f"retried after {gap:.2f}s")


class BrokenAnswerTest(FaultCase):
    def test_slower_than_the_timeout(self):
        self.fake.fault(fr.manifest("multi/app"), fr.delay(30))
        start = time.monotonic()
        self.assertFailsClearly(self.fake.ref("multi/app", "v1"), r"(?i)time(d)? ?out",
                                timeout="1s", limit=45)
        # A request that timed out is not sent again (docs/registry.md, "Time limits"): one
        # timeout, not one per try.
        self.assertLess(time.monotonic() - start, 8, "a 1s timeout took too long to fire")
        self.assertLessEqual(len(self.fake.requests(kind="manifest")), 1, "a timed-out request was sent again")

    def test_truncated_body(self):
        self.fake.fault(fr.manifest("multi/app", "GET"), fr.truncated())
        self.assertFailsClearly(self.fake.ref("multi/app", "v1"))

    def test_wrong_digest_for_a_manifest(self):
        other = self.fake.store.image("linux/mips64le", in_index=False)
        self.fake.fault(fr.manifest("multi/app", "GET"), fr.wrong_body(
            self.fake.store.get(other["digest"])))
        self.assertFailsClearly(self.fake.ref("multi/app", digest=self.index["digest"]),
                                r"(?i)digest")

    def test_wrong_digest_for_a_config_blob(self):
        cfg = self.fake.store.config("linux/mips64le")
        self.fake.fault(fr.blob("single/app"), fr.wrong_body(self.fake.store.get(cfg["digest"])))
        self.assertFailsClearly(self.fake.ref("single/app", "v1"), r"(?i)digest")

    def test_oversize_manifest(self):
        big = self.fake.store.index([self.fake.store.image("linux/amd64")],
                                    annotations={"padding": "x" * (5 << 20)})
        self.fake.tag("big/app", "v1", big)
        self.assertFailsClearly(self.fake.ref("big/app", "v1"), r"(?i)size|large|limit|MiB")

    def test_malformed_json(self):
        body = b'{"schemaVersion": 2, "mediaType": "' + oci.OCI_INDEX.encode() + b'", "manif'
        desc = self.fake.store.put(body, oci.OCI_INDEX)
        self.fake.store.media_types[desc["digest"]] = oci.OCI_INDEX
        self.fake.tag("broken/app", "v1", desc)
        self.assertFailsClearly(self.fake.ref("broken/app", "v1"), r"(?i)json|parse|malformed")

    def test_schema1_manifest(self):
        self.fake.tag("legacy/app", "v1", self.fake.store.schema1())
        self.assertFailsClearly(self.fake.ref("legacy/app", "v1"),
                                r"(?i)schema ?1|v1\+prettyjws|unsupported|media type")

    def test_missing_repository_401_as_docker_hub(self):
        self.fake.auth, self.fake.missing_repo_401 = "bearer", True
        self.assertFailsClearly(self.fake.ref("nope/app", "v1"), "401", "UNAUTHORIZED",
                                "credentials: none")
        self.assertLessEqual(len(self.fake.requests(kind="manifest")), 4, "no retry loop")

    def test_missing_repository_404(self):
        self.assertFailsClearly(self.fake.ref("nope/app", "v1"), "404", "NAME_UNKNOWN")

    def test_one_failure_does_not_spoil_the_others(self):
        self.fake.fault(fr.manifest("multi/app"), fr.status(404, oci_code="MANIFEST_UNKNOWN"))
        run, results = self.go([self.fake.ref("multi/app", "v1"), self.fake.ref("single/app", "v1")])
        self.assertEqual(run.code, 3, run)
        self.assertFailed(results[0], "MANIFEST_UNKNOWN")
        self.assertResolved(results[1], ["linux/s390x"], self.single["digest"])


class RedirectTest(FaultCase):
    def test_no_authorization_reaches_the_blob_storage(self):
        storage = fr.BlobStorage(self.fake.store).start()
        self.addCleanup(storage.stop)
        self.fake.blob_redirect = storage
        self.fake.auth = "bearer"
        self.assertResolvesBoth()
        self.assertTrue(storage.log, "the config blob was not fetched through the redirect")
        for entry in storage.log:
            self.assertNotIn("authorization", entry["headers"], entry)
        redirected = [e for e in self.fake.requests(kind="blob") if e["status"] == 307]
        self.assertTrue(redirected)


class NothingHangsTest(FaultCase):
    def test_many_faults_at_once_finish(self):
        self.fake.fault(fr.manifest("multi/app"), fr.delay(30))
        self.fake.fault(fr.manifest("single/app", "GET"), fr.truncated())
        start = time.monotonic()
        run, results = self.go([self.fake.ref("multi/app", "v1"),
                                self.fake.ref("single/app", "v1")], timeout="1s", limit=45)
        self.assertEqual(run.code, 3, run)
        self.assertTrue(all("error" in r for r in results), results)
        self.assertLess(time.monotonic() - start, 20)
        json.dumps(results)


class BrokenHttp2Test(ArchfitCase):
    """An HTTP/2 answer that breaks the protocol is as broken as 300 KiB of
    HTTP/1.1 headers: it fails at once, asked for once."""

    def test_a_broken_http2_answer_is_not_asked_again(self):
        ca = make_ca(self.tmp)
        cert, key = os.path.join(self.tmp, "server.pem"), os.path.join(self.tmp, "server.key")
        config = self.write_config({"caFile": ca, "timeout": "10s"})
        for mode in ("continuation", "bigheader"):
            with H2Server(mode, cert, key) as server:
                image = f"127.0.0.1:{server.port}/x/y:1"
                started = time.monotonic()
                run, [result] = self.resolve([image], config)
                self.assertEqual(run.code, 3, run)
                self.assertFailed(result, "unreadable answer from " + re.escape(f"127.0.0.1:{server.port}"))
                self.assertNotIn("tries", result["error"])
                self.assertEqual(server.requests, 1, (mode, result))
                self.assertLess(time.monotonic() - started, 5, mode)


if __name__ == "__main__":
    unittest.main()
