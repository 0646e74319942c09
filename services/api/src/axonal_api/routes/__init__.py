"""HTTP routes of ``/api/v1``."""
