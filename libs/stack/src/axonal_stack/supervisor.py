"""The supervisor behind ``axonal up``: NATS, PostgreSQL, streams, then every service.

``axonal up --cluster`` (``AXONAL_CLUSTER``) runs three NATS nodes as one JetStream cluster,
streams with three replicas and two replicas of every service (:mod:`axonal_stack.replicas`).

``python -m axonal_stack.supervisor --home DIR`` runs it in the background (``axonal up
--detach``); ``axonal up`` runs the same :class:`Supervisor` in the foreground. SIGINT,
SIGTERM or SIGHUP stop the services (SIGTERM, then SIGKILL), then PostgreSQL, then NATS.
Data stays in the home folder.

While it runs, whatever dies is started again with backoff: a service that exits, or that
stops answering its pings while NATS is up (:mod:`axonal_stack.runner`), and NATS or
PostgreSQL, on the same port with the same data (:mod:`axonal_stack.server_runner`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import psutil
from pydantic import SecretStr

from axonal_bus.aio import cancel_and_wait
from axonal_bus.provision import provision, provision_when_ready
from axonal_bus.settings import BusSettings
from axonal_events import Subjects
from axonal_events.access import ADMIN_USER
from axonal_stack.discovery import ServiceEntry, discover_services
from axonal_stack.environment import NoNatsUserError, service_env, shared_env
from axonal_stack.liveness import BusWatch
from axonal_stack.lock import StackLock, StackRunningError
from axonal_stack.process import ServerProcess, log_tail
from axonal_stack.processes import ref_for
from axonal_stack.replicas import Replica, api_ports, free_api_port, replicas
from axonal_stack.runner import ServiceRunner, until_healthy
from axonal_stack.server_runner import ServerRunner
from axonal_stack.servers import (
    ensure_database,
    nats_cluster,
    nats_server,
    pick_port,
    postgres_server,
    running_nats,
)
from axonal_stack.settings import DATABASE_NAME, StackSettings
from axonal_stack.state import (
    Phase,
    ServiceState,
    StackState,
    read_state,
    write_state,
)
from axonal_stack.users import read_passwords

__all__ = ["StartupError", "Supervisor", "main"]

log = logging.getLogger("axonal_stack")


class StartupError(RuntimeError):
    """The stack could not start; the message says what failed and shows its log tail."""


class _Interrupted(Exception):
    """A stop was requested while starting."""


class Supervisor:
    """Start the stack of ``settings.home``, keep it running until :meth:`request_stop`.

    ``on_state`` is called after every change of :attr:`state` (the foreground CLI shows it).
    """

    def __init__(
        self,
        settings: StackSettings,
        *,
        services: list[ServiceEntry] | None = None,
        on_state: Callable[[StackState], None] | None = None,
    ) -> None:
        self.settings = settings
        self.paths = settings.paths
        self.services = discover_services() if services is None else services
        self.on_state = on_state
        self.ready = asyncio.Event()
        self._stop = asyncio.Event()
        self._lock = StackLock(self.paths.lock)
        self._servers: list[ServerProcess] = []
        self._runners: dict[str, ServiceRunner] = {}
        self._server_runners: dict[str, ServerRunner] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._bus: BusWatch | None = None  # the supervisor's own connection to NATS
        self._passwords: dict[str, str] = {}  # NATS users of the stack's own NATS
        self._api_ports: dict[str, int] = {}  # by replica: the api's HTTP ports
        self._before: dict[str, ServiceState] = {}  # the services of the previous start
        self.state = StackState(home=str(settings.home), namespace=settings.namespace)

    def request_stop(self) -> None:
        self._stop.set()

    async def run(self) -> int:
        """Run until stopped; 0 after a clean stop, 1 when start-up failed.

        Raises :class:`StackRunningError` when another supervisor runs for the same home.
        """
        self.paths.create()
        self._lock.acquire()
        loop = asyncio.get_running_loop()
        signals = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
        for sig in signals:
            loop.add_signal_handler(sig, self.request_stop)
        failure = ""
        try:
            await self._start()
            self._update("running", "all services healthy")
            self.ready.set()
            await self._stop.wait()
        except _Interrupted:
            pass
        except StartupError as exc:
            failure = str(exc)
            log.error("start-up failed: %s", exc)
        finally:
            await self._shutdown(failure)
            for sig in signals:
                loop.remove_signal_handler(sig)
            self._lock.release()
        return 1 if failure else 0

    def _update(
        self, phase: Phase | None = None, detail: str | None = None, level: int = logging.INFO
    ) -> None:
        changes: dict[str, object] = {}
        if phase is not None:
            changes["phase"] = phase
        if detail is not None:
            changes["detail"] = detail
            log.log(level, "%s", detail)
        changes["services"] = {name: runner.state for name, runner in self._runners.items()}
        changes["servers"] = {role: r.state for role, r in self._server_runners.items()}
        self.state = self.state.model_copy(update=changes)
        write_state(self.paths.state, self.state)
        if self.on_state is not None:
            self.on_state(self.state)

    def _checkpoint(self, detail: str) -> None:
        if self._stop.is_set():
            raise _Interrupted
        self._update(detail=detail)

    async def _start(self) -> None:
        previous = read_state(self.paths.state)
        self.state = StackState(
            home=str(self.settings.home),
            namespace=self.settings.namespace,
            started_at=datetime.now(UTC),
            supervisor=ref_for(os.getpid()),
            api_url=self.settings.api_url,
            artifacts_url=str(self.paths.artifacts),
            nats_port=previous.nats_port if previous else None,
            postgres_port=previous.postgres_port if previous else None,
            api_port=previous.api_port if previous else None,
            cluster=self.settings.cluster,
            nats_nodes=previous.nats_nodes if previous else {},
        )
        self._before = previous.services if previous else {}  # the ports they had
        self._runners = {}
        self._server_runners = {}
        self._checkpoint("starting NATS")
        self._start_nats()
        self._checkpoint("starting PostgreSQL")
        await self._start_postgres()
        self._checkpoint("provisioning streams")
        await self._provision()
        planned = replicas(self.services, self.settings.service_replicas)
        self._choose_api_ports(planned)
        self._checkpoint(f"starting services: {', '.join(r.key for r in planned)}")
        self._start_services(planned)
        await self._wait_healthy()

    def _run_server(self, role: str, server: ServerProcess, timeout: float) -> None:
        """Start ``server`` (or fail start-up), then keep it running."""
        try:
            server.start(timeout=timeout)
        except Exception as exc:
            raise StartupError(f"{server.name} did not start: {exc}") from exc
        self._servers.append(server)
        runner = ServerRunner(
            role,
            server,
            start_timeout=timeout,
            on_change=self._server_changed,
            # a cluster's restarted node catches up from the others
            after_restart=self._reprovision if role == "nats" else None,
        )
        self._server_runners[role] = runner
        self._tasks.append(asyncio.create_task(runner.run(), name=f"server-{role}"))

    def _server_changed(self, runner: ServerRunner, message: str) -> None:
        ref = None
        if runner.state.up and runner.server.pid is not None:
            with contextlib.suppress(psutil.Error):  # died again already: the runner sees it
                ref = ref_for(runner.server.pid)
        self.state = self.state.with_process(runner.role, ref)
        self._update(detail=message, level=logging.INFO if runner.state.up else logging.WARNING)

    async def _reprovision(self) -> None:
        """Declare the streams again after NATS restarted (its store normally kept them)."""
        bus = self._bus
        try:
            assert bus is not None
            await asyncio.wait_for(bus.connected.wait(), timeout=30)
            assert bus.nc is not None
            await provision(bus.nc.jetstream(), bus.settings.subjects, bus.settings.stream_replicas)
        except Exception as exc:  # noqa: BLE001 - the services still retry on their own
            log.error("re-provisioning the streams after the NATS restart failed: %s", exc)

    def _start_nats(self) -> None:
        if self.settings.nats_url:
            self.state = self.state.model_copy(
                update={"nats_url": self.settings.nats_url, "nats_nodes": {}}
            )
            return
        self._passwords = read_passwords(self.paths.nats_users, Subjects(self.settings.namespace))
        if (
            self.settings.cluster
        ):  # each node is ready on its own; they form the cluster as they meet
            servers = nats_cluster(self.settings, self.state.nats_nodes, self._passwords)
        else:
            servers = {"nats": nats_server(self.settings, self.state.nats_port, self._passwords)}
        for role, server in servers.items():
            self._run_server(role, server, timeout=30)
        self.state = self.state.model_copy(
            update=running_nats(servers, cluster=self.settings.cluster)
        )

    async def _start_postgres(self) -> None:
        if self.settings.database_url:
            self.state = self.state.model_copy(update={"database_url": self.settings.database_url})
            return
        postgres = postgres_server(self.settings, self.state.postgres_port)
        self._run_server("postgres", postgres, timeout=120)
        assert postgres.pid is not None
        self.state = self.state.model_copy(
            update={
                "database_url": postgres.url_for(DATABASE_NAME),
                "postgres_port": postgres.port,
                "postgres": ref_for(postgres.pid),
            }
        )
        try:
            await ensure_database(postgres, DATABASE_NAME)
        except Exception as exc:
            raise StartupError(f"cannot create the {DATABASE_NAME} database: {exc}") from exc

    async def _provision(self) -> None:
        assert self.state.nats_url is not None
        bus = BusSettings(nats_url=self.state.nats_url, namespace=self.settings.namespace)
        if self._passwords:  # the stack's own NATS
            bus = bus.model_copy(
                update={
                    "nats_user": ADMIN_USER,
                    "nats_password": SecretStr(self._passwords[ADMIN_USER]),
                    "stream_replicas": self.settings.stream_replicas,
                }
            )
        try:
            self._bus = BusWatch(bus, self._nats_server_up)
            nc = await self._bus.connect()
            # a cluster takes a moment to elect its JetStream leader
            await provision_when_ready(nc.jetstream(), bus.subjects, bus.stream_replicas)
        except Exception as exc:
            raise StartupError(f"cannot provision streams on {bus.nats_url}: {exc}") from exc

    def _choose_api_ports(self, planned: list[Replica]) -> None:
        """The api service's port (recorded, preferred 8000, else free), the api URL, and
        the ports of its further replicas."""
        if not any(entry.name == "api" for entry in self.services):
            return
        host, preferred = self.settings.host, self.settings.api_port
        port = pick_port(self.state.api_port, preferred, host)
        url = self.settings.api_url or f"http://{host}:{port}"
        self.state = self.state.model_copy(update={"api_port": port, "api_url": url})
        self._api_ports = api_ports(
            planned, host=host, first=port, preferred=preferred, before=self._before
        )

    def _service_env(self, replica: Replica) -> dict[str, str]:
        try:
            return service_env(
                replica,
                shared_env(self.settings, self.state),
                home=self.settings.home,
                passwords=self._passwords,
                api_port=self._api_ports.get(replica.key),
            )
        except NoNatsUserError as exc:
            raise StartupError(str(exc)) from exc

    def _nats_server_up(self) -> bool:
        """Every NATS server the stack runs is up (while a node of a cluster restarts, the
        services connected to it move to another: a ping they miss then is no hang)."""
        return all(
            runner.up.is_set()
            for role, runner in self._server_runners.items()
            if role == "nats" or role in self.state.nats_nodes
        )

    def _start_services(self, planned: list[Replica]) -> None:
        assert self._bus is not None
        for replica in planned:
            port = self._api_ports.get(replica.key)
            url = f"http://{self.settings.host}:{port}" if port else None
            runner = ServiceRunner(
                replica.entry,
                env=self._service_env(replica),
                log_path=self.paths.service_log(replica.key),
                probe=partial(self._bus.probe, replica=replica.number),
                on_change=self._update,
                stop_timeout=self.settings.stop_timeout,
                hang_timeout=self.settings.stack_hang_timeout,
                ping_interval=self.settings.stack_ping_interval,
                name=replica.key,
                before_spawn=partial(free_api_port, host=self.settings.host)
                if port and replica.number > 1
                else None,
            )
            runner.state = runner.state.model_copy(
                update={"service": replica.service, "replica": replica.number, "url": url}
            )
            self._runners[replica.key] = runner
            self._tasks.append(asyncio.create_task(runner.run(), name=f"service-{replica.key}"))
        self._update()

    async def _wait_healthy(self) -> None:
        await until_healthy(self._runners.values(), self._stop, self.settings.startup_timeout)
        if self._stop.is_set():
            raise _Interrupted
        late = [r for r in self._runners.values() if not r.healthy.is_set()]
        if late:
            report = "\n".join(f"--- {r.log_path}\n{log_tail(r.log_path)}" for r in late)
            names = ", ".join(r.name for r in late)
            raise StartupError(
                f"not healthy after {self.settings.startup_timeout:g}s: {names}\n{report}"
            )

    async def _shutdown(self, failure: str) -> None:
        self._update("stopping", "stopping services")
        await cancel_and_wait(self._tasks)
        self._tasks = []
        if self._bus is not None:
            await self._bus.close()
            self._bus = None
        for server in reversed(self._servers):  # PostgreSQL, then NATS
            log.info("stopping %s", server.name)
            server.stop(timeout=self.settings.stop_timeout)
        self._servers = []
        self.state = self.state.stopped(failure.split("\n", 1)[0])  # the log has the rest
        if failure:
            self.state = self.state.model_copy(update={"phase": "failed"})
        write_state(self.paths.state, self.state)
        if self.on_state is not None:
            self.on_state(self.state)
        log.info("stack stopped")


def main(argv: list[str] | None = None) -> int:
    """Entry point of the background supervisor; logs go to stdout (``logs/stack.log``)."""
    parser = argparse.ArgumentParser(description="Run the embedded Axonal stack.")
    parser.add_argument("--home", type=Path, help="AXONAL_HOME (default: from the environment)")
    parser.add_argument(
        "--cluster", action="store_true", help="3 NATS nodes, 2 replicas of every service"
    )
    args = parser.parse_args(argv)
    logging.basicConfig(
        stream=sys.stdout, level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s"
    )
    settings = StackSettings(home=args.home) if args.home else StackSettings()
    if args.cluster:
        settings = settings.model_copy(update={"cluster": True})
    supervisor = Supervisor(settings)
    try:
        return asyncio.run(supervisor.run())
    except StackRunningError as exc:
        log.error("%s", exc)
        return 3


if __name__ == "__main__":
    sys.exit(main())
