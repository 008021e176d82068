"""pseudoku's Python interface against known answers, round trips and bad input.

Run against the installed wheel: `pip install pseudoku-bank pytest; pytest python/tests`.
"""

import importlib.metadata
import json
import math
import os
import re
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
        "hardest_steps", "hsolve_family",
    }
    assert r["technique"] == r["hardest_step"]
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
    assert bank.puzzle(a[0]["id"]) == dict(a[0], learned=bank.puzzle(a[0]["id"])["learned"])
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


def pdf_pages(data: bytes) -> int:
    """The pages of a PDF: its page objects, which its page tree's count must match."""
    pages = len(re.findall(rb"/Type\s*/Page\b(?!s)", data))
    counts = [int(n) for n in re.findall(rb"/Type\s*/Pages\b[^>]*?/Count\s+(\d+)", data)]
    counts += [int(n) for n in re.findall(rb"/Count\s+(\d+)[^>]*?/Type\s*/Pages\b", data)]
    assert pages in counts, (pages, counts)
    return pages


def test_progress_says_stopped_only_in_a_result_and_false_from_progress_stops(tmp_path):
    db = tmp_path / "bank.db"
    seen = []

    def stop_at_once(d):
        seen.append(d)
        return False

    first = pseudoku.build(db, count=300, threads=2, progress=stop_at_once)
    assert first["stopped"] is True and first["stored"] < 300
    assert len(seen) == 1 and "stopped" not in seen[0]
    # The same call continues where it stopped; its reports say nothing of stopping.
    seen.clear()
    done = pseudoku.build(db, count=300, threads=2, progress=seen.append)
    assert done["stopped"] is False and done["stored"] == 300
    assert seen and all("stopped" not in d for d in seen)
    got = pseudoku.import_puzzles(db, SAMPLES, progress=seen.append)
    assert got["stopped"] is False and all("stopped" not in d for d in seen)


def test_errors_name_the_python_argument_or_call_not_a_command_line_flag(tmp_path):
    with pytest.raises(pseudoku.BankError, match=r"pseudoku\.build\(db\)") as missing:
        pseudoku.Bank(tmp_path / "none.db")
    assert "`pseudoku build`" not in str(missing.value)
    db = tmp_path / "bank.db"
    pseudoku.build(db, count=60, threads=2)
    bank = pseudoku.Bank(db)
    with pytest.raises(pseudoku.BankError, match=r'"hard"\?.*pseudoku\.calibrate\(db, levels=') as e:
        bank.get(level="hardd")
    assert "--levels" not in str(e.value)
    level = bank.get(count=1, seed=1)[0]["level"]
    pseudoku.export(db, tmp_path / "daily", "2027-01-01", 1, f"{level}:1")
    with pytest.raises(pseudoku.BankError, match=r"replace=True") as e:
        pseudoku.export(db, tmp_path / "daily", "2027-01-01", 1, f"{level}:2")
    assert "--replace" not in str(e.value)
    again = pseudoku.export(db, tmp_path / "daily", "2027-01-01", 1, f"{level}:2", replace=True)
    assert again["puzzles"] == 2
    with pytest.raises(ValueError, match="nothing to change"):
        pseudoku.calibrate(db)
    with pytest.raises(ValueError, match=r"min_results=0"):
        pseudoku.calibrate(db, from_play=True, min_results=0)
    with pytest.raises(ValueError, match=r"format=\"docx\""):
        pseudoku.book(db, tmp_path / "b", "b", "hard:1", format="docx")


def test_players_results_are_recorded_read_back_and_matched_draws_never_repeat(tmp_path):
    db = tmp_path / "bank.db"
    pseudoku.build(db, count=60, threads=2)
    bank = pseudoku.Bank(db)
    assert bank.player("alice") == {
        "user": "alice",
        # A newcomer starts on the easiest twentieth of the scale (the prior at percentile 5).
        "learned": {"rating": 1131.9, "deviation": 350.0, "results": 0},
        "games": 0,
        "history": [],
    }
    drawn = bank.for_user("alice", count=3, seed=4)
    assert len(drawn) == 3 and len({h["id"] for h in drawn}) == 3
    for h in drawn:
        assert set(h["learned"]) == {"rating", "deviation", "results"}
        assert h["learned"]["results"] == 0
        assert pseudoku.solve(h["puzzle"]) == h["solution"]
    counted = bank.record_result("alice", drawn[0]["id"], solved=True, seconds=300.0, hints=1)
    assert 0 < counted["score"] < 1 and counted["held"] is True
    assert counted["player"]["results"] == 1
    bank.record_result("alice", drawn[1]["id"], solved=False, seconds=5.0)  # a glance
    me = bank.player("alice")
    assert me["games"] == 2 and me["learned"] == counted["player"]
    assert [g["puzzle"] for g in me["history"]] == [drawn[1]["id"], drawn[0]["id"]]
    assert me["history"][1]["hints"] == 1 and me["history"][0]["score"] is None
    # One result a puzzle; games out of reason name their argument.
    with pytest.raises(pseudoku.BankError, match="counted already"):
        bank.record_result("alice", drawn[0]["id"], solved=True, seconds=300.0)
    with pytest.raises(ValueError, match="seconds 3"):
        bank.record_result("alice", drawn[2]["id"], solved=True, seconds=3.0)
    with pytest.raises(ValueError, match="user id"):
        bank.for_user("not a user")
    with pytest.raises(pseudoku.BankError, match="no puzzle with id"):
        bank.record_result("alice", 10**9, solved=True, seconds=300.0)
    # A result of a puzzle handed out otherwise records its delivery: never drawn for her.
    other = bank.get(count=1, seed=2)[0]
    if other["id"] not in {h["id"] for h in drawn}:
        bank.record_result("alice", other["id"], solved=True, seconds=200.0)
    # The rest of the bank, each once; then nothing.
    rest = bank.for_user("alice", count=len(bank) + 5, seed=5)
    ids = [h["id"] for h in drawn] + [h["id"] for h in rest]
    assert len(ids) == len(set(ids))
    assert other["id"] not in {h["id"] for h in rest}
    assert len(set(ids) | {other["id"]}) == len(bank)
    assert bank.for_user("alice", count=2) == []
    # A puzzle by id shows its learned rating as a draw does.
    assert bank.puzzle(drawn[0]["id"])["learned"] == counted["puzzle"]


