"""The ``patchwright`` console script of whichever source tree ``PYTHONPATH`` names.

The ``--baseline SRC`` runs of the benchmarks use it instead of the installed console
script, which names this tree's entry point: an older tree's ``run`` (the entry point
that ends the process without the interpreter's teardown) may not exist, and its
``main`` is then what its own console script called.
"""

import sys

from patchwright.adapters import cli

sys.argv[0] = "patchwright"
if hasattr(cli, "run"):
    cli.run()
sys.exit(cli.main())
