"""The cache and the lock file against the real registry, with requests
counted by the delay proxy (no delay) in front of it: a warm run makes no
request; expired tags with known digests cost exactly one HEAD per image;
eight processes sharing one cache dir all succeed and leave it valid."""

import concurrent.futures
import json
import os
import sys
import unittest

from lib import catalog, harness
from lib.archfit_case import ArchfitCase
from lib.registry import Registry

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))
from delay_proxy import DelayProxy  # noqa: E402
from resolve_registry import DEPLOYMENT  # noqa: E402


class CacheTest(ArchfitCase):
    @classmethod
    def setUpClass(cls):
        cls.registry = Registry().start()
        try:
            cls.pushed = catalog.populate(cls.registry,
                                          catalog.layout_dir(harness.temp_dir("layout")))
            cls.proxy = DelayProxy(cls.registry.url, delay=0).start()
        except BaseException:
            cls.registry.stop()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.proxy.stop()
        cls.registry.stop()

    def setUp(self):
        super().setUp()
        self.proxy.reset()
        self.images = [f"{self.proxy.host}/{p.repo}:{p.tag}" for p in self.pushed.values()]
        self.expected = [(p.kind.expected, p.digest) for p in self.pushed.values()]

    def config(self, **resolve):
        return self.write_config({"insecureRegistries": [self.proxy.host], **resolve})

    def resolve_ok(self, config, source=None, cache_dir=None):
        run, results = self.resolve(self.images, config, cache_dir=cache_dir)
        for result, (platforms, digest) in zip(results, self.expected):
            self.assertResolved(result, platforms, digest, source=source)
        self.assertEqual(run.code, 0, run)
        return run

    def test_warm_run_makes_no_request(self):
        config = self.config()
        self.resolve_ok(config, source="registry")
        cold = self.proxy.reset()
        self.assertGreaterEqual(cold["by_kind"]["manifest"].get("GET", 0), len(self.images))
        self.resolve_ok(config, source="cache")
        self.assertEqual(self.proxy.stats()["total"], 0, self.proxy.stats())
        self.assertCacheValid()
        for image, (_, digest) in zip(self.images, self.expected):
            self.assertCacheHas(digest, image)

    def test_expired_tags_cost_one_head_each(self):
        self.resolve_ok(self.config())
        self.proxy.reset()
        self.resolve_ok(self.config(tagTTL={"default": 0, "IfNotPresent": 0, "Always": 0}))
        stats = self.proxy.stats()
        manifests = stats["by_kind"].get("manifest", {})
        self.assertEqual(manifests.get("HEAD", 0), len(self.images), stats)
        self.assertEqual(manifests.get("GET", 0), 0, stats)
        self.assertEqual(stats["by_kind"].get("blob", {}), {}, stats)
        # A ping before the HEADs is allowed: it fetches no image data.
        self.assertLessEqual(stats["by_kind"].get("ping", {}).get("GET", 0), 1, stats)
        self.assertCacheValid()

    def test_digest_references_never_expire(self):
        config = self.config(tagTTL={"default": 0, "IfNotPresent": 0, "Always": 0})
        self.images = [f"{self.proxy.host}/{p.repo}@{p.digest}" for p in self.pushed.values()]
        self.resolve_ok(config)
        self.proxy.reset()
        self.resolve_ok(config, source="cache")
        self.assertEqual(self.proxy.stats()["total"], 0, self.proxy.stats())

    def test_eight_processes_share_one_cache(self):
        config = self.config()

        def one(_):
            return self.resolve(self.images, config)

        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            outcomes = list(pool.map(one, range(8)))
        for run, results in outcomes:
            self.assertEqual(run.code, 0, run)
            for result, (platforms, digest) in zip(results, self.expected):
                self.assertResolved(result, platforms, digest)
        self.assertCacheValid()
        leftovers = [n for _, _, names in os.walk(self.cache_dir) for n in names
                     if not n.endswith(".json") and n != "CACHEDIR.TAG"]
        self.assertEqual(leftovers, [], "temp files left in the cache")
        self.proxy.reset()
        self.resolve_ok(config, source="cache")
        self.assertEqual(self.proxy.stats()["total"], 0)

    def test_corrupt_cache_entry_is_a_miss(self):
        config = self.config()
        self.resolve_ok(config)
        for dirpath, _, names in os.walk(os.path.join(self.cache_dir, "v1")):
            for name in names:
                with open(os.path.join(dirpath, name), "w") as f:
                    f.write('{"trunc')
        self.resolve_ok(config, source="registry")
        self.assertCacheValid()

    def test_lock_then_offline(self):
        manifests = os.path.join(self.tmp, "deploy.yaml")
        with open(manifests, "w") as f:
            for n, image in enumerate(self.images):
                f.write(DEPLOYMENT.format(n=n, image=image))
        lock = os.path.join(self.tmp, "archfit.lock")
        config = self.config()
        run = self.archfit(["lock", "--config", config, "--lock", lock,
                            "--cache-dir", self.cache_dir, manifests])
        self.assertEqual(run.code, 0, run)
        with open(lock) as f:
            data = json.load(f)
        self.assertEqual(data["version"], 1)
        self.assertEqual(sorted(data["images"]), sorted(self.images))
        for image, (platforms, digest) in zip(self.images, self.expected):
            self.assertEqual(data["images"][image], {"digest": digest, "platforms": platforms})
        self.proxy.reset()
        run, results = self.resolve(self.images, config, args=["--lock", lock, "--offline"],
                                    cache_dir=os.path.join(self.tmp, "empty-cache"))
        self.assertEqual(run.code, 0, run)
        for result, (platforms, digest) in zip(results, self.expected):
            self.assertResolved(result, platforms, digest, source="lock")
        self.assertEqual(self.proxy.stats()["total"], 0)


if __name__ == "__main__":
    unittest.main()
