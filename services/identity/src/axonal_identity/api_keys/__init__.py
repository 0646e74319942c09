"""Project API keys: Langfuse-style key pairs, the secret stored as a hash."""
