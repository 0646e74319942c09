"""Datasets, their versioned items, and dataset runs (experiments) with their items."""
