"""The default preset takes a lazy snippet through ``apply_patch`` (``format: "snippet"``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from patchwright.tools import Toolbox

APP = "def greet(name):\n    print('Hello, ' + name)\n\n\ndef main():\n    greet('world')\n"
SNIPPET = (
    "def greet(name):\n    print(f'Hello, {name}!')\n\n\ndef main():\n# ... existing code ...\n"
)


def _toolbox(make_toolbox: Callable[..., Toolbox], root: Path) -> Toolbox:
    (root / "app.py").write_text(APP)
    return make_toolbox(preset="default")


def test_a_snippet_is_merged_into_the_named_file(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    toolbox = _toolbox(make_toolbox, root)
    result = toolbox.call(
        "apply_patch", {"patch": SNIPPET, "format": "snippet", "path": "app.py"}
    ).to_dict()
    assert result["ok"], result
    assert (root / "app.py").read_text() == APP.replace("'Hello, ' + name", "f'Hello, {name}!'")


def test_a_snippet_without_its_path_names_the_field(
    make_toolbox: Callable[..., Toolbox], root: Path
) -> None:
    toolbox = _toolbox(make_toolbox, root)
    result = toolbox.call("apply_patch", {"patch": SNIPPET, "format": "snippet"}).to_dict()
    assert not result["ok"]
    assert result["error"]["field"] == "path"
    assert "path field" in result["error"]["hint"]
    assert (root / "app.py").read_text() == APP


def test_a_path_beside_a_patch_is_refused(make_toolbox: Callable[..., Toolbox], root: Path) -> None:
    toolbox = _toolbox(make_toolbox, root)
    diff = (
        "--- a/app.py\n+++ b/app.py\n@@ -5,2 +5,2 @@\n"
        " def main():\n-    greet('world')\n+    greet('you')\n"
    )
    result = toolbox.call("apply_patch", {"patch": diff, "path": "app.py"}).to_dict()
    assert not result["ok"]
    assert result["error"]["field"] == "path"
    assert (root / "app.py").read_text() == APP
