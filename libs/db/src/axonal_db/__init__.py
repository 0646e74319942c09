"""PostgreSQL for Axonal services: pools, per-service migrations, transactions."""

from axonal_db.errors import (
    InvalidMigrationError,
    MigrationChecksumError,
    MigrationError,
    MigrationMissingError,
    MigrationOrderError,
)
from axonal_db.migrations import Migration, MigrationSource, migrate
from axonal_db.pool import Connection, configure_connection, connect, create_pool, quote_schema
from axonal_db.transactions import Isolation, transaction

__all__ = [
    "Connection",
    "InvalidMigrationError",
    "Isolation",
    "Migration",
    "MigrationChecksumError",
    "MigrationError",
    "MigrationMissingError",
    "MigrationOrderError",
    "MigrationSource",
    "configure_connection",
    "connect",
    "create_pool",
    "migrate",
    "quote_schema",
    "transaction",
]
