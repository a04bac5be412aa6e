"""Contents kept as their base with several ranges replaced: exact by construction, small
when the edit is, and stored and read back alike by both stores."""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from patchwright.model import ErrorCode, PatchwrightError
from patchwright.workspace import FileChange, Workspace, sha256_hex
from patchwright.workspace.history import regions
from patchwright.workspace.history.backend import Scope
from patchwright.workspace.history.regions import (
    MAX_REGIONS,
    RANGE_SIZE,
    apply,
    find_regions,
    pack,
    unpack,
)
from patchwright.workspace.history.sqlite import SQLiteBackend
from patchwright.workspace.history.store import History

OpenWs = Callable[..., Workspace]
MODULE = b"".join(b"    value_%d = compute(%d)\n" % (i, i * 7) for i in range(1_000))

# a few lines, many of them alike (resynchronising on a repeated line must stay exact)
_LINES = st.sampled_from([b"\n", b"x\n", b"    pass\n", b"def f():\n", b"}\n", b"\r\n", b"abc"])
_TEXT = st.lists(_LINES, max_size=60).map(b"".join)
_ANY = st.one_of(_TEXT, st.binary(max_size=400))
_ROOTS = itertools.count()


@st.composite
def _edited(draw: st.DrawFn) -> tuple[bytes, bytes]:
    """A base and that base with a few ranges replaced, far apart or close together."""
    base = draw(_ANY)
    cuts = sorted(draw(st.lists(st.integers(0, len(base)), max_size=12)))
    pieces, at = [], 0
    for start, end in zip(cuts[0::2], cuts[1::2], strict=False):
        pieces += [base[at:start], draw(_ANY)]
        at = end
    pieces.append(base[at:])
    return base, b"".join(pieces)


@settings(max_examples=600, deadline=None)
@given(_edited(), st.integers(0, 2_000))
def test_regions_rebuild_the_new_content_exactly(pair: tuple[bytes, bytes], budget: int) -> None:
    base, new = pair
    found = find_regions(base, new, budget)
    if found is None:
        return  # over the budget: the content is kept whole (checked below to be honest)
    ranges, inserted = found
    assert apply(base, unpack(pack(ranges)), b"".join(inserted)) == new
    assert sum(map(len, inserted)) + RANGE_SIZE * len(ranges) <= budget
    ends = [0] + [x for start, end, _ in ranges for x in (start, end)] + [len(base)]
    assert ends == sorted(ends)  # in order, never overlapping
    assert all(len(piece) == length for piece, (_, _, length) in zip(inserted, ranges, strict=True))


@settings(max_examples=300, deadline=None)
@given(_edited())
def test_a_large_budget_always_finds_regions(pair: tuple[bytes, bytes]) -> None:
    base, new = pair
    found = find_regions(base, new, len(new) + RANGE_SIZE * MAX_REGIONS)
    assert found is not None
    ranges, _ = found
    assert (ranges == []) == (base == new)


