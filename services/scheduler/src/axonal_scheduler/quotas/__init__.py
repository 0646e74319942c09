"""Each project's concurrent runs, kept from ``project.quotas.changed`` for admission."""
