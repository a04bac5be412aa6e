"""``python -m patchwright`` runs the command line."""

import sys

from patchwright.adapters.cli import main

sys.exit(main())
