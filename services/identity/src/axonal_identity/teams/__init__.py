"""Teams: principals of an organization granted roles together."""
