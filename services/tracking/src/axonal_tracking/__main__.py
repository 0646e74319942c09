"""``python -m axonal_tracking`` runs the tracking service."""

from axonal_bus import loop
from axonal_tracking.app import build_app
from axonal_tracking.settings import TrackingSettings

if __name__ == "__main__":
    loop.run(build_app(TrackingSettings()).run())
