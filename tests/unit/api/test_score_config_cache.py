"""Score configs kept in the api: one RPC for the ids not kept, unknown ids kept too, a drop
forgets one config."""

from datetime import UTC, datetime

from axonal_api.score_config_cache import ScoreConfigCache
from axonal_events.score_configs import ScoreConfig, ScoreConfigList

NOW = datetime(2026, 1, 1, tzinfo=UTC)


class FakeGateway:
    def __init__(self, *configs: ScoreConfig) -> None:
        self.configs = {c.id: c for c in configs}
        self.asked: list[list[str]] = []

    async def call(self, method, request):
        self.asked.append(sorted(request.ids))
        return ScoreConfigList(data=[self.configs[i] for i in request.ids if i in self.configs])


def config(config_id: str) -> ScoreConfig:
    return ScoreConfig(
        id=config_id, project_id="p", name=config_id, data_type="NUMERIC",
        created_at=NOW, updated_at=NOW,
    )  # fmt: skip


async def test_configs_are_read_once_while_kept():
    gw = FakeGateway(config("a"), config("b"))
    cache = ScoreConfigCache()
    assert set(await cache.get_many(gw, "p", {"a", "x"})) == {"a"}
    assert set(await cache.get_many(gw, "p", {"a", "b", "x"})) == {"a", "b"}
    assert gw.asked == [["a", "x"], ["b"]]
    cache.drop("p", "a")
    await cache.get_many(gw, "p", {"a"})
    assert gw.asked[-1] == ["a"]


async def test_entries_expire():
    gw = FakeGateway(config("a"))
    cache = ScoreConfigCache(ttl=0)
    await cache.get_many(gw, "p", {"a"})
    await cache.get_many(gw, "p", {"a"})
    assert gw.asked == [["a"], ["a"]]
