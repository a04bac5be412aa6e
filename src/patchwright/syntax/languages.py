"""Which parser a file gets, chosen from its name alone.

Python, JSON and TOML are parsed with the standard library. Every other language goes
through ``tree-sitter`` with a grammar package that ships its compiled grammar in the
wheel (``tree-sitter-javascript`` and friends, the ``patchwright[syntax]`` extra);
bundles that download grammars at run time are not used, because patchwright must work
offline.
"""

from __future__ import annotations

from patchwright._lazy import lazy_literals
from patchwright._records import record

#: ``get_args(Backend)``, kept as a constant so that no run-time use of the alias imports
#: ``typing`` (start-up time).
BACKENDS = ("python", "json", "toml", "tree-sitter")

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    Backend = Literal["python", "json", "toml", "tree-sitter"]
else:
    __getattr__ = lazy_literals(__name__, {"Backend": BACKENDS}, globals())


@record(frozen=True)
class LanguageSpec:
    """How one language is parsed.

    Attributes:
        name: the language name shown in reports (``python``, ``typescript``).
        backend: the parser family.
        module: for tree-sitter, the grammar package's import name.
        function: for tree-sitter, the module function returning the grammar.
        first_error_only: the parser stops at the first error, so later errors of a
            broken file are invisible (all standard-library parsers do).
    """

    name: str
    backend: Backend
    module: str = ""
    function: str = "language"
    first_error_only: bool = False


def _grammar(name: str, module: str, function: str = "language") -> LanguageSpec:
    return LanguageSpec(name, "tree-sitter", module, function)


_PYTHON = LanguageSpec("python", "python", first_error_only=True)
_JSON = LanguageSpec("json", "json", first_error_only=True)
_TOML = LanguageSpec("toml", "toml", first_error_only=True)
_JAVASCRIPT = _grammar("javascript", "tree_sitter_javascript")
_TYPESCRIPT = _grammar("typescript", "tree_sitter_typescript", "language_typescript")
_TSX = _grammar("tsx", "tree_sitter_typescript", "language_tsx")
_CPP = _grammar("cpp", "tree_sitter_cpp")
_RUBY = _grammar("ruby", "tree_sitter_ruby")
_BASH = _grammar("bash", "tree_sitter_bash")
_YAML = _grammar("yaml", "tree_sitter_yaml")
_HTML = _grammar("html", "tree_sitter_html")

_BY_SUFFIX: dict[str, LanguageSpec] = {
    ".py": _PYTHON,
    ".pyi": _PYTHON,
    ".pyw": _PYTHON,
    ".json": _JSON,
    ".geojson": _JSON,
    ".ipynb": _JSON,
    ".toml": _TOML,
    ".js": _JAVASCRIPT,
    ".mjs": _JAVASCRIPT,
    ".cjs": _JAVASCRIPT,
    ".jsx": _JAVASCRIPT,
    ".ts": _TYPESCRIPT,
    ".mts": _TYPESCRIPT,
    ".cts": _TYPESCRIPT,
    ".tsx": _TSX,
    ".go": _grammar("go", "tree_sitter_go"),
    ".rs": _grammar("rust", "tree_sitter_rust"),
    ".java": _grammar("java", "tree_sitter_java"),
    ".c": _grammar("c", "tree_sitter_c"),
    # Headers are parsed as C++: its grammar accepts C headers, the C grammar rejects
    # C++ ones, and a false alarm costs the model a wasted call.
    ".h": _CPP,
    ".cc": _CPP,
    ".cpp": _CPP,
    ".cxx": _CPP,
    ".c++": _CPP,
    ".hh": _CPP,
    ".hpp": _CPP,
    ".hxx": _CPP,
    ".h++": _CPP,
    ".cs": _grammar("c_sharp", "tree_sitter_c_sharp"),
    ".rb": _RUBY,
    ".rake": _RUBY,
    ".gemspec": _RUBY,
    ".sh": _BASH,
    ".bash": _BASH,
    ".yml": _YAML,
    ".yaml": _YAML,
    ".html": _HTML,
    ".htm": _HTML,
    ".css": _grammar("css", "tree_sitter_css"),
}

_BY_NAME: dict[str, LanguageSpec] = {
    "Cargo.lock": _TOML,
    "Pipfile": _TOML,
    "poetry.lock": _TOML,
    "uv.lock": _TOML,
    "Gemfile": _RUBY,
    "Rakefile": _RUBY,
    ".bashrc": _BASH,
    ".bash_profile": _BASH,
}

# JSON with comments (JSONC) by convention: the strict JSON parser would flag every
# comment in these, so they get no check.
_JSONC_NAMES = ("tsconfig", "jsconfig", "devcontainer", ".eslintrc")
_JSONC_FOLDERS = (".vscode", ".devcontainer")


def _split_path(path: str) -> tuple[list[str], str, str]:
    parts = path.replace("\\", "/").split("/")
    name = parts[-1]
    dot = name.rfind(".")
    suffix = name[dot:].lower() if dot > 0 else ""
    return parts[:-1], name, suffix


def spec_for(path: str) -> LanguageSpec | None:
    """The parser description for ``path``, or ``None`` when no parser applies."""
    folders, name, suffix = _split_path(path)
    spec = _BY_NAME.get(name) or _BY_SUFFIX.get(suffix)
    if spec is _JSON and (
        name.lower().startswith(_JSONC_NAMES) or any(f in _JSONC_FOLDERS for f in folders)
    ):
        return None
    return spec


def language_for(path: str) -> str | None:
    """The language of ``path`` chosen by its extension or name, or ``None``.

    A language is returned even when its parser is not installed; the check then
    reports the file as not checked.
    """
    spec = spec_for(path)
    return spec.name if spec else None


def known_suffixes() -> list[str]:
    """Every file extension that has a language, sorted."""
    return sorted(_BY_SUFFIX)
