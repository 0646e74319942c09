"""``python -m axonal`` runs the ``axonal`` command line."""

from axonal.cli import main

main()
