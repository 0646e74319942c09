"""Axonal scheduler: runs, statuses, queues, DAGs, matrices, agents' liveness, automations."""
