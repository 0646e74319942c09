"""Runs this agent executes: from an ``ExecuteRun`` command to the attempt's final report."""
