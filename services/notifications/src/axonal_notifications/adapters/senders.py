"""Each job to the sender of its kind: email over SMTP, everything else over HTTP."""

from __future__ import annotations

from axonal_notifications.domain.deliveries import Job, Outcome
from axonal_notifications.ports import Sender

__all__ = ["Senders"]


class Senders:
    """:class:`~axonal_notifications.ports.Sender` that picks ``email`` or ``http``."""

    def __init__(self, http: Sender, email: Sender) -> None:
        self.http = http
        self.email = email

    async def send(self, job: Job) -> Outcome:
        return await (self.email if job.kind == "email" else self.http).send(job)
