"""Alert rules on metrics: managed over RPC, evaluated on every stored batch of points; each
crossing is a ``metric.crossed`` event."""
