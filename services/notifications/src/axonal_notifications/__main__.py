"""``python -m axonal_notifications`` runs the notifications service."""

from axonal_bus import loop
from axonal_notifications.app import build_notifications_app

if __name__ == "__main__":
    loop.run(build_notifications_app().run())
