"""The examples of docs/snippets.md are what the merge gives: each ``original`` and
``snippet`` block merges into the ``result`` block, or is refused with the ``refusal``
block's text word for word; a ``json`` block after a result is its report."""

from __future__ import annotations

import json
import re
from pathlib import Path

from patchwright import PatchwrightError, TextFile, merge_snippet_file

DOC = Path(__file__).resolve().parents[2] / "docs" / "snippets.md"
_BLOCK = re.compile(r"^```(text|json)(?: (\w+))?(?: (\S+))?\n(.*?)^```$", re.M | re.S)


def _examples() -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    for lang, role, path, body in _BLOCK.findall(DOC.read_text(encoding="utf-8")):
        if role == "original":
            out.append({"original": body, "path": path})
        elif out and (role or lang == "json"):
            out[-1][role or "report"] = body
    return out


def test_the_examples_are_what_the_merge_gives() -> None:
    examples = _examples()
    assert len(examples) >= 3
    for ex in examples:
        file = TextFile.from_text(ex["original"])
        if "refusal" in ex:
            try:
                merge_snippet_file(file, ex["snippet"], path=ex["path"])
            except PatchwrightError as err:
                assert err.render() + "\n" == ex["refusal"]
                continue
            raise AssertionError(f"{ex['path']}: expected a refusal")
        merged = merge_snippet_file(file, ex["snippet"], path=ex["path"])
        assert merged.file.text == ex["result"]
        if "report" in ex:
            assert merged.report.to_dict() == json.loads(ex["report"])
