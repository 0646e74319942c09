"""The api's token buckets: a request goes in while its bucket holds tokens, takes what it
carried (a debt when more), and the next waits until the debt is paid."""

from __future__ import annotations

import asyncio
import math

import pytest

from axonal_api.quotas import Bucket, Limits, Quotas, RateLimited, _Kept
from axonal_api.settings import ApiSettings
from axonal_events.quotas import QuotaLimits


def test_a_bucket_lets_in_while_it_holds_tokens_then_asks_to_wait():
    bucket = Bucket(rate=10, tokens=10.0, at=0.0)
    assert bucket.wait(0.0) == 0.0
    bucket.take(25)  # a batch bigger than a second's rate still goes in: a debt
    assert bucket.wait(0.0) == pytest.approx(1.6)  # (15 owed + 1) / 10 per second
    assert bucket.wait(1.0) == pytest.approx(0.6)
    assert bucket.wait(1.6) == 0.0
    assert bucket.wait(100.0) == 0.0
    assert bucket.tokens == 10  # a burst is one second of the rate, at most


def test_rate_limited_says_whole_seconds_and_names_the_quota():
    exc = RateLimited("acme/llm", "spans", 20, 0.05)
    assert exc.retry_after == 1
    assert "20 spans per second" in str(exc)
    assert RateLimited("acme/llm", "points", 5, 2.2).retry_after == 3


def test_a_project_limit_overrides_the_default():
    quotas = Quotas(ApiSettings(api_default_spans_per_second=100, api_default_storage_bytes=5))
    merged = quotas._limits(QuotaLimits(spans_per_second=7))
    assert merged == Limits(spans_per_second=7, points_per_second=None, storage_bytes=5)
    assert merged.rate("spans") == 7
    assert merged.rate("points") is None


def test_each_api_replica_holds_its_share_of_a_projects_rate():
    quotas = Quotas(ApiSettings(api_default_spans_per_second=101, replicas=2))
    quotas._kept["acme/llm"] = _Kept(quotas._limits(QuotaLimits()), expires=math.inf)
    bucket = asyncio.run(quotas.admit(None, "acme/llm", "spans"))  # cached: no RPC
    assert bucket is not None
    assert bucket.rate == 51  # two replicas: half of 101 each, rounded up
    bucket.take(60)  # in debt
    with pytest.raises(RateLimited, match="quota of 101 spans per second"):
        asyncio.run(quotas.admit(None, "acme/llm", "spans"))
