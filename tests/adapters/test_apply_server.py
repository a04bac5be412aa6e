"""``patchwright apply-server`` as a real subprocess, driven by the official ``openai``
client as a Morph- or Relace-compatible editor would drive a fast-apply service."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

import openai
import pytest
from served import served

from patchwright.adapters.mcp.apply_server import RequestError, parse_prompt

TIMEOUT = 60.0

ORIGINAL = (
    "import os\n\n\n"
    "def greet(name):\n"
    '    message = "Hello, " + name\n'
    "    print(message)\n"
    "    return message\n\n\n"
    "def main():\n"
    '    greet("world")\n'
)
SNIPPET = (
    "# ... existing code ...\n"
    "def greet(name):\n"
    '    message = f"Hello, {name}!"\n'
    "    print(message)\n"
    "# ... existing code ...\n"
)
MERGED = ORIGINAL.replace('"Hello, " + name', 'f"Hello, {name}!"')
# two places hold the anchor line and the marker gives no order to settle it
AMBIGUOUS_FILE = "x = 1\nprint(x)\nx = 1\nprint(x)\n"
AMBIGUOUS_SNIPPET = "x = 1\nprint(x + 1)\n"


def _message(code: str, update: str) -> str:
    return (
        "<instruction>Greet with an f-string</instruction>\n"
        f"<code>{code}</code>\n<update>{update}</update>"
    )


@contextmanager
def _server(*args: str) -> Iterator[str]:
    env = {k: v for k, v in os.environ.items() if k != "PATCHWRIGHT_MCP_TOKEN"}
    with served(["apply-server", "--listen", "127.0.0.1:0", *args], env) as (url, _):
        yield url


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with _server() as url:
        yield url


def _client(base_url: str, key: str = "unused") -> openai.OpenAI:
    return openai.OpenAI(base_url=base_url, api_key=key, max_retries=0, timeout=TIMEOUT)


def test_openai_client_gets_the_merged_file(base_url: str) -> None:
    response = _client(base_url).chat.completions.create(
        model="morph-v3-fast",
        messages=[{"role": "user", "content": _message(ORIGINAL, SNIPPET)}],
    )
    assert response.choices[0].message.content == MERGED
    assert response.choices[0].finish_reason == "stop"
    assert response.model == "morph-v3-fast"


def test_openai_client_gets_a_refusal_it_can_fall_back_on(base_url: str) -> None:
    with pytest.raises(openai.UnprocessableEntityError) as caught:
        _client(base_url).chat.completions.create(
            model="morph-v3-fast",
            messages=[{"role": "user", "content": _message(AMBIGUOUS_FILE, AMBIGUOUS_SNIPPET)}],
        )
    body = caught.value.body
    assert isinstance(body, dict)
    assert body["type"] == "merge_refused"
    assert body["code"] in {"ambiguous", "not_found"}
    assert "line" in body["message"]


def test_streamed_answer_is_the_whole_file(base_url: str) -> None:
    stream = _client(base_url).chat.completions.create(
        model="relace-apply-3",
        messages=[{"role": "user", "content": _message(ORIGINAL, SNIPPET)}],
        stream=True,
    )
    text = "".join(chunk.choices[0].delta.content or "" for chunk in stream if chunk.choices)
    assert text == MERGED


def test_relace_base_url_and_rest_shape(base_url: str) -> None:
    relace = _client(base_url + "/apply").chat.completions.create(
        model="auto", messages=[{"role": "user", "content": _message(ORIGINAL, SNIPPET)}]
    )
    assert relace.choices[0].message.content == MERGED
    request = urllib.request.Request(
        base_url + "/code/apply",
        data=json.dumps({"initialCode": ORIGINAL, "editSnippet": SNIPPET}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
        assert json.load(answer) == {"mergedCode": MERGED}


def test_a_request_without_the_tags_names_the_field(base_url: str) -> None:
    with pytest.raises(openai.BadRequestError) as caught:
        _client(base_url).chat.completions.create(
            model="m", messages=[{"role": "user", "content": "merge this please"}]
        )
    body = caught.value.body
    assert isinstance(body, dict)
    assert body["param"] == "messages[].content"
    assert "<code>" in body["message"]


def test_rest_shape_names_a_missing_field(base_url: str) -> None:
    request = urllib.request.Request(
        base_url + "/code/apply",
        data=json.dumps({"initialCode": ORIGINAL}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=TIMEOUT)
    assert caught.value.code == 400
    assert json.load(caught.value)["error"]["param"] == "editSnippet"


def test_token_is_the_clients_api_key() -> None:
    with _server("--token", "s3cret-token") as url:
        with pytest.raises(openai.AuthenticationError):
            _client(url, key="wrong").chat.completions.create(
                model="m", messages=[{"role": "user", "content": _message(ORIGINAL, SNIPPET)}]
            )
        ok = _client(url, key="s3cret-token").chat.completions.create(
            model="m", messages=[{"role": "user", "content": _message(ORIGINAL, SNIPPET)}]
        )
        assert ok.choices[0].message.content == MERGED


def test_off_loopback_without_a_token_does_not_start() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "patchwright", "apply-server", "--listen", "0.0.0.0:0"],
        env={k: v for k, v in os.environ.items() if k != "PATCHWRIGHT_MCP_TOKEN"},
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert done.returncode == 2
    assert "needs a bearer token" in done.stderr


def test_prompt_keeps_the_files_own_code_tags() -> None:
    html = "<p>Use <code>x</code> here</p>\n"
    prompt = parse_prompt(f"<code>{html}</code>\n<update>{html}</update>")
    assert prompt.code == html
    assert prompt.update == html
    assert prompt.instruction == ""


def test_prompt_with_two_boundaries_is_refused() -> None:
    with pytest.raises(RequestError) as caught:
        parse_prompt("<code>a</code><update>b</code><update>c</update>")
    assert "found 2" in caught.value.message
