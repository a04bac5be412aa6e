"""Every sandbox refusal, as a table: the error code, and nothing changed inside or outside."""

from __future__ import annotations

import os
import socket
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from ws_helpers import snapshot

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.workspace import FileChange, Workspace

LIMIT = 1000


@dataclass
class Scene:
    tmp: Path
    root: Path
    outside: Path
    ws: Workspace


@pytest.fixture
def scene(tmp_path: Path) -> Iterator[Scene]:
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "sub").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.txt").write_text("secret\n")
    (root / "a.txt").write_text("inside\n")
    (root / "sub" / "inner.txt").write_text("inner\n")
    (root / "big.bin").write_bytes(b"x" * (LIMIT + 1))
    (root / ".git").mkdir()
    (root / ".git" / "config").write_text("[core]\n")
    (root / "pkg" / ".git").mkdir(parents=True)
    (root / "pkg" / ".git" / "HEAD").write_text("ref\n")
    (root / "link_dir").symlink_to(outside, target_is_directory=True)
    (root / "link_file").symlink_to(outside / "secret.txt")
    (root / "dangling").symlink_to(outside / "nothing.txt")
    (root / "sub" / "up").symlink_to("../../outside")
    (root / "inside_link").symlink_to("a.txt")
    (root / "git_link").symlink_to(".git/config")
    os.mkfifo(root / "fifo")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(root / "sock"))
    try:
        (root / "chardev").unlink(missing_ok=True)
        os.mknod(root / "chardev", stat.S_IFCHR | 0o600, os.makedev(1, 3))
    except (PermissionError, OSError):
        pass  # not allowed here; the char-device rows skip themselves
    ws = Workspace(root, state_dir=tmp_path / "state", max_file_bytes=LIMIT)
    try:
        yield Scene(tmp_path, root, outside, ws)
    finally:
        server.close()


def _run(scene: Scene, op: str, path: str) -> None:
    ws = scene.ws
    path = path.replace("{OUT}", str(scene.outside)).replace("{ROOT}", str(scene.root))
    if op == "read":
        ws.read(path)
    elif op == "exists":
        ws.exists(path)
    elif op == "write":
        ws.commit([FileChange("ok.txt", b"fine"), FileChange(path, b"pwned\n")])
    elif op == "big_write":
        ws.commit([FileChange(path, b"y" * (LIMIT + 1))])
    elif op == "delete":
        ws.commit([FileChange(path, None)])
    elif op == "move_from":
        ws.commit([FileChange("stolen.txt", None, move_from=path)])
    elif op == "move_to":
        ws.commit([FileChange(path, None, move_from="a.txt")])
    else:
        raise AssertionError(op)


OUT, DENY, BAD, NOFILE = (
    ErrorCode.PATH_OUTSIDE_ROOT,
    ErrorCode.PATH_DENIED,
    ErrorCode.INVALID_REQUEST,
    ErrorCode.NOT_A_FILE,
)

CASES = [
    ("read", "../outside/secret.txt", OUT),
    ("write", "../outside/secret.txt", OUT),
    ("write", "sub/../../outside/new.txt", OUT),
    ("exists", "../../etc/passwd", OUT),
    ("read", "{OUT}/secret.txt", OUT),
    ("write", "{OUT}/new.txt", OUT),
    ("read", "/etc/passwd", OUT),
    ("read", "link_dir/secret.txt", OUT),
    ("write", "link_dir/new.txt", OUT),
    ("write", "link_dir/secret.txt", OUT),
    ("read", "link_file", OUT),
    ("write", "link_file", OUT),
    ("delete", "link_file", OUT),
    ("write", "dangling", OUT),
    ("write", "sub/up/secret.txt", OUT),
    ("move_from", "link_file", OUT),
    ("move_from", "../outside/secret.txt", OUT),
    ("move_to", "../outside/a.txt", OUT),
    ("move_to", "link_dir/a.txt", OUT),
    ("read", "a\x00.txt", BAD),
    ("write", "sub/\x00", BAD),
    ("read", "", BAD),
    ("write", "   ", BAD),
    ("read", "fifo", NOFILE),
    ("write", "fifo", NOFILE),
    ("delete", "fifo", NOFILE),
    ("read", "sock", NOFILE),
    ("write", "sock", NOFILE),
    ("read", "chardev", NOFILE),
    ("write", "chardev", NOFILE),
    ("read", "sub", NOFILE),
    ("write", "sub", NOFILE),
    ("delete", "sub", NOFILE),
    ("move_from", "sub", NOFILE),
    ("write", "a.txt/child.txt", NOFILE),
    ("read", ".", NOFILE),
    ("write", "{ROOT}", NOFILE),
    ("read", "big.bin", ErrorCode.TOO_LARGE),
    ("write", "big.bin", ErrorCode.TOO_LARGE),
    ("big_write", "a.txt", ErrorCode.TOO_LARGE),
    ("read", ".git/config", DENY),
    ("write", ".git/config", DENY),
    ("write", ".git/hooks/pre-commit", DENY),
    ("read", "pkg/.git/HEAD", DENY),
    ("write", ".GIT/config", DENY),
    ("read", "sub/../.git/config", DENY),
    ("read", "git_link", DENY),
    ("move_to", ".git/a.txt", DENY),
]


