"""Real implementations of the outside effects: DNS resolution, HTTP and SMTP delivery."""
