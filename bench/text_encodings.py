"""What files that are not UTF-8, and notebooks, cost: decoding, and one edit per call.

    python bench/text_encodings.py            # 5 rounds, median
    python bench/text_encodings.py --quick    # a smoke run, smaller files

Three tables, each beside its UTF-8 (or plain-text) baseline, run in the same process:

* decoding: ``decode_file`` (detect, decode, and check that encoding the text again
  gives back the same bytes) on a large module written in Windows-1252, Shift-JIS and
  UTF-16 LE, and the same text in UTF-8;
* one ``edit_file`` call (read, match, encode, commit; no history) on a 2,000-line
  module in each encoding, and in UTF-8;
* one ``edit_file`` call inside a cell of a 200-cell notebook, and the same bytes named
  ``.json`` (edited as plain text).

Every result is checked: the decoded text is the text written, and each edit leaves the
file's bytes exactly the original's with one line changed, in the file's encoding.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from _common import fmt_ms, fmt_ratio, median, render_table

from patchwright.tools import Toolbox
from patchwright.workspace import Workspace
from patchwright.workspace.encoding import decode_file

#: the text each encoding writes: ASCII code, with comments and strings in its script
_SCRIPTS = {
    "cp1252": "# Récapitulatif des ventes – « total » en €",
    "shift_jis": "# 売上の集計：合計を返します。ご確認ください",
    "utf-16-le": "# Récapitulatif – 売上の集計 – 매출 합계",
}


def _module(lines: int, comment: str) -> str:
    """A Python module of about ``lines`` lines, one comment line in four."""
    out = []
    for i in range(lines // 4):
        out += [f"{comment} ({i})", f"def total_{i}(rows):", f"    return sum(rows) * {i}", ""]
    return "\n".join(out) + "\n"


def _timed(call: Callable[[], object], rounds: int) -> float:
    """The median seconds of ``rounds`` calls."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return median(times)


def decoding(lines: int, rounds: int) -> list[list[str]]:
    """Rows: per encoding, the size and median ``decode_file`` time beside UTF-8's."""
    rows = []
    for codec, comment in _SCRIPTS.items():
        text = _module(lines, comment)
        data, plain = text.encode(codec), text.encode("utf-8")
        model = decode_file(data, "big.py")
        assert model.text == text and model.encoding == codec and model.encode() == data
        legacy = _timed(lambda: decode_file(data, "big.py"), rounds)  # noqa: B023
        utf8 = _timed(lambda: decode_file(plain, "big.py"), rounds)  # noqa: B023
        sizes = [f"{len(data) / 2**20:.1f} MiB", f"{len(plain) / 2**20:.1f} MiB"]
        rows.append([codec, sizes[0], fmt_ms(legacy), sizes[1], fmt_ms(utf8),
                     fmt_ratio(legacy, utf8)])  # fmt: skip
    return rows


def _edits(root: Path, name: str, old: str, new: str, calls: int) -> float:
    """The median seconds of ``edit_file`` calls changing ``old`` to ``new`` and back."""
    toolbox = Toolbox(Workspace(root, state_dir=root.parent / "state", history=False))
    times = []
    for i in range(calls):
        a, b = (old, new) if i % 2 == 0 else (new, old)
        start = time.perf_counter()
        result = toolbox.call("edit_file", {"path": name, "old_string": a, "new_string": b})
        times.append(time.perf_counter() - start)
        assert result.ok, result.text
    return median(times)


def edits(calls: int) -> list[list[str]]:
    """Rows: per encoding, one edit_file call on a 2,000-line module beside UTF-8."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for codec, comment in _SCRIPTS.items():
            text = _module(2000, comment)
            old, new = "    return sum(rows) * 250", f"    return sum(rows) * 250  {comment}"
            timed = {}
            for label, encoding in ((codec, codec), ("utf-8", "utf-8")):
                root = Path(tmp) / f"{codec}-{label}" / "root"
                root.mkdir(parents=True)
                before = text.encode(encoding)
                (root / "m.py").write_bytes(before)
                timed[label] = _edits(root, "m.py", old, new, calls)
                assert (root / "m.py").read_bytes() == before  # an even count of calls
                _edits(root, "m.py", old, new, 1)
                assert (root / "m.py").read_bytes() == text.replace(old, new).encode(encoding)
            rows.append([codec, fmt_ms(timed[codec]), fmt_ms(timed["utf-8"]),
                         fmt_ratio(timed[codec], timed["utf-8"])])  # fmt: skip
    return rows


def _notebook(cells: int) -> str:
    """An nbformat 4.5 notebook of ``cells`` code cells, each with a stream output."""
    body = [
        {"cell_type": "code", "execution_count": i, "id": f"c{i:07d}", "metadata": {},
         "outputs": [{"name": "stdout", "output_type": "stream", "text": [f"{i}\n"]}],
         "source": [f"rows_{i} = load({i})\n", f"print(len(rows_{i}))"]}
        for i in range(cells)
    ]  # fmt: skip
    meta = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}}
    data = {"cells": body, "metadata": meta, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def notebook_edits(cells: int, calls: int) -> list[list[str]]:
    """Rows: one edit_file call inside a cell, and on the same bytes as plain text."""
    text = _notebook(cells)
    at = cells // 2
    timed = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, old, new in (
            ("nb.ipynb", f"rows_{at} = load({at})", f"rows_{at} = load({at}, cache=True)"),
            ("nb.json", f'"rows_{at} = load({at})\\n"', f'"rows_{at} = load({at}, cache=True)\\n"'),
        ):
            root = Path(tmp) / name / "root"
            root.mkdir(parents=True)
            (root / name).write_text(text, encoding="utf-8")
            timed[name] = _edits(root, name, old, new, calls)
            _edits(root, name, old, new, 1)
            assert (root / name).read_text(encoding="utf-8") == text.replace(
                f"rows_{at} = load({at})\\n", f"rows_{at} = load({at}, cache=True)\\n"
            )
    size = f"{len(text.encode()) / 1024:.0f} KiB"
    return [[f"{cells} cells, {size}", fmt_ms(timed["nb.ipynb"]), fmt_ms(timed["nb.json"]),
             fmt_ratio(timed["nb.ipynb"], timed["nb.json"])]]  # fmt: skip


def main() -> int:
    """Print the three tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller files, fewer calls")
    args = parser.parse_args()
    lines, rounds, calls = (40_000, 2, 6) if args.quick else (400_000, 5, 40)
    print(render_table(["decode_file", "legacy size", "median ms", "UTF-8 size", "median ms",
                        "ratio"], decoding(lines, rounds)))  # fmt: skip
    print()
    print(render_table(["edit_file, 2,000 lines", "legacy ms", "UTF-8 ms", "ratio"],
                       edits(calls)))  # fmt: skip
    print()
    print(render_table(["edit_file in a notebook", ".ipynb (cells) ms", ".json (text) ms",
                        "ratio"], notebook_edits(200, calls)))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
