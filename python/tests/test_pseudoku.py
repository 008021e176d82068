"""pseudoku's Python interface against known answers, round trips and bad input.

Run against the installed wheel: `pip install pseudoku-bank pytest; pytest python/tests`.
"""

import importlib.metadata
import json
import os
from pathlib import Path

import pytest

import pseudoku

# A 17-clue puzzle and its solution.
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
HARD_SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
# The same puzzle turned a quarter and relabelled: another string, the same class.
SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "puzzles.txt"


def turned(puzzle: str) -> str:
    """The puzzle rotated a quarter turn, digits d -> 10 - d."""
    rows = [puzzle[r * 9 : r * 9 + 9] for r in range(9)]
    out = []
    for c in range(9):
        for r in range(8, -1, -1):
            ch = rows[r][c]
            out.append(ch if ch == "." else str(10 - int(ch)))
    return "".join(out)


def test_the_version_is_the_installed_package_s():
    assert pseudoku.__version__ == importlib.metadata.version("pseudoku-bank")
    assert pseudoku.__version__.count(".") == 2, pseudoku.__version__


def test_parse_normalizes_and_refuses_with_the_reason():
    assert pseudoku.parse(HARD.replace(".", "0")) == HARD
    with pytest.raises(pseudoku.InvalidPuzzle, match="wrong length"):
        pseudoku.parse("12345")
    with pytest.raises(pseudoku.InvalidPuzzle, match="repeated"):
        pseudoku.parse("11" + "." * 79)
    assert issubclass(pseudoku.InvalidPuzzle, pseudoku.PseudokuError)


def test_solve_and_count():
    assert pseudoku.solve(HARD) == HARD_SOLUTION
    assert pseudoku.count_solutions(HARD) == 1
    assert pseudoku.count_solutions("." * 81) == 2
    assert pseudoku.count_solutions("." * 81, limit=5) == 5
    assert pseudoku.solve("." * 81) is None
    # r1c9 can only be 9, which column 9 holds: no solution.
    assert pseudoku.count_solutions("12345678." + "........9" + "." * 63) == 0


def test_rate_gives_every_measure_and_is_the_same_for_the_class():
    r = pseudoku.rate(HARD)
    assert set(r) == {
        "puzzle", "level", "difficulty", "hsolve", "hsolve_sd", "tier", "steps", "wnef",
        "wnef_class", "box_norm", "box_class", "technique", "clues", "hardest_step",
        "hardest_steps",
    }
    assert r["puzzle"] == HARD and r["clues"] == 17
    assert r["level"] in ("easy", "medium", "hard", "expert")
    other = pseudoku.rate(turned(HARD))
    for k in ("difficulty", "hsolve", "hsolve_sd", "tier", "hardest_step", "level"):
        assert other[k] == r[k], k
    with pytest.raises(pseudoku.NotUnique):
        pseudoku.rate("." * 81)


def test_rate_many_matches_rate_in_order_and_names_a_bad_one():
    puzzles = [line.strip() for line in SAMPLES.read_text().splitlines() if line and not line.startswith("#")][:12]
    many = pseudoku.rate_many(puzzles, threads=2)
    assert [m["puzzle"] for m in many] == puzzles
    assert many[3] == pseudoku.rate(puzzles[3])
    with pytest.raises(pseudoku.InvalidPuzzle, match="puzzle 1"):
        pseudoku.rate_many([HARD, "bad"])
    assert pseudoku.rate_many([HARD, "bad", "." * 81], skip_bad=True)[1:] == [None, None]
    # Threads are capped as the command line caps them: four a core.
    with pytest.raises(ValueError, match="threads: 20000 threads is too many"):
        pseudoku.rate_many([HARD], threads=20000)
    with pytest.raises(ValueError, match="too many"):
        pseudoku.build("never.db", count=1, threads=20000)


def test_canonical_form_is_the_class_key():
    a, b = pseudoku.canonical(HARD), pseudoku.canonical(turned(HARD))
    assert a == b
    assert len(a["key"]) == 64 and len(a["canonical"]) == 81
    assert a["canonical"].count("0") == 81 - 17
    assert pseudoku.canonical(pseudoku.generate(1))["key"] != a["key"]


