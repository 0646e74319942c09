"""One email through an SMTP server (``aiosmtplib``), timed and summarised as an outcome."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

import aiosmtplib

from axonal_events import CATALOG
from axonal_events.connections import SmtpConfig, SmtpSecurity
from axonal_events.webhooks import RESPONSE_EXCERPT_CHARS
from axonal_notifications.domain.deliveries import Job, Outcome
from axonal_notifications.domain.notifiers import email, notice
from axonal_notifications.domain.targets import Resolver, TargetPolicy, TargetRefused, check_host

__all__ = ["Mailer", "message_of"]

_SENT = 250  # the SMTP reply that accepts a message


def message_of(job: Job, smtp: SmtpConfig) -> EmailMessage:
    """The email ``job``'s event becomes (the message id is the event's id)."""
    subject, body = email(notice(CATALOG.decode(job.payload)))
    message = EmailMessage()
    message["From"] = smtp.sender
    message["To"] = ", ".join(smtp.to)
    message["Subject"] = subject
    message["Date"] = format_datetime(datetime.now(UTC))
    message["Message-ID"] = make_msgid(idstring=job.event_id, domain="axonal")
    message.set_content(body)
    return message


class Mailer:
    """Sends email jobs, one SMTP session each; never raises for a server's failure.

    Args:
        timeout: seconds one attempt may take in all (connect, login, send).
        resolver: resolves the server's host for the check made before each attempt.
        policy: which hosts may be reached.
    """

    def __init__(self, timeout: float, resolver: Resolver, policy: TargetPolicy) -> None:
        self.timeout = timeout
        self.resolver = resolver
        self.policy = policy

    async def send(self, job: Job) -> Outcome:
        at = datetime.now(UTC)
        started = time.perf_counter()
        smtp = SmtpConfig.model_validate(job.settings["smtp"])

        def outcome(
            code: int | None = None, excerpt: str = "", error: str | None = None
        ) -> Outcome:
            latency = (time.perf_counter() - started) * 1000
            return Outcome(job, at, round(latency, 3), code, excerpt, error)

        try:
            await check_host(smtp.host, self.resolver, self.policy, shown=job.url)
            message = message_of(job, smtp)
            async with asyncio.timeout(self.timeout):
                _, reply = await aiosmtplib.send(
                    message,
                    hostname=smtp.host,
                    port=smtp.port,
                    username=smtp.username,
                    password=smtp.password,
                    use_tls=smtp.security is SmtpSecurity.TLS,
                    start_tls=smtp.security is SmtpSecurity.STARTTLS,
                    timeout=self.timeout,
                )
        except TargetRefused as exc:
            return outcome(error=f"refused: {exc}")
        except aiosmtplib.SMTPResponseException as exc:
            return outcome(exc.code, error=f"{type(exc).__name__}: {exc.code} {exc.message}")
        except TimeoutError:
            return outcome(error=f"timeout: not sent within {self.timeout:g}s")
        except Exception as exc:  # noqa: BLE001 - any failure is this attempt's outcome
            return outcome(error=f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__)
        return outcome(_SENT, reply[:RESPONSE_EXCERPT_CHARS])
