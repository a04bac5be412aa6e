"""Recognising the file path line in front of a SEARCH/REPLACE block.

Models name the file in many ways: ``src/app.py``, `` `src/app.py` ``, ``**src/app.py**``,
``### src/app.py``, ``File: src/app.py``, `` `src/app.py`: ``, or in the info string of
the fence that holds the block (```` ```python src/app.py ````). Prose lines around the
blocks must not be mistaken for paths, so a candidate needs a path shape: a ``/``, or a
file extension, or (for bare names like ``Makefile``) formatting that marks it as a name
or a place right above the block.
"""

from __future__ import annotations

import re

_HEADING = re.compile(r"#+[ \t]*")
_LABEL = re.compile(r"(?:file ?(?:name|path)?|path)[ \t]*:[ \t]*", re.IGNORECASE)
_WRAPPERS = ("**", "__", "`", "*", "'", '"')
_EXTENSION = re.compile(r"\.[A-Za-z0-9_+-]{1,16}$")
_INFO_KEY = re.compile(r"(?:title|file|filename|path)=", re.IGNORECASE)
_MAX_PATH = 260


def _unwrap(text: str) -> tuple[str, bool]:
    """Strip Markdown emphasis, backticks and quotes around ``text`` (repeatedly)."""
    wrapped = False
    for _ in range(6):
        if len(text) > 2 and text.endswith(":") and text[-2] in "`*_'\"":
            text = text[:-1]  # "`src/app.py`:" introduces the block
        for wrapper in _WRAPPERS:
            size = len(wrapper)
            if len(text) > 2 * size and text.startswith(wrapper) and text.endswith(wrapper):
                text = text[size:-size].strip()
                wrapped = True
                break
        else:
            break
    return text, wrapped


def _path_shaped(text: str, *, wrapped: bool, adjacent: bool) -> bool:
    if not text or len(text) > _MAX_PATH or "\t" in text or "://" in text:
        return False
    if text[0] in "<=>`" or text[-1] in ".:,;?!()":
        return False
    if " " in text and not wrapped:
        return False  # prose; a spaced file name must be formatted as a name
    if "/" in text or "\\" in text or _EXTENSION.search(text):
        return True
    return " " not in text and (wrapped or adjacent)


def path_from_line(line: str, *, adjacent: bool) -> str | None:
    """The path named by a line of its own, or ``None`` if the line is not a path line.

    ``adjacent``: the line sits right above the block's fence or SEARCH marker, which
    makes a bare name (``Makefile``) credible.
    """
    text = _HEADING.sub("", line.strip(), count=1)
    text = _LABEL.sub("", text, count=1)
    text, wrapped = _unwrap(text.strip())
    return text if _path_shaped(text, wrapped=wrapped, adjacent=adjacent) else None


def path_from_fence(line: str) -> str | None:
    """The path in a fence's info string (```` ```python src/app.py ````), if any."""
    info = line.strip().lstrip("`~").strip()
    if not info:
        return None
    token = _INFO_KEY.sub("", info.split()[-1], count=1)
    token, _ = _unwrap(token)
    if "/" in token or "\\" in token or _EXTENSION.search(token):
        return token if _path_shaped(token, wrapped=True, adjacent=True) else None
    return None
