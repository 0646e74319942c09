"""Registered models: versions made from runs' model artifacts, aliases with one holder
each, protected aliases that move on approval; every change leaves through the outbox."""
