"""The api's prompt reads: kept until they expire or a write of the project drops them."""

from __future__ import annotations

import json
from types import SimpleNamespace

from axonal_api.prompt_cache import PromptCache


def test_a_read_is_kept_until_the_project_is_dropped():
    cache = PromptCache()
    epoch = cache.epoch("p1")
    cache.put("p1", "greet", b"v1", epoch)
    cache.put("p2", "greet", b"other", cache.epoch("p2"))
    assert cache.get("p1", "greet") == b"v1"
    cache.drop("p1")
    assert cache.get("p1", "greet") is None
    assert cache.get("p2", "greet") == b"other"


def test_a_read_that_started_before_a_drop_is_not_kept():
    cache = PromptCache()
    epoch = cache.epoch("p1")
    cache.drop("p1")  # a write landed while the read was in flight
    cache.put("p1", "greet", b"stale", epoch)
    assert cache.get("p1", "greet") is None


def test_reads_expire_and_the_size_is_bounded():
    expired = PromptCache(ttl=0.0)
    expired.put("p1", "greet", b"v1", 0)
    assert expired.get("p1", "greet") is None
    small = PromptCache(size=2)
    for key in ("a", "b", "c"):
        small.put("p1", key, key.encode(), 0)
    assert [small.get("p1", key) for key in ("a", "b", "c")] == [None, None, b"c"]


async def test_a_prompt_event_drops_its_project():
    cache = PromptCache()
    cache.put("p1", "greet", b"v1", 0)
    cache.put("p2", "greet", b"v1", 0)
    event = {"type": "axonal.prompt.labels.changed", "data": {"project_id": "p1"}}
    await cache.on_event(SimpleNamespace(data=json.dumps(event).encode()))  # type: ignore[arg-type]
    assert (cache.get("p1", "greet"), cache.get("p2", "greet")) == (None, b"v1")
    await cache.on_event(SimpleNamespace(data=b"{oops"))  # type: ignore[arg-type]
    assert cache.get("p2", "greet") is None
