"""``python -m axonal_scheduler`` runs the scheduler service."""

import asyncio

from axonal_bus.service import build_app
from axonal_scheduler.app import DEFINITION

if __name__ == "__main__":
    asyncio.run(build_app(DEFINITION).run())
