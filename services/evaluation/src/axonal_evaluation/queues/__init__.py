"""Annotation queues: objects (traces, observations, sessions) for people to review and
score with the queue's score configs; their items and the users assigned."""
