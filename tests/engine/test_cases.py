"""Case files for the matching engine, walked by one parametrised test.

Each ``tests/fixtures/cases/*.case`` file holds one edit: a header of ``key: value``
options, then sections opened by ``=== name`` lines:

* ``input``: the file before (written as ``path``, default ``f.txt``);
* ``patch``: the patch text, in any format patchwright reads;
* ``expected``: the file after, when the patch must apply; or
* ``error``: lines that must each occur in the refusal's message (the file must be
  left untouched).

With ``escapes: yes`` the physical newlines of the sections are dropped and the bytes
are written as escapes (``\\r\\n``, ``\\n``, ``\\t``, ``\\u2019``).

Options: ``mode`` (strict / tolerant / fuzzy, default fuzzy), ``path``, ``format``
(default detected; ``snippet`` applies the patch as a lazy edit snippet of ``path``), ``syntax``
(the guard's policy, default warn), ``escapes`` (see above), ``warning`` (text one of
the file's warnings must contain). Sections end with their last newline; ``=== end``
may close the file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from patchwright.api import apply_patch_text

CASES = Path(__file__).resolve().parents[1] / "fixtures" / "cases"


@dataclass
class Case:
    """One parsed case file."""

    name: str
    options: dict[str, str] = field(default_factory=dict)
    sections: dict[str, str] = field(default_factory=dict)


def _read(path: Path) -> Case:
    case = Case(path.stem)
    current: list[str] | None = None
    for line in path.read_text(encoding="utf-8").splitlines(keepends=True):
        if line.startswith("=== "):
            name = line[4:].strip()
            current = [] if name != "end" else None
            if current is not None:
                case.sections[name] = current  # type: ignore[assignment]
            continue
        if current is None:
            if ":" in line and not line.startswith("#"):
                key, value = line.split(":", 1)
                case.options[key.strip()] = value.strip()
            continue
        current.append(line)
    raw: dict[str, list[str]] = case.sections  # type: ignore[assignment]
    if case.options.get("escapes") == "yes":
        # Written line by line for reading; only the escapes make the bytes.
        case.sections = {k: _unescape("".join(x.rstrip("\n") for x in v)) for k, v in raw.items()}
    else:
        case.sections = {k: "".join(v) for k, v in raw.items()}
    return case


def _unescape(text: str) -> str:
    return text.encode("latin-1", "backslashreplace").decode("unicode_escape")


def _files() -> list[Path]:
    return sorted(CASES.glob("*.case"))


def test_there_are_cases() -> None:
    assert len(_files()) >= 10


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.stem)
def test_case(path: Path, tmp_path: Path) -> None:
    case = _read(path)
    target = tmp_path / case.options.get("path", "f.txt")
    before = case.sections["input"].encode("utf-8")
    target.write_bytes(before)
    fmt = case.options.get("format", "auto")
    report = apply_patch_text(
        case.sections["patch"],
        tmp_path,
        mode=case.options.get("mode", "fuzzy"),
        syntax=case.options.get("syntax", "warn"),
        history=False,
        format=fmt,
        path=case.options.get("path", "f.txt") if fmt == "snippet" else None,
    )
    got = target.read_bytes()
    if "expected" in case.sections:
        message = report.error.message if report.error else ""
        assert report.applied, f"refused: {message}"
        assert got == case.sections["expected"].encode("utf-8")
        want = case.options.get("warning")
        if want:
            warnings = [w for f in report.files for w in f.warnings]
            assert any(want in w for w in warnings), warnings
        return
    assert not report.applied and report.error is not None
    assert got == before, "a refusal changed the file"
    for needle in case.sections["error"].splitlines():
        if needle.strip():
            assert needle.strip() in report.error.message, report.error.message
