"""Automation rules (an event of a project starts or restarts a run) and operation hooks:
what the scheduler starts when events arrive."""
