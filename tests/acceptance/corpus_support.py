"""Reading the shared real-patch corpus (../shared/corpus) for the acceptance tests."""

from __future__ import annotations

import json
import os
import random
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

CORPUS = Path(
    os.environ.get("PATCHWRIGHT_CORPUS", Path(__file__).resolve().parents[3] / "shared" / "corpus")
)


@dataclass(frozen=True)
class Case:
    """One corpus patch: the file before, the patch, the expected file."""

    id: str
    format: str
    kind: str
    path: str
    before: bytes
    patch: str
    expected: bytes


def available() -> bool:
    """Whether the corpus is beside the checkout."""
    return (CORPUS / "manifest.jsonl").is_file()


def cases(fmt: str | None = None) -> list[Case]:
    """Every case of the manifest (optionally one format), in manifest order."""
    out = []
    with open(CORPUS / "manifest.jsonl", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            if fmt is not None and row["format"] != fmt:
                continue
            out.append(
                Case(
                    row["id"],
                    row["format"],
                    row["kind"],
                    row["path"],
                    (CORPUS / row["before"]).read_bytes(),
                    (CORPUS / row["patch"]).read_bytes().decode("utf-8"),
                    (CORPUS / row["expected"]).read_bytes(),
                )
            )
    return out


def stratified(per_group: int, seed: int = 7) -> list[Case]:
    """``per_group`` random cases of every (format, kind) pair."""
    groups: dict[tuple[str, str], list[Case]] = defaultdict(list)
    for case in cases():
        groups[(case.format, case.kind)].append(case)
    rng = random.Random(seed)
    picked: list[Case] = []
    for key in sorted(groups):
        group = groups[key]
        picked.extend(rng.sample(group, min(per_group, len(group))))
    return picked


def place(root: Path, case: Case) -> Path:
    """Write the case's ``before`` at its path under ``root``; returns the file."""
    target = root / case.path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(case.before)
    return target
