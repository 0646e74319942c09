"""``python -m axonal_notifications`` runs the notifications service."""

import asyncio

from axonal_notifications.app import build_notifications_app

if __name__ == "__main__":
    asyncio.run(build_notifications_app().run())
