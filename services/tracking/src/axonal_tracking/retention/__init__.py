"""Retention and deletion of tracked data: expired traces, observations, scores, metric
points and artifacts go on a schedule; a deleted project, trace or run goes whole."""
