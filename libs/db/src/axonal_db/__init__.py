"""PostgreSQL for Axonal services: pools, per-service migrations, transactions."""
