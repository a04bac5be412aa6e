"""An empty or blank bearer token never turns authentication off (issue 34, item 2).

``patchwright mcp --http 0.0.0.0:8765 --token ''`` once started without a token and an
unauthenticated ``edit_file`` wrote. Now an empty, blank or unsendable token, given with
``--token`` or in ``PATCHWRIGHT_MCP_TOKEN``, is refused on every interface, loopback
included, before anything is served; a ``--token`` without ``--http`` is refused too.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from patchwright.adapters.mcp.http import TOKEN_ENV, http_access

SERVER = [sys.executable, "-m", "patchwright.adapters.cli.mcp"]
TIMEOUT = 60
HOSTS = ["0.0.0.0", "127.0.0.1", "::1"]
BLANK = ["", " ", "\t", "  \n"]


def _start(
    tmp_path: Path, args: list[str], token_env: str | None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != TOKEN_ENV}
    if token_env is not None:
        env[TOKEN_ENV] = token_env
    env["PATCHWRIGHT_STATE_DIR"] = str(tmp_path / "state")
    (tmp_path / "root").mkdir(exist_ok=True)
    # stdin closed: a server that did start (the bug) would end at once, never hang here
    return subprocess.run(
        [*SERVER, "--root", str(tmp_path / "root"), *args],
        env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=TIMEOUT,
    )  # fmt: skip


@pytest.mark.parametrize("host", HOSTS)
@pytest.mark.parametrize("token", BLANK)
def test_a_blank_token_is_refused_on_every_interface(host: str, token: str) -> None:
    with pytest.raises(ValueError, match="--token is empty"):
        http_access(host, token=token, environ={})
    with pytest.raises(ValueError, match=f"the {TOKEN_ENV} variable is empty"):
        http_access(host, environ={TOKEN_ENV: token})


@pytest.mark.parametrize("token", ["two words", "tab\there", "bell\x07"])
def test_a_token_no_header_can_carry_is_refused(token: str) -> None:
    with pytest.raises(ValueError, match="spaces or control characters"):
        http_access("127.0.0.1", token=token, environ={})


def test_a_real_token_is_kept_and_loopback_without_one_stays_open() -> None:
    assert http_access("0.0.0.0", token="s3cret-Token_1", environ={})[0].token == "s3cret-Token_1"
    assert http_access("127.0.0.1", environ={})[0].token is None
    with pytest.raises(ValueError, match="needs a bearer token"):
        http_access("0.0.0.0", environ={})


@pytest.mark.parametrize("host", ["0.0.0.0:0", "127.0.0.1:0"])
def test_the_command_refuses_an_empty_token_before_serving(tmp_path: Path, host: str) -> None:
    proc = _start(tmp_path, ["--http", host, "--token", ""], None)
    assert proc.returncode == 2, proc.stderr
    assert "--token is empty" in proc.stderr and "Traceback" not in proc.stderr
    assert "serving" not in proc.stderr.lower()
    blank_env = _start(tmp_path, ["--http", host], " ")
    assert blank_env.returncode == 2, blank_env.stderr
    assert f"the {TOKEN_ENV} variable is empty" in blank_env.stderr


def test_a_token_without_http_is_refused(tmp_path: Path) -> None:
    proc = _start(tmp_path, ["--token", ""], None)
    assert proc.returncode == 2, proc.stderr
    assert "--token applies to --http only" in proc.stderr
