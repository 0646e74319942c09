"""``python -m axonal_notifications`` runs the notifications service."""

from axonal_bus import loop
from axonal_notifications.app import build_app
from axonal_notifications.settings import NotificationSettings

if __name__ == "__main__":
    loop.run(build_app(NotificationSettings()).run())
