"""Finding the place: where an edit applies in a text, or why it applies nowhere.

The matching ladder (``rungs``, ``locate``; options in ``policy``) over a line index
(``index``) and line keys (``normalize``), the fuzzy rung (``fuzzy``), the evidence a
loose search text leaves (``evidence``), indentation shifts (``reindent``) and the
refusals that say where the closest text is (``diagnose``, ``failures``).

Nothing here imports :mod:`patchwright.engine.replacing`: the arrows point down.
"""
