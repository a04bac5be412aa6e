"""tree-sitter languages: lazy loading, errors, kept trees. Skipped without the extra."""

from __future__ import annotations

import random

import pytest

from patchwright.syntax import check_edit
from patchwright.syntax.languages import LanguageSpec, spec_for
from patchwright.syntax.stdlib_parsers import NoVerdict
from patchwright.syntax.treesitter import (
    available,
    forget_trees,
    tree_sitter_errors,
)

JS = spec_for("a.js")
assert JS is not None
needs_js = pytest.mark.skipif(not available(JS), reason="tree-sitter-javascript not installed")

SOURCE = """\
import { readFile } from "node:fs/promises";

export async function load(path) {
  const text = await readFile(path, "utf8");
  return JSON.parse(text);
}

export const names = ["ä", "b"].map((n) => n.toUpperCase());
"""


def test_a_missing_grammar_leaves_the_file_unchecked() -> None:
    spec = LanguageSpec("klingon", "tree-sitter", "tree_sitter_klingon_not_a_package")
    assert not available(spec)
    with pytest.raises(NoVerdict) as caught:
        tree_sitter_errors(spec, "x")
    assert "no klingon parser installed" in str(caught.value)
    assert "tree-sitter-klingon-not-a-package" in str(caught.value)
    report = check_edit("a.js", "", "x") if not available(JS) else None
    assert report is None or not report.checked


@needs_js
def test_new_errors_are_reported_and_old_ones_are_not() -> None:
    broken = SOURCE.replace('readFile(path, "utf8");', 'readFile(path, "utf8";')
    report = check_edit("src/load.js", SOURCE, broken)
    assert [(i.line, i.message) for i in report.new_errors] == [(4, 'missing ")"')]
    # Next edit elsewhere, lines shifted: the old error is not blamed on it.
    later = "// loader\n" + broken.replace('"b"', '"c"')
    report = check_edit("src/load.js", broken, later)
    assert report.checked and report.new_errors == [] and report.preexisting == 1


@needs_js
def test_column_counts_characters_not_bytes() -> None:
    broken = SOURCE.replace('["ä", "b"]', '["ä", "b" ]]')
    issue = check_edit("src/load.js", SOURCE, broken).new_errors[0]
    assert issue.line == 8
    assert broken.split("\n")[7][issue.column - 1 :].startswith("]")


@needs_js
def test_incremental_parses_agree_with_full_parses() -> None:
    rng = random.Random(5)
    text = SOURCE * 5
    for _ in range(60):
        at = rng.randrange(len(text))
        insert = rng.choice(["", "{", ")", ";", "ü", "\n", "let q = 1;"])
        edited = text[:at] + insert + text[at + 1 :]
        incremental = tree_sitter_errors(JS, edited, base=text)
        forget_trees()
        assert tree_sitter_errors(JS, edited) == incremental
        text = edited


@pytest.mark.parametrize(
    ("path", "good", "bad"),
    [
        ("a.ts", "let n: number = 1;\n", "let n: number = ;\n"),
        ("a.go", "package a\nfunc F() int { return 1 }\n", "package a\nfunc F() int { return 1\n"),
        ("a.rs", "fn f() -> i32 { 1 }\n", "fn f() -> i32 { 1 \n"),
        ("a.java", "class A { int f() { return 1; } }\n", "class A { int f() { return 1 } }\n"),
        ("a.c", "int f(void) { return 1; }\n", "int f(void) { return 1 }\n"),
        ("a.cpp", "int f() { return 1; }\n", "int f() { return 1 }\n"),
        ("a.cs", "class A { int F() { return 1; } }\n", "class A { int F() { return 1 } }\n"),
        ("a.rb", "def f\n  1\nend\n", "def f\n  (1\nend\n"),
        ("a.sh", "if true; then echo hi; fi\n", "if true; then echo hi;\n"),
        ("a.yaml", "a: 1\nb: [1, 2]\n", "a: 1\nb: [1, 2\n"),
        ("a.css", "a { color: red; }\n", "a { color: red; \n"),
    ],
)
def test_grammars_of_the_extra(path: str, good: str, bad: str) -> None:
    spec = spec_for(path)
    assert spec is not None
    if not available(spec):
        pytest.skip(f"{spec.module} not installed")
    assert check_edit(path, None, good).new_errors == []
    report = check_edit(path, good, bad)
    assert report.checked and report.language == spec.name
    assert len(report.new_errors) >= 1
