"""Cost of the syntax guard (``patchwright.syntax.check_edit``) after one edit.

    python bench/syntax.py                 # 5,000-line files, 15 runs each, median
    python bench/syntax.py --lines 20000 --repeat 9
    python bench/syntax.py --corpus ../shared/corpus   # also every real edit of a corpus

For a generated Python module it times a typical edit inside a method, a new method, an
edit of a module-level function, a comment added to a class line (comments only: proven
without compiling the class), two edits far apart judged with the blocks of their
diff's hunks (as ``apply_patch_text`` passes them), a file created from scratch, an edit
that breaks the indentation (the error path parses both texts and compares), and a
whole-file compile for reference. Two diffs of a hundred hunks and more (every module
function's call changed), one of them over a file that had an error before it, show the
cost of an edit with more changes than the guard judges one at a time. Then a value
changed in JSON and TOML, and, when the ``syntax`` extra (tree-sitter) is installed,
JavaScript edits both as a first edit (full parse) and as a next edit (the tree of the
text before is kept, so the parse is incremental). Target: a typical edit of a
5,000-line Python file adds under 20 ms, and so does an edit that breaks it (the error
path); the last lines say PASS or FAIL for each. Grammar loading is paid once per
process and kept out of the figures.

Error paths of Python: an edit breaking the indentation, or deleting a closing brace, is
judged by compiling the edited statements before and after the edit (scope ``region``);
a quote left open stops the statement finder, so the text after the edit is compiled
whole and only the old statements around the edit are compiled; deleting a method's
header with the line opening a dict leaves a closing brace unmatched (no statement can
be delimited) and puts the error on an unchanged line, so both texts are compiled whole.
The guard keeps the last few whole-text verdicts: "old known" times that edit when the
old text was parsed whole before (a file created, or an earlier edit judged whole), and
"again" the same check repeated (a dry run, then the real run; a refused edit sent
again). Every other run starts with no verdict kept.

With ``--corpus`` it also checks every real edit of a patch corpus (``cases.jsonl`` with
``cases/<case>/before`` and ``after``): edits by language and scope, the warnings raised
(real commits rarely break their files, so each one is worth a look), and time per edit.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

from _common import fmt_ms, median, render_table

from patchwright.syntax import SyntaxReport, check_edit
from patchwright.syntax.check import forget_verdicts
from patchwright.syntax.stdlib_parsers import python_errors
from patchwright.syntax.treesitter import forget_trees

Check = Callable[[], SyntaxReport]
Setup = Callable[[], object]
Case = tuple[str, Check, Setup | None]


def python_module(lines: int) -> str:
    """A deterministic module of about ``lines`` lines: classes, methods, docstrings."""
    out = ['"""Generated module for the syntax benchmark."""', "", "import os", "import re", ""]
    index = 0
    while len(out) < lines - 12:
        out += [
            "",
            f"class Widget{index}:",
            f'    """Widget number {index}.',
            "",
            "    Keeps a counter and a name.",
            '    """',
            "",
            f"    LIMIT = {index * 3 + 1}",
            "",
            "    def __init__(self, name: str, size: int = 0) -> None:",
            "        self.name = name  # shown in reports",
            "        self.size = size",
            "        self.items: list[str] = []",
            "",
            "    def grow(self, amount: int) -> int:",
            f"        if amount > self.LIMIT or amount < -{index}:",
            "            raise ValueError(f'bad amount {amount!r} for {self.name}')",
            "        for step in range(amount):",
            "            self.items.append(os.path.join(self.name, str(step)))",
            "        self.size += amount",
            "        return self.size",
            "",
            "    def describe(self) -> dict[str, object]:",
            "        return {",
            "            'name': self.name,",
            "            'size': self.size,",
            "            'matches': re.findall(r'\\d+', self.name),",
            "        }",
            "",
            "",
            f"def make_widget_{index}(name: str) -> Widget{index}:",
            f"    widget = Widget{index}(name)",
            "    widget.grow(1)",
            "    return widget",
        ]
        index += 1
    return "\n".join(out) + "\n"


