"""Read-only navigation: ``read_file`` (numbered lines, spec 001), ``list_files`` (glob,
``.gitignore`` honoured) and ``search_files`` (literal or regex, bounded in count and time).

``models`` holds the request models of the last two; ``read_file``, ``listing`` and
``search`` the handlers (the catalogue imports ``read_file`` by itself).
"""

from patchwright.tools.navigation.listing import SPEC as LIST_SPEC
from patchwright.tools.navigation.search import SPEC as SEARCH_SPEC

SPECS = (LIST_SPEC, SEARCH_SPEC)

__all__ = ["LIST_SPEC", "SEARCH_SPEC", "SPECS"]
