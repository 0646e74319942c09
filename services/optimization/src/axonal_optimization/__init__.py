"""Axonal optimization service: adaptive searches on Optuna."""