def _replace_nth(text: str, old: str, new: str, nth: int) -> str:
    at = -1
    for _ in range(nth + 1):
        at = text.index(old, at + 1)
    return text[:at] + new + text[at + len(old) :]


def python_cases(lines: int) -> list[Case]:
    """(label, check) pairs for the Python scenarios."""
    before = python_module(lines)
    middle = before.count("class Widget") // 2
    in_method = _replace_nth(
        before, "        self.size += amount\n", "        self.size += 2 * amount\n", middle
    )
    new_method = _replace_nth(
        before,
        "    def describe(self)",
        "    def shrink(self, amount: int) -> int:\n        self.size -= amount\n"
        "        return self.size\n\n    def describe(self)",
        middle,
    )
    top_level = _replace_nth(before, "    widget.grow(1)\n", "    widget.grow(2)\n", middle)
    class_comment = before.replace(f"class Widget{middle}:", f"class Widget{middle}:  # noqa", 1)
    broken = _replace_nth(
        before, "        self.size += amount\n", "      self.size += amount\n", middle
    )
    no_brace = _replace_nth(before, "            'matches'", "            'matches'", middle)
    no_brace = _replace_nth(no_brace, "        }\n", "", middle)
    open_quote = _replace_nth(
        before, "        self.size += amount\n", "        self.size += 'amount\n", middle
    )
    triple = _replace_nth(
        before, "    def describe(self)", '    """\n    def describe(self)', middle
    )
    body = f"    widget = Widget{middle}(name)\n    widget.grow(1)\n    return widget\n"
    no_body = before.replace(body, "", 1)
    no_header = _replace_nth(
        before, "    def describe(self) -> dict[str, object]:\n        return {\n", "", middle
    )

    quarter = before.count("class Widget") // 4
    two_hunks = _replace_nth(
        before, "        self.size += amount\n", "        self.size += 2 * amount\n", quarter
    )
    two_hunks = _replace_nth(two_hunks, "    widget.grow(1)\n", "    widget.grow(2)\n", 3 * quarter)
    hunks = diff_hunks(before, two_hunks)
    # every module function's call changed: a diff of more hunks than the guard steps
    # through, judged by one whole compile; then the same over a file broken before it
    many = before.replace("    widget.grow(1)\n", "    widget.grow(2)\n")
    many_hunks = diff_hunks(before, many)
    broken_first = _replace_nth(
        before, "        self.size += amount\n", "      self.size += amount\n", 0
    )
    many_on_broken = broken_first.replace("    widget.grow(1)\n", "    widget.grow(2)\n")
    broken_hunks = diff_hunks(broken_first, many_on_broken)

    def check(after: str | None, old: str | None = before) -> Check:
        return lambda: check_edit("m.py", old, after or "")

    def old_known() -> None:
        forget_verdicts()
        check_edit("m.py", None, before)  # the old text was parsed whole, e.g. when created

    def pair_known() -> None:
        forget_verdicts()
        check_edit("m.py", before, no_header)  # e.g. a dry run before the real run

    cold = forget_verdicts
    return [
        ("python: edit inside a method", check(in_method), cold),
        ("python: add a method", check(new_method), cold),
        ("python: edit a module function", check(top_level), cold),
        ("python: comment a class line", check(class_comment), cold),
        (
            "python: two hunks of a diff, far apart",
            lambda: check_edit("m.py", before, two_hunks, changed=hunks),
            cold,
        ),
        (
            f"python: {len(many_hunks)} hunks of a diff, all over the file",
            lambda: check_edit("m.py", before, many, changed=many_hunks),
            cold,
        ),
        (
            f"python: {len(broken_hunks)} hunks of a diff, a file broken before",
            lambda: check_edit("m.py", broken_first, many_on_broken, changed=broken_hunks),
            cold,
        ),
        ("python: create the file", check(before, None), cold),
        ("python: edit breaking indentation", check(broken), cold),
        ("python: delete a closing brace", check(no_brace), cold),
        ("python: leave a quote open", check(open_quote), cold),
        ("python: add a stray triple quote", check(triple), cold),
        ("python: delete a function body", check(no_body), cold),
        ("python: delete a method header", check(no_header), cold),
        ("python: delete a method header, old known", check(no_header), old_known),
        ("python: delete a method header, again", check(no_header), pair_known),
        ("python: whole-file compile only", lambda: _as_report(before), None),
    ]


