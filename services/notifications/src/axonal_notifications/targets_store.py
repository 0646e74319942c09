"""SQL for what every delivery target (webhook subscription or connection) shares."""

from __future__ import annotations

from axonal_db import Connection

__all__ = ["disable"]


async def disable(conn: Connection, target_id: str, reason: str) -> None:
    """Disable a target; its deliveries still waiting are dead (replayable)."""
    for table in ("webhooks", "connections"):
        await conn.execute(
            f"UPDATE {table} SET enabled = false, disabled_reason = $2 WHERE id = $1",  # noqa: S608 - fixed names
            target_id,
            reason,
        )
    await conn.execute(
        "UPDATE deliveries SET status = 'dead', next_attempt_at = NULL, updated_at = now() "
        "WHERE target_id = $1 AND status IN ('pending', 'failed')",
        target_id,
    )
