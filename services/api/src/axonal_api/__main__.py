"""``python -m axonal_api`` serves the api with uvicorn (NATS on the same event loop)."""

from __future__ import annotations

import uvicorn

from axonal_api.app import build_app
from axonal_api.settings import ApiSettings
from axonal_bus.log import configure_logging
from axonal_bus.loop import tune_gc


def main() -> None:
    settings = ApiSettings()
    configure_logging(settings.log_level, json=settings.log_json)
    config = uvicorn.Config(
        build_app(settings),
        host=settings.api_host,
        port=settings.api_port,
        log_level=settings.log_level.lower(),
        access_log=False,
        timeout_graceful_shutdown=5,
    )
    # Bind before the lifespan answers pings: a port taken (by another stack) exits at once
    # instead of looking healthy while the requests go to whoever holds the port.
    sock = config.bind_socket()
    tune_gc()
    uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    main()