def diff_hunks(before: str, after: str) -> list[tuple[int, int, int, int]]:
    """The changed blocks as the hunks of a unified diff give them (3 lines of context),
    the way ``apply_patch_text`` hands them to the guard."""
    import difflib

    old, new = before.split("\n"), after.split("\n")
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    return [(g[0][1], g[-1][2], g[0][3], g[-1][4]) for g in matcher.get_grouped_opcodes(3)]


def _as_report(text: str) -> SyntaxReport:
    started = time.perf_counter()
    errors = python_errors(text)
    elapsed = (time.perf_counter() - started) * 1000
    return SyntaxReport("python", True, elapsed, preexisting=len(errors), scope="file")


def data_cases(lines: int) -> list[Case]:
    """JSON and TOML documents of about ``lines`` lines, one value changed."""
    records = [{"id": i, "name": f"item {i}", "tags": ["a", "b"]} for i in range(lines // 9)]
    json_before = json.dumps({"records": records}, indent=2)
    json_after = json_before.replace('"item 7"', '"item seven"', 1)
    toml_before = "".join(
        f'[server{i}]\nhost = "10.0.0.{i % 250}"\nport = {8000 + i}\nenabled = true\n\n'
        for i in range(lines // 5)
    )
    toml_after = toml_before.replace("port = 8007", "port = 9007", 1)
    return [
        (
            "json: change a value",
            lambda: check_edit("d.json", json_before, json_after),
            forget_verdicts,
        ),
        (
            "toml: change a value",
            lambda: check_edit("c.toml", toml_before, toml_after),
            forget_verdicts,
        ),
    ]


def javascript_cases(lines: int) -> list[Case]:
    """A JavaScript module of about ``lines`` lines; empty without the tree-sitter extra."""
    functions = [
        f"export function handler{i}(request, options = {{}}) {{\n"
        f"  const limit = options.limit ?? {i};\n"
        "  if (request.items.length > limit) {\n"
        "    throw new Error(`too many items: ${request.items.length}`);\n"
        "  }\n"
        "  return request.items.map((item) => ({ ...item, seen: true }));\n"
        "}\n"
        for i in range(lines // 8)
    ]
    before = "\n".join(functions)
    valid = before.replace("const limit = options.limit ?? 7;", "const limit = 7;", 1)
    broken = before.replace("  }\n  return request.items.map", "  return request.items.map", 1)
    probe = check_edit("probe.js", "", "let a = 1;\n")
    if not probe.checked:
        print(f"javascript skipped: {probe.reason}")
        return []

    def keep_before() -> None:
        forget_trees()
        check_edit("h.js", "", before)  # a created file: its tree is kept

    return [
        ("javascript: change, first edit", lambda: check_edit("h.js", before, valid), forget_trees),
        ("javascript: change, next edit", lambda: check_edit("h.js", before, valid), keep_before),
        (
            "javascript: drop a brace, first",
            lambda: check_edit("h.js", before, broken),
            forget_trees,
        ),
        ("javascript: drop a brace, next", lambda: check_edit("h.js", before, broken), keep_before),
    ]


def measure(check: Check, setup: Setup | None, repeat: int) -> tuple[float, SyntaxReport]:
    """Median wall time over ``repeat`` runs after one warm-up, and the last report.

    ``setup`` runs before each run, untimed (it sets which parse trees are kept).
    """
    report = check()
    times = []
    for _ in range(repeat):
        if setup is not None:
            setup()
        started = time.perf_counter()
        report = check()
        times.append(time.perf_counter() - started)
    return median(times), report


# The scenarios held to the 20 ms target: typical edits, then the error path.
TARGET_MS = 20.0
TYPICAL = (
    "python: edit inside a method",
    "python: add a method",
    "python: edit a module function",
)
ERROR_PATH = (
    "python: edit breaking indentation",
    "python: delete a closing brace",
    "python: leave a quote open",
    "python: add a stray triple quote",
    "python: delete a function body",
    "python: delete a method header",
    "python: delete a method header, old known",
    "python: delete a method header, again",
)


def targets(timed: dict[str, float], lines: int) -> str:
    """PASS/FAIL lines against 20 ms: the slowest typical edit, then each error path."""
    slowest = max(TYPICAL, key=lambda key: timed[key])
    rows = [("typical edit (slowest: " + slowest.removeprefix("python: ") + ")", slowest)]
    rows += [("error path: " + label.removeprefix("python: "), label) for label in ERROR_PATH]
    out = [f"target: under {TARGET_MS:.0f} ms on a {lines}-line Python file"]
    for name, label in rows:
        ms = timed[label] * 1000
        out.append(f"{'PASS' if ms < TARGET_MS else 'FAIL'} {ms:6.1f} ms  {name}")
    return "\n".join(out)


def corpus_report(folder: Path) -> str:
    """Check every edit of the corpus in ``folder`` and summarise, one row per language."""
    counts: Counter[tuple[str, str]] = Counter()
    times: defaultdict[str, list[float]] = defaultdict(list)
    warnings: list[str] = []
    for line in (folder / "cases.jsonl").read_text().splitlines():
        case = json.loads(line)
        base = folder / "cases" / case["case"]
        before = (base / "before").read_bytes().decode()
        after = (base / "after").read_bytes().decode()
        report = check_edit(case["path"], before, after)
        language = report.language or "(none)"
        counts[(language, report.scope or "unchecked")] += 1
        times[language].append(report.elapsed_ms / 1000)
        if report.new_errors:
            first = report.new_errors[0]
            warnings.append(f"  {case['case']} {case['path']}:{first.line}: {first.message}")
    rows = []
    for language in sorted(times):
        scopes = ", ".join(
            f"{scope} {n}" for (lang, scope), n in sorted(counts.items()) if lang == language
        )
        spent = times[language]
        rows.append([language, len(spent), scopes, fmt_ms(median(spent)), fmt_ms(max(spent))])
    table = render_table(["language", "edits", "scopes", "median ms", "max ms"], rows)
    return f"{table}\nwarnings on real edits: {len(warnings)}\n" + "\n".join(warnings)


def main() -> None:
    """Run every scenario and print one table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=5000, help="size of each file")
    parser.add_argument("--repeat", type=int, default=15, help="timed runs per scenario")
    parser.add_argument("--corpus", type=Path, help="also check every edit of this corpus")
    args = parser.parse_args()
    cases = python_cases(args.lines) + data_cases(args.lines) + javascript_cases(args.lines)
    rows = []
    timed: dict[str, float] = {}
    for label, check, setup in cases:
        seconds, report = measure(check, setup, args.repeat)
        timed[label] = seconds
        verdict = f"{len(report.new_errors)} new" if report.checked else "unchecked"
        rows.append([label, fmt_ms(seconds), report.scope or "-", verdict])
    print(f"syntax check after one edit, {args.lines}-line files, median of {args.repeat} runs")
    print(render_table(["scenario", "ms", "scope", "errors"], rows))
    print()
    print(targets(timed, args.lines))
    if args.corpus:
        print(f"\nreal edits of {args.corpus}")
        print(corpus_report(args.corpus))


if __name__ == "__main__":
    main()
