"""Axonal scheduler: runs, statuses, queues, DAGs, matrices."""

from axonal_scheduler.app import DEFINITION

__all__ = ["DEFINITION"]
