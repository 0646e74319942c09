"""Errors raised by :mod:`axonal_db`.

::

    MigrationError                  migrations cannot be applied as they are
    ├── InvalidMigrationError       a bad file name, duplicate version or missing folder
    ├── MigrationChecksumError      an applied migration file was edited afterwards
    ├── MigrationMissingError       an applied migration file is gone
    └── MigrationOrderError         a new file sorts before one already applied
"""

from __future__ import annotations

__all__ = [
    "InvalidMigrationError",
    "MigrationChecksumError",
    "MigrationError",
    "MigrationMissingError",
    "MigrationOrderError",
]


class MigrationError(Exception):
    """Migrations cannot be applied as they are; nothing was applied."""


class InvalidMigrationError(MigrationError):
    """A migration folder or file name breaks the ``NNNN_description.sql`` rules."""


class MigrationChecksumError(MigrationError):
    """The file of an applied migration changed since it was applied."""

    def __init__(self, path: str, schema: str, recorded: str, current: str) -> None:
        super().__init__(
            f"migration {path} was changed after it was applied to schema {schema!r}: "
            f"recorded sha256 {recorded}, file now has sha256 {current}. "
            "Restore the file and put the change in a new migration."
        )
        self.path = path
        self.schema = schema
        self.recorded = recorded
        self.current = current


class MigrationMissingError(MigrationError):
    """A migration recorded as applied has no file any more."""


class MigrationOrderError(MigrationError):
    """A pending migration has a lower version than one already applied."""