def test_far_apart_edits_of_a_module_cost_only_what_changed() -> None:
    lines = MODULE.splitlines(keepends=True)
    lines[100] = b"    value_100 = 1\n"
    lines[800:802] = [b"    # gone\n"]
    lines.insert(500, b"    extra = True\n")
    new = b"".join(lines)
    found = find_regions(MODULE, new, len(new) // 2)
    assert found is not None
    ranges, inserted = found
    assert len(ranges) == 3 and sum(map(len, inserted)) < 40
    assert apply(MODULE, ranges, b"".join(inserted)) == new


def test_a_file_edited_in_thousands_of_places() -> None:
    lines = [b"    value_%d = compute(%d)\n" % (i, i * 7) for i in range(60_000)]
    base = b"".join(lines)
    for k in range(600):
        lines[k * 100 + 3] = b"    changed = %d\n" % k
    new = b"".join(lines)
    found = find_regions(base, new, len(new) // 2)
    assert found is not None and len(found[0]) == 600
    assert apply(base, found[0], b"".join(found[1])) == new


@pytest.mark.parametrize("every", [1, 20])
def test_changes_too_dense_are_told_after_a_few_hundred_ranges(
    every: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a comment on every line (or every twentieth) of a large file: more ranges than the
    # cap in the end, so the walk stops at its first forecast instead of at the cap
    lines = [b"    value_%d = compute(%d)\n" % (i, i * 7) for i in range(200_000)]
    base = b"".join(lines)
    new = b"".join(line[:-1] + b" #\n" if i % every == 0 else line for i, line in enumerate(lines))
    steps = []
    real = regions._resync
    monkeypatch.setattr(regions, "_resync", lambda *a: steps.append(1) or real(*a))
    assert find_regions(base, new, len(new) // 2) is None
    assert len(steps) <= 256  # every line: no anchor found at all, one range of everything


def test_ranges_that_do_not_fit_are_refused() -> None:
    with pytest.raises(ValueError):
        apply(b"abc", [(2, 1, 0)], b"")
    with pytest.raises(ValueError):
        apply(b"abc", [(0, 1, 2)], b"x")
    with pytest.raises(ValueError):
        apply(b"abc", [(0, 1, 0)], b"x")
    with pytest.raises(ValueError):
        unpack(b"\0" * 23)


# the same through both stores -----------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgres"])
def kind(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if request.param == "postgres":
        request.getfixturevalue("pg_url")
    else:
        monkeypatch.delenv("PATCHWRIGHT_HISTORY_URL", raising=False)
    yield request.param


def _deltas(ws: Workspace) -> list[dict[str, object]]:
    with ws.history.backend.transaction(write=False) as tx:
        return tx.rows("SELECT sha256, base, middle, regions FROM deltas")


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(pair=_edited())
def test_a_round_trip_through_the_store(
    kind: str, make_root: Callable[[str], Path], open_ws: OpenWs, pair: tuple[bytes, bytes]
) -> None:
    base, new = pair
    base = MODULE + base  # a base of some size, so that small edits become deltas
    new = MODULE + new
    ws = open_ws(make_root(f"r{next(_ROOTS)}"))
    ws.commit([FileChange("f.txt", base)])
    ws.commit([FileChange("f.txt", new, expected_sha256=sha256_hex(base))])
    assert ws.history.content(sha256_hex(new)) == new
    assert ws.history.content(sha256_hex(base)) == base


def test_two_hunks_make_one_row_and_one_hunk_the_old_form(
    kind: str, make_root: Callable[[str], Path], open_ws: OpenWs
) -> None:
    ws = open_ws(make_root("r"))
    ws.commit([FileChange("m.py", MODULE)])
    one = MODULE.replace(b"value_10 =", b"value_ten =")
    two = one.replace(b"value_20 =", b"value_twenty =").replace(b"value_900 =", b"value_nine =")
    ws.commit([FileChange("m.py", one, expected_sha256=sha256_hex(MODULE))])
    ws.commit([FileChange("m.py", two, expected_sha256=sha256_hex(one))])
    rows = {str(r["sha256"]): r for r in _deltas(ws)}
    assert rows[sha256_hex(one)]["regions"] is None  # one range: read by any version
    assert rows[sha256_hex(one)]["middle"] == b"ten"
    assert len(bytes(rows[sha256_hex(two)]["regions"])) == 2 * RANGE_SIZE  # type: ignore[arg-type]
    assert rows[sha256_hex(two)]["middle"] == b"twentynine"
    assert ws.history.content(sha256_hex(two)) == two
    ws.undo()
    assert (ws.root / "m.py").read_bytes() == one


def test_damaged_ranges_are_reported_not_returned(
    kind: str, make_root: Callable[[str], Path], open_ws: OpenWs
) -> None:
    ws = open_ws(make_root("r"))
    ws.commit([FileChange("m.py", MODULE)])
    two = MODULE.replace(b"value_10 =", b"v10 =").replace(b"value_900 =", b"v900 =")
    ws.commit([FileChange("m.py", two, expected_sha256=sha256_hex(MODULE))])
    for packed in (pack([(0, 5, 1), (9, 40, 3)]), pack([(40, 9, 0)]), b"\1" * 25):
        with ws.history.backend.transaction(write=True) as tx:
            tx.run("UPDATE deltas SET regions=?", (packed,))
        with pytest.raises(PatchwrightError) as info:
            ws.history.content(sha256_hex(two))
        assert info.value.code == ErrorCode.HISTORY and "damaged" in info.value.message


def test_a_version_4_store_is_migrated_and_its_deltas_still_read(tmp_path: Path) -> None:
    database = tmp_path / "history.sqlite3"
    scope = Scope("machine", str(tmp_path), "session")
    backend = SQLiteBackend(database, scope)
    backend.migrate()
    backend.close()
    edited = MODULE.replace(b"value_5 =", b"value_five =")
    with sqlite3.connect(database) as db:  # a store as version 4 wrote it
        db.execute("ALTER TABLE deltas DROP COLUMN regions")
        db.execute("DELETE FROM schema_migrations WHERE version = 5")
        db.execute("INSERT INTO blobs (sha256, data) VALUES (?, ?)", (sha256_hex(MODULE), MODULE))
        at = MODULE.index(b"value_5 =") + len(b"value_")
        db.execute(
            "INSERT INTO deltas (sha256, base, depth, prefix, suffix, middle) "
            "VALUES (?, ?, 1, ?, ?, ?)",
            (sha256_hex(edited), sha256_hex(MODULE), at, len(MODULE) - at - 1, b"five"),
        )
    db.close()
    again = SQLiteBackend(database, scope)
    assert again.migrate() == [5]
    history = History(again, scope)
    assert history.content(sha256_hex(edited)) == edited
    again.close()
