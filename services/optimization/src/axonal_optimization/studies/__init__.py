"""Studies: the adaptive search of each sweep run, its trials and their results."""
