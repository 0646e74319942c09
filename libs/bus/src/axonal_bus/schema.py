"""The bus's own tables (outbox, inbox), applied into every service schema."""

from __future__ import annotations

from pathlib import Path

from axonal_db import MigrationSource

__all__ = ["BUS_MIGRATIONS"]

BUS_MIGRATIONS = MigrationSource("axonal_bus", Path(__file__).parent / "migrations")
