"""Choosing the language from a file name."""

from __future__ import annotations

import pytest

from patchwright.syntax import known_suffixes, language_for
from patchwright.syntax.languages import spec_for


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("app.py", "python"),
        ("stubs/mod.pyi", "python"),
        ("SRC\\Main.PY", "python"),
        ("package.json", "json"),
        ("notebook.ipynb", "json"),
        ("pyproject.toml", "toml"),
        ("Cargo.lock", "toml"),
        ("web/app.mjs", "javascript"),
        ("web/App.jsx", "javascript"),
        ("web/app.ts", "typescript"),
        ("web/App.tsx", "tsx"),
        ("main.go", "go"),
        ("lib.rs", "rust"),
        ("Main.java", "java"),
        ("util.c", "c"),
        ("util.h", "cpp"),
        ("engine.cc", "cpp"),
        ("Program.cs", "c_sharp"),
        ("Rakefile", "ruby"),
        ("deploy.sh", "bash"),
        (".github/workflows/ci.yml", "yaml"),
        ("index.html", "html"),
        ("site.css", "css"),
        ("README.md", None),
        ("Makefile", None),
        ("archive.tar.gz", None),
        (".py", None),
    ],
)
def test_language_for(path: str, language: str | None) -> None:
    assert language_for(path) == language


@pytest.mark.parametrize(
    "path", ["tsconfig.json", "tsconfig.build.json", ".vscode/settings.json", "jsconfig.json"]
)
def test_json_with_comments_gets_no_parser(path: str) -> None:
    assert spec_for(path) is None


def test_tree_sitter_languages_name_their_grammar_package() -> None:
    spec = spec_for("a.tsx")
    assert spec is not None and spec.backend == "tree-sitter"
    assert (spec.module, spec.function) == ("tree_sitter_typescript", "language_tsx")
    python = spec_for("a.py")
    assert python is not None and python.first_error_only
    assert ".py" in known_suffixes() and known_suffixes() == sorted(known_suffixes())
