"""Score configs: the schema of a score name (data type, range or categories), archived
rather than deleted."""
