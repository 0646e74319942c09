"""Alert routes: which events of a project go to a connection, each alert once per window."""
