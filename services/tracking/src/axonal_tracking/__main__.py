"""``python -m axonal_tracking`` runs the tracking service."""

import asyncio

from axonal_bus.service import build_app
from axonal_tracking.app import DEFINITION

if __name__ == "__main__":
    asyncio.run(build_app(DEFINITION).run())
