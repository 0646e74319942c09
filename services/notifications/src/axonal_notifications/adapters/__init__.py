"""Real implementations of the outside effects: DNS resolution and HTTP delivery."""