@pytest.mark.parametrize(("op", "path", "code"), CASES, ids=[f"{c[0]}:{c[1]!r}" for c in CASES])
def test_refused_and_nothing_changed(scene: Scene, op: str, path: str, code: ErrorCode) -> None:
    if "chardev" in path and not (scene.root / "chardev").exists():
        pytest.skip("creating a device file is not permitted here")
    before_root, before_out = snapshot(scene.root), snapshot(scene.outside)
    with pytest.raises(PatchwrightError) as info:
        _run(scene, op, path)
    assert info.value.code == code, info.value.message
    assert info.value.message and info.value.hint
    assert snapshot(scene.root) == before_root
    assert snapshot(scene.outside) == before_out
    assert scene.ws.history.list_batches() == []


def test_symlinks_inside_the_root_are_followed(scene: Scene) -> None:
    assert scene.ws.resolve("inside_link") == "a.txt"
    assert scene.ws.read("inside_link").data == b"inside\n"
    assert scene.ws.resolve(str(scene.root / "sub" / "inner.txt")) == "sub/inner.txt"
    scene.ws.commit([FileChange("inside_link", b"through the link\n")])
    assert (scene.root / "a.txt").read_bytes() == b"through the link\n"
    assert (scene.root / "inside_link").is_symlink()


def test_symlink_error_names_the_link(scene: Scene) -> None:
    with pytest.raises(PatchwrightError) as info:
        scene.ws.read("link_dir/secret.txt")
    assert info.value.details["symlink"] == "link_dir"
    assert "'link_dir'" in info.value.message


def test_allow_and_custom_deny_globs(tmp_path: Path) -> None:
    root = tmp_path / "r"
    (root / "src" / "gen").mkdir(parents=True)
    (root / "src" / "app.py").write_text("x")
    (root / "src" / "gen" / "out.py").write_text("x")
    (root / "setup.py").write_text("x")
    ws = Workspace(root, state_dir=tmp_path / "s", allow=["src/**"], deny=["**/gen/"])
    assert ws.read("src/app.py").data == b"x"
    for path in ("setup.py", "src/gen/out.py"):
        with pytest.raises(PatchwrightError) as info:
            ws.read(path)
        assert info.value.code == DENY
    assert ws.list_files() == ["src/app.py"]


def test_state_folder_inside_the_root_is_hidden(tmp_path: Path) -> None:
    root = tmp_path / "r"
    root.mkdir()
    ws = Workspace(root, state_dir=root / ".pw")
    ws.commit([FileChange("a.txt", b"a")])
    assert ws.list_files() == ["a.txt"]
    marker = (ws.state_folder / "root.txt").relative_to(root).as_posix()
    with pytest.raises(PatchwrightError) as info:
        ws.read(marker)
    assert info.value.code == DENY
    with pytest.raises(PatchwrightError):
        ws.commit([FileChange(".pw/evil", b"x")])


def test_root_must_be_an_existing_folder(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    for target, code in (
        (tmp_path / "nope", ErrorCode.FILE_NOT_FOUND),
        (tmp_path / "file", NOFILE),
    ):
        with pytest.raises(PatchwrightError) as info:
            Workspace(target, state_dir=tmp_path / "s")
        assert info.value.code == code
