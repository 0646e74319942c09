"""``python -m axonal_scheduler`` runs the scheduler service."""

from axonal_bus import loop
from axonal_scheduler.app import build_app
from axonal_scheduler.settings import SchedulerSettings

if __name__ == "__main__":
    loop.run(build_app(SchedulerSettings()).run())
