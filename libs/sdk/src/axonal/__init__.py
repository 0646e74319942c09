"""The Axonal SDK and command-line interface."""