def test_hint_and_explain():
    h = pseudoku.hint(HARD)
    assert h["technique"] and h["move"] and h["errors"] == []
    # A wrong entry comes first.
    entries = list("." * 81)
    entries[1] = "2"  # r1c2 is 1 in the solution
    wrong = pseudoku.hint(HARD, "".join(entries))
    assert wrong["technique"] == "wrong entry" and wrong["errors"] == [[1, 2, 2]]
    steps = pseudoku.explain(HARD)
    assert len(steps) > 0 and all("technique" in s for s in steps)
    with pytest.raises(pseudoku.InvalidPuzzle):
        pseudoku.hint(HARD, "12")


def test_generate_is_seeded_and_minimal():
    p = pseudoku.generate(7)
    assert p == pseudoku.generate(7) and p != pseudoku.generate(8)
    assert pseudoku.count_solutions(p) == 1
    for i, ch in enumerate(p):
        if ch != ".":
            fewer = p[:i] + "." + p[i + 1 :]
            assert pseudoku.count_solutions(fewer) == 2
    s = pseudoku.generate(7, symmetry="rotate180")
    assert all((s[i] == ".") == (s[80 - i] == ".") for i in range(81))
    with pytest.raises(pseudoku.PseudokuError):
        pseudoku.generate(7, symmetry="spiral")


def test_a_bank_built_drawn_imported_exported_and_made_a_dataset(tmp_path):
    db = tmp_path / "bank.db"
    seen = []
    done = pseudoku.build(db, count=120, threads=2, progress=seen.append)
    assert done["stored"] == 120 and not done["stopped"]
    assert seen and seen[-1]["stored"] == 120
    bank = pseudoku.Bank(db)
    assert len(bank) == 120
    assert bank.levels() == ["easy", "medium", "hard", "expert"]
    # Draws: seeded, unserved, marked.
    a = bank.get(level="medium", count=3, seed=5)
    assert a == bank.get(level="medium", count=3, seed=5)
    assert all(h["level"] == "medium" for h in a)
    assert all(pseudoku.solve(h["puzzle"]) == h["solution"] for h in a)
    marked = bank.get(count=2, mark_served=True, seed=9)
    assert bank.stats()["served"] == 2
    assert {h["id"] for h in marked}.isdisjoint(h["id"] for h in bank.get(count=118, seed=9))
    assert bank.puzzle(a[0]["id"]) == a[0]
    assert bank.puzzle(10**9) is None
    with pytest.raises(pseudoku.BankError, match="level"):
        bank.get(level="impossible")
    with pytest.raises(pseudoku.BankError):
        bank.get(level="easy", band="1/4")
    # A file of the bank's puzzles seen another way: every one a duplicate; the samples: new.
    mine = tmp_path / "mine.txt"
    mine.write_text("\n".join(turned(h["puzzle"]) for h in a) + "\nnot a puzzle\n")
    got = pseudoku.import_puzzles(db, mine)
    assert (got["stored"], got["duplicates"], got["skipped"]) == (0, 3, 1)
    assert got["problems"] == [f"{mine}:4: wrong length: expected 81 cells, found 3"]
    got = pseudoku.import_puzzles(db, SAMPLES)
    assert got["stored"] == 50
    imported = bank.get(count=1000, seed=1)
    sourced = [bank.puzzle(h["id"]) for h in imported]
    assert sum(1 for s in sourced if "source" in s) == 50
    # A dataset: splits of the rows, their manifest.
    out = tmp_path / "set"
    counts = pseudoku.dataset(db, out, group="grid", formats=["csv", "jsonl"])
    assert counts["train"] + counts["validation"] + counts["test"] == 170
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["group"] == "grid" and manifest["rows"]["train"] == counts["train"]
    assert sorted(os.listdir(out)) == sorted(counts["files"])
    # An export of two days.
    ex = pseudoku.export(db, tmp_path / "daily", "2027-01-01", 2, "medium:1")
    assert ex["puzzles"] == 2 and len(ex["files"]) == 2
    with pytest.raises(pseudoku.PseudokuError):
        pseudoku.export(db, tmp_path / "daily", "2027-02-30", 2, "medium:1")
    with pytest.raises(pseudoku.BankError):
        pseudoku.Bank(tmp_path / "none.db")
