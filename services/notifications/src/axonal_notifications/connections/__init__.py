"""Connections: named targets of a project (a webhook, chat, PagerDuty or email) that hooks
and alert routes deliver through; their secrets are only ever shown masked."""
