"""Artifact records of runs (files, curves, models... kept in the object store) and the
lineage between runs they give: which run produced what another one read."""
