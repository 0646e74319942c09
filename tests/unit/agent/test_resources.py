"""Resource quantities, the slot ledger and a run's limits."""

import pytest

from axonal_agent.domain.resources import (
    DEFAULT_REQUEST,
    Limits,
    Resources,
    SlotLedger,
    format_memory,
    parse_cpu,
    parse_memory,
    pick_cores,
    run_limits,
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


def test_parse_cpu_rejects_garbage():
    with pytest.raises(ValueError, match="not a cpu quantity: 'fast'"):
        parse_cpu("fast")


@pytest.mark.parametrize(
    ("size", "text"),
    [(256 * 2**20, "256Mi"), (2**30, "1Gi"), (5 * 10**8, "500M"), (2000, "2k"), (1000 + 1, "1001")],
)
def test_format_memory(size, text):
    assert format_memory(size) == text
    assert parse_memory(text) == size


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


@pytest.mark.parametrize(
    ("resources", "field"),
    [
        ({"requests": {"memory": "lots"}}, "requests.memory: not a memory quantity"),
        ({"limits": {"cpu": "fast"}}, "limits.cpu: not a cpu quantity"),
        ({"requests": {"gpu": "one"}}, "requests.gpu: could not convert"),
    ],
)
def test_an_unreadable_quantity_names_its_field(resources, field):
    with pytest.raises(ValueError, match=field):
        run_resources({"container": {"resources": resources}})


def test_limits_are_the_cpu_and_memory_of_the_limits_section():
    run = {
        "container": {
            "resources": {
                "requests": {"cpu": "4", "memory": "8Gi"},
                "limits": {"cpu": "1500m", "memory": "256Mi", "nvidia.com/gpu": 1},
            }
        }
    }
    assert run_limits(run) == Limits(cpu=1.5, memory=256 * 2**20)
    only_memory = {"container": {"resources": {"limits": {"memory": 1000.5}}}}
    assert run_limits(only_memory) == Limits(memory=1001)


@pytest.mark.parametrize(
    "run",
    [
        {"container": {"command": ["true"]}},
        {"container": {"resources": {"requests": {"cpu": "1", "memory": "1Gi"}}}},
        {"container": {"resources": {"limits": {"nvidia.com/gpu": 1}}}},
        {"container": {"resources": {"limits": None}}},
        {"container": "{{ a template }}"},
        {},
    ],
)
def test_no_cpu_or_memory_limit_is_no_limits(run):
    assert run_limits(run) is None


@pytest.mark.parametrize(
    ("limits", "message"),
    [
        ({"memory": "lots"}, "limits.memory: not a memory quantity: 'lots'"),
        ({"cpu": "fast"}, "limits.cpu: not a cpu quantity: 'fast'"),
        ({"memory": "0"}, "limits.memory: must be a finite quantity more than 0, not '0'"),
        ({"cpu": "-1"}, "limits.cpu: must be a finite quantity more than 0"),
        ({"cpu": "inf"}, "limits.cpu: must be a finite quantity more than 0"),
        ({"memory": "1e400"}, "limits.memory: must be a finite quantity more than 0"),
    ],
)
def test_an_unreadable_limit_names_its_field(limits, message):
    with pytest.raises(ValueError, match=message):
        run_limits({"container": {"resources": {"limits": limits}}})


@pytest.mark.parametrize(
    ("cpu", "cores"), [(0.5, [0]), (1, [0]), (1.01, [0, 1]), (2, [0, 1]), (64, [0, 1, 2, 3])]
)
def test_a_cpu_limit_takes_its_ceiling_in_cores_at_most_all_of_them(cpu, cores):
    assert pick_cores(cpu, {0, 1, 2, 3}, {}) == cores


def test_cores_are_the_least_loaded_ones():
    assert pick_cores(1, [0, 1], {0: 1}) == [1]
    assert pick_cores(2, [0, 1, 2, 3], {0: 2, 1: 1, 3: 1}) == [1, 2]  # ties: lowest first
    assert pick_cores(1, [2, 3], {0: 0}) == [2]  # only cores the agent may use


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
