"""Resource quantities and the slot ledger."""

import pytest

from axonal_agent.domain.resources import (
    DEFAULT_REQUEST,
    Resources,
    SlotLedger,
    parse_cpu,
    parse_memory,
    run_resources,
)


@pytest.mark.parametrize(("text", "cores"), [("500m", 0.5), ("2", 2.0), (1, 1.0), ("0.25", 0.25)])
def test_parse_cpu(text, cores):
    assert parse_cpu(text) == cores


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("1Gi", 2**30),
        ("512Mi", 512 * 2**20),
        ("1G", 1e9),
        ("500M", 5e8),
        (1024, 1024),
        ("2k", 2000),
    ],
)
def test_parse_memory(text, size):
    assert parse_memory(text) == size


def test_parse_memory_rejects_garbage():
    with pytest.raises(ValueError, match="not a memory quantity"):
        parse_memory("lots")


def test_requests_win_over_limits_and_defaults_fill_the_rest():
    run = {
        "container": {
            "resources": {
                "requests": {"cpu": "500m"},
                "limits": {"cpu": "2", "memory": "1Gi", "nvidia.com/gpu": 1},
            }
        }
    }
    assert run_resources(run) == Resources(cpu=0.5, memory=2**30, gpu=1)


def test_a_run_without_resources_needs_the_default():
    assert run_resources({"container": {"command": ["true"]}}) == DEFAULT_REQUEST
    assert run_resources({"container": {"resources": {"limits": {}}}}) == DEFAULT_REQUEST


def test_ledger_never_overcommits():
    ledger = SlotLedger(Resources(cpu=2, memory=2**30, gpu=0))
    assert ledger.reserve("a", Resources(cpu=1.5, memory=1))
    assert not ledger.reserve("b", Resources(cpu=1, memory=1))
    assert ledger.reserve("a", Resources(cpu=1.5, memory=1))  # idempotent per key
    assert ledger.free.cpu == pytest.approx(0.5)
    assert not ledger.reserve("gpu", Resources(cpu=0.1, gpu=1))
    ledger.release("a")
    assert ledger.reserve("b", Resources(cpu=1, memory=1))
    assert ledger.used == Resources(cpu=1, memory=1)


def test_ten_tenths_fit_in_one_core():
    ledger = SlotLedger(Resources(cpu=1, memory=10, gpu=0))
    assert all(ledger.reserve(str(i), Resources(cpu=0.1, memory=1)) for i in range(10))
    assert not ledger.reserve("x", Resources(cpu=0.1, memory=0))
