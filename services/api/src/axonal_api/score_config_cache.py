"""Score configs kept in the api for a few seconds, to check the scores that name one.

Ingestion reads the configs a batch names with one RPC for those not kept (a score without
``configId`` costs nothing). A change through this api drops the project's configs at once;
a change through another api replica is seen within :data:`TTL` seconds.
"""

from __future__ import annotations

import time
from collections.abc import Collection
from typing import Annotated

from fastapi import Depends, Request

from axonal_api.gateway import Gateway
from axonal_events.rpcs import Evaluation
from axonal_events.score_configs import GetScoreConfigs, ScoreConfig

__all__ = ["SIZE", "TTL", "ScoreConfigCache", "ScoreConfigCacheDep", "score_config_cache"]

TTL = 5.0
SIZE = 10_000
#: Ids per RPC (what one ``GetScoreConfigs`` takes).
CHUNK = 1000


class ScoreConfigCache:
    """Configs by project and id (an unknown id is kept as None), each with its expiry."""

    def __init__(self, ttl: float = TTL, size: int = SIZE) -> None:
        self.ttl = ttl
        self.size = size
        self._kept: dict[tuple[str, str], tuple[float, ScoreConfig | None]] = {}

    async def get_many(
        self, gw: Gateway, project_id: str, ids: Collection[str]
    ) -> dict[str, ScoreConfig]:
        """The configs of ``ids`` that exist in the project (archived included)."""
        now = time.monotonic()
        found: dict[str, ScoreConfig] = {}
        missing: list[str] = []
        for config_id in ids:
            hit = self._kept.get((project_id, config_id))
            if hit is None or hit[0] <= now:
                missing.append(config_id)
            elif hit[1] is not None:
                found[config_id] = hit[1]
        if missing:
            by_id: dict[str, ScoreConfig] = {}
            for start in range(0, len(missing), CHUNK):
                query = GetScoreConfigs(project_id=project_id, ids=missing[start : start + CHUNK])
                read = await gw.call(Evaluation.get_score_configs, query)
                by_id |= {config.id: config for config in read.data}
            if len(self._kept) + len(missing) > self.size:
                self._kept.clear()
            for config_id in missing:
                self._kept[project_id, config_id] = (now + self.ttl, by_id.get(config_id))
            found |= by_id
        return found

    def drop(self, project_id: str, config_id: str) -> None:
        self._kept.pop((project_id, config_id), None)


async def score_config_cache(request: Request) -> ScoreConfigCache:
    cache: ScoreConfigCache = request.app.state.score_config_cache
    return cache


ScoreConfigCacheDep = Annotated[ScoreConfigCache, Depends(score_config_cache)]
