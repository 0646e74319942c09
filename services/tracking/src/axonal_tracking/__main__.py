"""``python -m axonal_tracking`` runs the tracking service."""

from axonal_bus import loop
from axonal_bus.service import build_app
from axonal_tracking.app import DEFINITION

if __name__ == "__main__":
    loop.run(build_app(DEFINITION).run())
