"""``python -m patchwright`` runs the command line."""

from patchwright.adapters.cli import run

run()
