"""Join queries (PQL) and the params they bind (pure)."""

import pytest

from axonal_scheduler.domain import joins, pql

RUNS = [
    {"uuid": "a", "name": "a", "kind": "job", "status": "succeeded", "tags": ["prod"],
     "outputs": {"loss": 0.5}, "metrics": {"acc": 0.7}, "globals": {"uuid": "a"}},
    {"uuid": "b", "name": "draft-b", "kind": "job", "status": "succeeded", "tags": [],
     "outputs": {"loss": 0.2}, "metrics": {"acc": 0.9}, "globals": {"uuid": "b"}},
    {"uuid": "c", "name": "c", "kind": "job", "status": "failed", "tags": ["prod", "best"],
     "outputs": {}, "metrics": {"acc": 0.95}, "globals": {"uuid": "c"}},
    {"uuid": "d", "name": "d", "kind": "dag", "status": "succeeded", "tags": [],
     "outputs": {"loss": 0.1}, "metrics": {}, "globals": {"uuid": "d"}},
]  # fmt: skip


def chosen(query: str, sort: str | None = None, **extra: object) -> list[str]:
    return [r["uuid"] for r in joins.select({"query": query, "sort": sort, **extra}, RUNS)]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("status:succeeded, kind:job", ["a", "b"]),
        ("status:succeeded|failed, kind:~dag", ["a", "b", "c"]),
        ("outputs.loss:<0.3", ["b", "d"]),
        ("metrics.acc:>=0.9", ["b", "c"]),
        ("metrics.acc:0.8..0.95", ["b", "c"]),
        ("tags:best|nope", ["c"]),
        ("name:~draft-b, kind:job", ["a", "c"]),
    ],
)
def test_a_query_selects_the_runs_it_names(query: str, expected: list[str]) -> None:
    assert chosen(query) == expected


def test_sort_offset_and_limit() -> None:
    assert chosen("kind:job", "-metrics.acc") == ["c", "b", "a"]
    assert chosen("status:succeeded", "outputs.loss", limit=2) == ["d", "b"]
    assert chosen("status:succeeded", "outputs.loss", offset=1, limit=1) == ["b"]
    assert chosen("kind:job", "outputs.loss") == ["b", "a", "c"]  # no value: last


def test_params_bind_each_selected_runs_value_as_a_list() -> None:
    params = {"losses": {"value": "outputs.loss"}, "ids": {"value": "globals.uuid"}}
    spec = {"query": "kind:job, status:succeeded", "sort": "outputs.loss", "params": params}
    assert joins.bind(spec, joins.select(spec, RUNS)) == {"losses": [0.2, 0.5], "ids": ["b", "a"]}
    assert joins.needs_metrics({"query": "metrics.acc:>0.5"})
    assert not joins.needs_metrics(spec)


@pytest.mark.parametrize(
    ("query", "problem"),
    [
        ("status", "`status` is not field:value"),
        ("colour:red", "`colour` is not a field a join can read"),
        ("outputs.loss:<low", "`low` is not a number"),
    ],
)
def test_a_bad_query_names_its_problem(query: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        pql.parse(query)
