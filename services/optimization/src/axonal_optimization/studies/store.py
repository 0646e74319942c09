"""SQL of the ``studies``, ``trials`` and ``tuner_runs`` tables."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from axonal_db import Connection
from axonal_events.commands import OptimizeSweep
from axonal_optimization.domain.studies import Study, TrialRecord

__all__ = [
    "NewTrial",
    "StoredTrial",
    "Study",
    "TunerRun",
    "end_study",
    "end_trial",
    "end_tuner_run",
    "insert_study",
    "insert_trials",
    "insert_tuner_run",
    "lock_study",
    "mark_pruned",
    "record_intermediate",
    "running_studies",
    "study",
    "trial_of_run",
    "trials",
    "tuner_of_run",
    "tuner_runs",
]


@dataclass(frozen=True)
class StoredTrial:
    number: int
    run_uuid: str
    params: dict[str, Any]
    state: str
    value: float | None
    reason: str | None = None
    bracket: int | None = None
    rung: int | None = None
    config: int | None = None
    intermediate: dict[str, float] = field(default_factory=dict)

    def record(self) -> TrialRecord:
        steps = {int(step): value for step, value in self.intermediate.items()}
        return TrialRecord(self.number, self.params, self.state, self.value, steps)  # type: ignore[arg-type]


_STUDY = "sweep_uuid, owner, project, name, kind, search_space, state, reason"
_TRIAL = "number, run_uuid, params, state, value, reason, bracket, rung, config, intermediate"


async def insert_study(conn: Connection, command: OptimizeSweep) -> bool:
    """``False`` when the sweep has its study already."""
    done = await conn.fetchval(
        "INSERT INTO studies (sweep_uuid, owner, project, name, kind, search_space) "
        "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (sweep_uuid) DO NOTHING RETURNING true",
        command.sweep_uuid,
        command.owner,
        command.project,
        command.name,
        str(command.search_space.get("kind", "")),
        command.search_space,
    )
    return bool(done)


async def study(conn: Connection, sweep_uuid: str) -> Study | None:
    row = await conn.fetchrow(f"SELECT {_STUDY} FROM studies WHERE sweep_uuid = $1", sweep_uuid)  # noqa: S608
    return Study(**dict(row)) if row else None


async def lock_study(conn: Connection, sweep_uuid: str) -> Study | None:
    """The study, locked for the rest of the transaction."""
    row = await conn.fetchrow(
        f"SELECT {_STUDY} FROM studies WHERE sweep_uuid = $1 FOR UPDATE",  # noqa: S608
        sweep_uuid,
    )
    return Study(**dict(row)) if row else None


async def end_study(conn: Connection, sweep_uuid: str, state: str, reason: str | None) -> None:
    await conn.execute(
        "UPDATE studies SET state = $2, reason = $3, updated_at = now() WHERE sweep_uuid = $1",
        sweep_uuid,
        state,
        reason,
    )


async def trials(conn: Connection, sweep_uuid: str) -> list[StoredTrial]:
    rows = await conn.fetch(
        f"SELECT {_TRIAL} FROM trials WHERE sweep_uuid = $1 ORDER BY number",  # noqa: S608
        sweep_uuid,
    )
    return [StoredTrial(**dict(r)) for r in rows]


async def trial_of_run(conn: Connection, run_uuid: str) -> tuple[Study, StoredTrial] | None:
    """The study and trial that ``run_uuid`` runs (one read for any run.done)."""
    study_columns = ", ".join(f"s.{c.strip()}" for c in _STUDY.split(","))
    trial_columns = ", ".join(f"t.{c.strip()} AS t_{c.strip()}" for c in _TRIAL.split(","))
    row = await conn.fetchrow(
        f"SELECT {study_columns}, {trial_columns} FROM trials t "  # noqa: S608
        "JOIN studies s ON s.sweep_uuid = t.sweep_uuid WHERE t.run_uuid = $1",
        run_uuid,
    )
    if row is None:
        return None
    fields = dict(row)
    trial = {k[2:]: fields.pop(k) for k in list(fields) if k.startswith("t_")}
    return Study(**fields), StoredTrial(**trial)


async def running_studies(conn: Connection) -> list[Study]:
    """The studies still suggesting whose search prunes (an ``earlyStopping`` policy; not an
    iterative search, which has no Optuna study: its tuner reads what it needs)."""
    rows = await conn.fetch(
        f"SELECT {_STUDY} FROM studies WHERE state = 'running' "  # noqa: S608
        "AND search_space ? 'earlyStopping' AND kind <> 'iterative'"
    )
    return [Study(**dict(r)) for r in rows]


async def record_intermediate(
    conn: Connection, sweep_uuid: str, number: int, values: Mapping[int, float]
) -> None:
    """Keep a running trial's intermediate values (merged into those kept)."""
    await conn.execute(
        "UPDATE trials SET intermediate = intermediate || $3 "
        "WHERE sweep_uuid = $1 AND number = $2 AND state = 'running'",
        sweep_uuid,
        number,
        {str(step): value for step, value in values.items()},
    )


