"""Rich views the commands print: runs, a checked polyaxonfile."""
