"""Migration file names, checksums and folder loading (no database)."""

import hashlib
from importlib.resources import files
from pathlib import Path

import pytest

from axonal_db import InvalidMigrationError, MigrationChecksumError, MigrationSource
from axonal_db.migrations import checksum, load_source, parse_filename


@pytest.mark.parametrize(
    ("filename", "expected"),
    [
        ("0001_create_users.sql", (1, "create_users")),
        ("0042_add_index_2.sql", (42, "add_index_2")),
        ("9999_x.sql", (9999, "x")),
        ("0000_bootstrap.sql", (0, "bootstrap")),
    ],
)
def test_valid_names_parse(filename: str, expected: tuple[int, str]) -> None:
    assert parse_filename(filename) == expected


@pytest.mark.parametrize(
    "filename",
    [
        "1_init.sql",
        "001_init.sql",
        "00001_init.sql",
        "0001-init.sql",
        "0001_.sql",
        "0001_Init.sql",
        "0001_init.SQL",
        "0001_init.sql.bak",
        "0001_in it.sql",
        "init.sql",
        "0001_init",
    ],
)
def test_invalid_names_are_rejected_with_the_name(filename: str) -> None:
    with pytest.raises(InvalidMigrationError, match="invalid migration file name") as info:
        parse_filename(filename)
    assert repr(filename) in str(info.value)


def test_checksum_is_sha256_of_the_bytes() -> None:
    content = b"CREATE TABLE t (id int);\n"
    assert checksum(content) == hashlib.sha256(content).hexdigest()
    assert checksum(content) != checksum(content.replace(b"\n", b"\r\n"))


def test_load_source_sorts_by_version_and_ignores_other_files(tmp_path: Path) -> None:
    (tmp_path / "0010_later.sql").write_text("SELECT 10;")
    (tmp_path / "0002_second.sql").write_text("SELECT 2;")
    (tmp_path / "0001_first.sql").write_bytes("SELECT 'é';".encode())
    (tmp_path / "README.md").write_text("not a migration")
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / ".0003_editor_swap.sql").write_text("junk")

    migrations = load_source(MigrationSource("svc", tmp_path))

    assert [(m.source, m.version, m.name) for m in migrations] == [
        ("svc", 1, "first"),
        ("svc", 2, "second"),
        ("svc", 10, "later"),
    ]
    first = migrations[0]
    assert first.sql == "SELECT 'é';"
    assert first.checksum == hashlib.sha256("SELECT 'é';".encode()).hexdigest()
    assert first.path == str(tmp_path / "0001_first.sql")


def test_load_source_rejects_a_bad_sql_file_name(tmp_path: Path) -> None:
    (tmp_path / "0001_ok.sql").write_text("SELECT 1;")
    (tmp_path / "2_bad.sql").write_text("SELECT 2;")
    with pytest.raises(InvalidMigrationError, match=r"'2_bad\.sql'"):
        load_source(MigrationSource("svc", tmp_path))


def test_load_source_rejects_duplicate_versions(tmp_path: Path) -> None:
    (tmp_path / "0001_a.sql").write_text("SELECT 1;")
    (tmp_path / "0001_b.sql").write_text("SELECT 2;")
    with pytest.raises(InvalidMigrationError, match="duplicate migration version 0001"):
        load_source(MigrationSource("svc", tmp_path))


def test_load_source_rejects_a_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(InvalidMigrationError, match="is not a directory"):
        load_source(MigrationSource("svc", tmp_path / "nope"))


def test_load_source_reads_package_resources() -> None:
    # Packages ship migrations as data: importlib.resources traversables work like paths.
    folder = files("axonal_db")
    assert folder.is_dir()
    assert load_source(MigrationSource("none", folder)) == []


def test_checksum_error_names_file_schema_and_both_checksums() -> None:
    error = MigrationChecksumError("/m/0001_init.sql", "identity", "a" * 64, "b" * 64)
    message = str(error)
    assert "/m/0001_init.sql" in message
    assert "'identity'" in message
    assert "a" * 64 in message
    assert "b" * 64 in message