async def mark_pruned(conn: Connection, sweep_uuid: str, number: int) -> bool:
    """Note that a running trial is being stopped for pruning; ``False`` if it was already."""
    done = await conn.fetchval(
        "UPDATE trials SET reason = 'pruned' WHERE sweep_uuid = $1 AND number = $2 "
        "AND state = 'running' AND reason IS DISTINCT FROM 'pruned' RETURNING true",
        sweep_uuid,
        number,
    )
    return bool(done)


async def end_trial(
    conn: Connection,
    sweep_uuid: str,
    number: int,
    state: str,
    value: float | None,
    reason: str | None,
) -> bool:
    """Record how a running trial of a running study ended, the study locked for the rest of
    the transaction; ``False`` (nothing changed) when either had ended already."""
    done = await conn.fetchval(
        "WITH study AS (SELECT sweep_uuid FROM studies WHERE sweep_uuid = $1 "
        "AND state = 'running' FOR UPDATE) "
        "UPDATE trials t SET state = $3, value = $4, reason = $5, finished_at = now() "
        "FROM study WHERE t.sweep_uuid = study.sweep_uuid AND t.number = $2 "
        "AND t.state = 'running' RETURNING true",
        sweep_uuid,
        number,
        state,
        value,
        reason,
    )
    return bool(done)


@dataclass(frozen=True)
class NewTrial:
    """A suggested trial (with its bracket, rung and configuration in a hyperband search)."""

    number: int
    run_uuid: str
    params: dict[str, Any]
    bracket: int | None = None
    rung: int | None = None
    config: int | None = None


async def insert_trials(conn: Connection, sweep_uuid: str, new: Sequence[NewTrial]) -> None:
    """One statement for all of ``new`` (the rows of the unnested arrays)."""
    await conn.execute(
        "INSERT INTO trials (sweep_uuid, number, run_uuid, params, bracket, rung, config) "
        "SELECT $1, * FROM unnest($2::int[], $3::text[], $4::jsonb[], $5::int[], $6::int[], "
        "$7::int[])",
        sweep_uuid,
        [t.number for t in new],
        [t.run_uuid for t in new],
        [t.params for t in new],
        [t.bracket for t in new],
        [t.rung for t in new],
        [t.config for t in new],
    )


@dataclass(frozen=True)
class TunerRun:
    """A tuner run of an iterative search, and how many trials it suggested."""

    sweep_uuid: str
    iteration: int
    run_uuid: str
    state: str
    suggested: int | None = None
    reason: str | None = None


_TUNER = "sweep_uuid, iteration, run_uuid, state, suggested, reason"


async def insert_tuner_run(conn: Connection, sweep_uuid: str, iteration: int, run: str) -> None:
    await conn.execute(
        "INSERT INTO tuner_runs (sweep_uuid, iteration, run_uuid) VALUES ($1, $2, $3) "
        "ON CONFLICT DO NOTHING",
        sweep_uuid,
        iteration,
        run,
    )


async def tuner_runs(conn: Connection, sweep_uuid: str) -> list[TunerRun]:
    rows = await conn.fetch(
        f"SELECT {_TUNER} FROM tuner_runs WHERE sweep_uuid = $1 ORDER BY iteration",  # noqa: S608
        sweep_uuid,
    )
    return [TunerRun(**dict(r)) for r in rows]


async def tuner_of_run(conn: Connection, run_uuid: str) -> TunerRun | None:
    """The tuner run ``run_uuid`` is, if any (one indexed read for any run.done)."""
    row = await conn.fetchrow(
        f"SELECT {_TUNER} FROM tuner_runs WHERE run_uuid = $1",  # noqa: S608
        run_uuid,
    )
    return TunerRun(**dict(row)) if row else None


async def end_tuner_run(
    conn: Connection, run: TunerRun, state: str, suggested: int | None, reason: str | None
) -> bool:
    """Record how a running tuner run ended; ``False`` when that was recorded already."""
    done = await conn.fetchval(
        "UPDATE tuner_runs SET state = $3, suggested = $4, reason = $5, finished_at = now() "
        "WHERE sweep_uuid = $1 AND iteration = $2 AND state = 'running' RETURNING true",
        run.sweep_uuid,
        run.iteration,
        state,
        suggested,
        reason,
    )
    return bool(done)
