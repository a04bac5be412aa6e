"""The fuzzy rung: placing a damaged block by similarity (it needs ``rapidfuzz``).

Loaded only when a block is found nowhere exactly: the exact rungs never import this
package, so a clean apply does not pay for ``rapidfuzz``.

* :mod:`patchwright.engine.matching.fuzzy.regions`: candidate places found by votes and the
  trust checks a region must pass;
* :mod:`patchwright.engine.matching.fuzzy.align`: the line alignment of a block against a
  window, linear in both lengths.
"""

from patchwright.engine.matching.fuzzy.regions import best_regions, distrust, trustworthy

__all__ = ["best_regions", "distrust", "trustworthy"]
