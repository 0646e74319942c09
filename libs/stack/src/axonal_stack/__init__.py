"""The embedded Axonal stack behind `axonal up`: NATS, PostgreSQL and supervised services."""
