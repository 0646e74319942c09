"""Lineage: the artifact versions runs read and wrote (from ``artifact.version.created``),
and the graph from dataset versions through runs to a model version."""
