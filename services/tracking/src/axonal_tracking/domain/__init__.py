"""Pure tracking logic: alert rule evaluation."""
