"""The public surface: a deliberate ``__all__`` and a cheap import."""

from __future__ import annotations

import subprocess
import sys

import patchwright


def test_public_names_resolve() -> None:
    # the names are the package's own ``if TYPE_CHECKING:`` re-exports (patchwright/_lazy.py)
    assert {"apply_patch_text", "ApplyReport", "PatchwrightError", "__version__"} <= set(
        patchwright.__all__
    )
    for name in patchwright.__all__:
        assert getattr(patchwright, name) is not None


def test_import_loads_no_adapter_dependencies() -> None:
    code = (
        "import sys, patchwright\n"
        "heavy = ['mcp', 'pydantic', 'filelock', 'sqlite3', 'rapidfuzz', 'argparse', 'asyncio']\n"
        "print(','.join(m for m in heavy if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_patch_apply_error_is_a_patchwright_error() -> None:
    # Spec 003 names it: hosts catch it from the package root, and render it like any
    # other refusal.
    assert issubclass(patchwright.PatchApplyError, patchwright.PatchwrightError)
    assert "PatchApplyError" in _errors_doc()


def _errors_doc() -> str:
    from patchwright.model import errors

    return errors.__doc__ or ""


def test_unknown_attribute_raises() -> None:
    try:
        patchwright.no_such_name  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("expected AttributeError")
