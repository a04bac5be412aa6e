"""Acceptance: what corpus refusals say is true of the file.

Every corpus patch changes its file, so none is already applied: a refusal that says
so is false. A refused patch writes nothing, so none may print a hunk as "applied".
Per (format, kind) a sample of refusals must name file lines that exist and, where it
quotes the file ("Found: ..."), quote the file's line as it is.

The everyday run walks a stratified sample in strict and fuzzy mode; the whole corpus
runs under the ``corpus_full`` marker.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterable
from pathlib import Path

import pytest
from corpus_support import Case, available, cases, place, stratified

from patchwright.api import apply_patch_text

pytestmark = pytest.mark.skipif(
    not available(), reason="../shared/corpus is not beside the checkout"
)

# "Hunk 2: applied" / "Hunks 1-3: applied" on a refused patch: never.
_APPLIED_HUNK = re.compile(r"^\s*Hunks? [\d-]+: applied\s*$", re.MULTILINE)
_LINES = re.compile(r"\blines? (\d+)(?:-(\d+))?")
_FOUND = re.compile(r'^\s*Found:\s+"(.*)"\s*$', re.MULTILINE)
_AT_LINE = re.compile(r"failed: [a-z ]+ at line (\d+)")
# A numbered excerpt line ("  12 |     return x", "> 12 | ..."): the file's line 12.
_GUTTER = re.compile(r"^\s*>?\s*(\d+) \| ?(.*)$", re.MULTILINE)


def _refusals(picked: Iterable[Case], tmp_path: Path, mode: str) -> list[tuple[Case, str]]:
    out = []
    for n, case in enumerate(picked):
        root = tmp_path / str(n)
        root.mkdir()
        place(root, case)
        report = apply_patch_text(case.patch, root, history=False, mode=mode)
        if not report.ok:
            out.append((case, report.summary()))
        shutil.rmtree(root)
    return out


def _untrue(case: Case, text: str) -> list[str]:
    """What the refusal ``text`` says that is not true of ``case``'s file."""
    wrong = []
    if _APPLIED_HUNK.search(text):
        wrong.append("prints a hunk as applied")
    if "already applied" in text and case.before != case.expected:
        wrong.append("says the patch looks already applied")
    lines = case.before.decode("utf-8").splitlines()
    at = _AT_LINE.search(text)
    found = _FOUND.search(text)
    if at and found and found.group(1) != "(end of file)" and "edit(s) before it" not in text:
        number = int(at.group(1))
        quoted = found.group(1).replace('\\"', '"').replace("\\\\", "\\")
        if not (0 < number <= len(lines)) or lines[number - 1] != quoted:
            wrong.append(f"quotes line {number} as {quoted!r}")
    # a later edit of a sequence counts the text the earlier ones would leave, and says so
    shifted = "count the file as the edit(s) before it" in text
    for number, shown in [] if shifted else _GUTTER.findall(text):
        at = int(number)
        if "…" in shown:
            continue  # a long line, shown cut
        if not (0 < at <= len(lines)) or lines[at - 1].rstrip() != shown.rstrip():
            wrong.append(f"shows line {at} as {shown!r}")
    for match in [] if shifted else _LINES.finditer(text):
        last = int(match.group(2) or match.group(1))
        if last > len(lines) + 1:
            wrong.append(f"names line {last} of a {len(lines)}-line file")
    return wrong


def _named_lines(text: str) -> bool:
    return _LINES.search(text) is not None


@pytest.mark.parametrize("mode", ["strict", "fuzzy"])
def test_sampled_refusals_are_true_and_name_file_lines(mode: str, tmp_path: Path) -> None:
    picked = stratified(per_group=4, seed={"strict": 11, "fuzzy": 12}[mode])
    refused = _refusals(picked, tmp_path, mode)
    assert refused, "the sample should hold refusals"
    untrue = [(c.id, w) for c, text in refused for w in _untrue(c, text)]
    assert untrue == []
    # every class of refusal (format, kind) names the file's lines it is about
    unnamed = [c.id for c, text in refused if not _named_lines(text)]
    assert len(unnamed) <= len(refused) // 10, unnamed[:10]


@pytest.mark.corpus_full
@pytest.mark.parametrize("fmt", ["udiff", "v4a", "sr"])
def test_no_corpus_refusal_prints_an_applied_hunk_or_a_false_claim(
    fmt: str, tmp_path: Path
) -> None:
    refused = _refusals(cases(fmt), tmp_path, "fuzzy")
    untrue = [(c.id, w) for c, text in refused for w in _untrue(c, text)]
    assert untrue == [], untrue[:20]