def test_levels_calibrated_from_a_log_of_play_and_by_name(tmp_path):
    db = tmp_path / "bank.db"
    pseudoku.build(db, per_level=40, threads=2)
    bank = pseudoku.Bank(db)
    puzzles = bank.get(count=len(bank), seed=1)
    # Players whose times follow the bank's rating (a harder puzzle takes longer): a log.
    log = tmp_path / "games.jsonl"
    with log.open("w") as f:
        for u in range(8):
            for h in puzzles:
                seconds = 30.0 * math.exp(h["difficulty"] / 1000.0 * 0.55) * (1 + 0.1 * u)
                game = {"user": f"p{u}", "puzzle": h["id"], "solved": True, "seconds": max(seconds, 11.0)}
                f.write(json.dumps(game) + "\n")
        f.write("not a game\n")
    seen = []
    got = pseudoku.import_results(db, log, progress=seen.append)
    assert got["counted"] == 8 * len(bank) and got["stopped"] is False
    assert got["problems"] == [f"{log}:{8 * len(bank) + 1}: not a result: expected ident at line 1 column 2"]
    assert seen and all("stopped" not in d for d in seen)
    assert pseudoku.import_results(db, log)["again"] == 8 * len(bank)
    fitted = pseudoku.calibrate(db, from_play=True)
    assert "held out" in fitted["summary"]
    assert fitted["levels"] == ["easy", "medium", "hard", "expert"]
    assert sum(fitted["per_level"].values()) == len(bank)
    # Too few results a puzzle: refused in Python's words, nothing changed.
    with pytest.raises(pseudoku.BankError, match=r"at least 9 results each.*min_results=") as e:
        pseudoku.calibrate(db, from_play=True, min_results=9)
    assert "--min-results" not in str(e.value)
    # Levels renamed and cut anew, and back to the defaults.
    three = pseudoku.calibrate(db, levels=["gentle", "tricky", "fiendish"])
    assert three["levels"] == bank.levels() == ["gentle", "tricky", "fiendish"]
    assert sum(three["per_level"].values()) == len(bank) and not three["learned"]
    assert bank.get(level="fiendish", count=1)
    back = pseudoku.calibrate(db, default=True)
    assert back["levels"] == bank.levels() == ["easy", "medium", "hard", "expert"]
    assert back["reference_size"] == 10000


def test_a_book_is_a_pdf_of_its_puzzles_recorded_under_its_name(tmp_path):
    db = tmp_path / "bank.db"
    pseudoku.build(db, per_level=10, threads=2)
    out = tmp_path / "books"
    small = pseudoku.book(db, out, "weekend", "medium:4,hard:5", page="6x9", title="Weekend")
    assert small["files"] == [str(out / "weekend.pdf")] and small["puzzles"] == small["new"] == 9
    data = (out / "weekend.pdf").read_bytes()
    assert data.startswith(b"%PDF")
    # At most two grids a page at 6x9: the puzzles alone take five pages, besides the
    # title page, contents and solutions; a book of twice the puzzles has more pages.
    pages = pdf_pages(data)
    assert pages >= 5 + 2
    big = pseudoku.book(db, out, "month", "medium:5,hard:5,expert:8", page="6x9")
    assert big["puzzles"] == 18
    assert pdf_pages((out / "month.pdf").read_bytes()) > pages
    # The same call writes the same book; another mix needs replace=True.
    assert pseudoku.book(db, out, "weekend", "medium:4,hard:5", page="6x9", title="Weekend")["new"] == 0
    with pytest.raises(pseudoku.BankError, match=r"replace=True"):
        pseudoku.book(db, out, "weekend", "medium:3")
    with pytest.raises(pseudoku.BankError, match=r"puzzles missing.*pseudoku\.build"):
        pseudoku.book(db, out, "huge", "hard:500")
    assert not (out / "huge.pdf").exists()
    with pytest.raises(ValueError, match=r"title= is for printed pages"):
        pseudoku.book(db, out, "plain", "hard:1", format="txt", title="Plain")
