"""The Axonal event contract: CloudEvents envelope, typed events, subjects and streams."""
