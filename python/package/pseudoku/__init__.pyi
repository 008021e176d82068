"""Types of pseudoku's Python interface (the extension module `pseudoku._native`)."""

from os import PathLike
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, TypedDict, Union

from typing_extensions import NotRequired

StrPath = Union[str, "PathLike[str]"]

RATER: str
"""The rater's description: the program's version, the models and their runs."""

__version__: str
"""The package's version, as the package index and `importlib.metadata` give it."""

class PseudokuError(Exception):
    """The base of every error of pseudoku."""

class InvalidPuzzle(PseudokuError):
    """A text that is not a puzzle (the reason says why)."""

class NotUnique(PseudokuError):
    """A puzzle without exactly one solution, where one is needed."""

class BankError(PseudokuError):
    """A bank that cannot be opened, read or written, or a request it cannot meet."""

class Rating(TypedDict):
    """Every measure of one puzzle (`pseudoku rate --json`)."""

    puzzle: str
    level: str
    difficulty: float
    hsolve: float
    hsolve_sd: float
    tier: int
    steps: float
    wnef: float
    wnef_class: int
    box_norm: float
    box_class: int
    technique: str
    clues: int
    hardest_step: str
    hardest_steps: int
    hsolve_family: str

class Learned(TypedDict):
    """A learned rating: what players' results taught it (a puzzle with none: its prior)."""

    rating: float
    """The rating: 1500 the middle; a player and a puzzle of one rating take the par time."""
    deviation: float
    """Its deviation: the true rating lies within about two of it."""
    results: int
    """The games it learned from (0: a puzzle's prior, from its difficulty)."""

class Handout(TypedDict, total=False):
    """A puzzle of a bank (`learned`: from `Bank.puzzle` and `Bank.for_user`)."""

    id: int
    puzzle: str
    solution: str
    level: Optional[str]
    difficulty: Optional[float]
    hsolve: float
    percentile: float
    tier: int
    hardest_step: Optional[str]
    hardest_steps: Optional[int]
    key: str
    learned: Learned
    source: Dict[str, Any]

class Counted(TypedDict):
    """What a counted game did (`Bank.record_result`)."""

    score: Optional[float]
    """The game's score against the par time, 0 to 1 (None: a glance, rated by nothing)."""
    held: NotRequired[bool]
    """The player has no record yet (fewer than 10 rated games): the game teaches its
    puzzle once they have one (absent for a glance)."""
    player: Learned
    """The player's learned rating after it."""
    puzzle: Learned
    """The puzzle's learned rating after it."""

class PlayedGame(TypedDict):
    """One of a player's games, as their history shows it."""

    puzzle: int
    solved: bool
    seconds: float
    hints: int
    mistakes: int
    score: Optional[float]
    rating: float
    """The player's rating after it."""
    at: str
    """When it was counted, `YYYY-MM-DDTHH:MM:SS.SSSZ` (UTC)."""

class Player(TypedDict):
    """A player as the bank knows them (`Bank.player`)."""

    user: str
    learned: Learned
    games: int
    """Their games counted."""
    history: List[PlayedGame]
    """Their last games, the latest first."""

class BuildProgress(TypedDict):
    """A build's counts after a batch (`progress`), and its result with `stopped`."""

    stored: int
    count: int
    duplicates: int
    rejected: int
    stopped: NotRequired[bool]
    """Only in the result: True when the build stopped before storing every puzzle."""

class ImportProgress(TypedDict):
    """An import's counts after a batch (`progress`), and its result with `stopped` and
    `problems`."""

    lines: int
    next_line: int
    stored: int
    duplicates: int
    skipped: int
    already: bool
    stopped: NotRequired[bool]
    """Only in the result: True when the import stopped before the file's end."""
    problems: NotRequired[List[str]]
    """Only in the result: a `FILE:LINE: reason` a skipped entry."""

class ResultsProgress(TypedDict):
    """A log's counting after a batch (`progress`), and its result with `stopped`."""

    lines: int
    counted: int
    unrated: int
    """Of the games counted, glances (left within 30 seconds): kept, rated by nothing."""
    again: int
    """Lines whose game was counted before."""
    problems: List[str]
    """A `FILE:LINE: reason` a skipped line."""
    stopped: NotRequired[bool]
    """Only in the result: True when the counting stopped before the file's end."""

class Calibrated(TypedDict):
    """A bank's levels after `calibrate`."""

    levels: List[str]
    learned: bool
    """True when the levels are a model's (fitted on labelled or played puzzles)."""
    rating: str
    reference: str
    reference_size: int
    recomputed: int
    per_level: Dict[str, int]
    summary: NotRequired[str]
    """With from_play: the fit, as `pseudoku calibrate --from-play` prints it."""

class Canonical(TypedDict):
    """The exact canonical form of a puzzle."""

    canonical: str
    key: str
    automorphisms: int

def parse(puzzle: str) -> str:
    """The puzzle as 81 characters, `.` for empty; raises InvalidPuzzle."""

def solve(puzzle: str) -> Optional[str]:
    """The only solution as 81 digits, or None when the puzzle has none or several."""

def count_solutions(puzzle: str, limit: int = 2) -> int:
    """The number of solutions, counted up to `limit`."""

def rate(puzzle: str, runs: Optional[int] = None) -> Rating:
    """Every measure of one puzzle; raises NotUnique without exactly one solution."""

def rate_many(
    puzzles: Sequence[str],
    runs: Optional[int] = None,
    threads: int = 0,
    skip_bad: bool = False,
) -> List[Optional[Rating]]:
    """The ratings of many puzzles, in order, on every core without the GIL (threads: 0 for
    every core, at most 4 a core; more raises ValueError)."""

def hint(puzzle: str, entries: Optional[str] = None) -> Dict[str, Any]:
    """The next step on a player's board (technique, nudge, hint, move, ...)."""

def explain(puzzle: str) -> List[Dict[str, Any]]:
    """A whole solution in words, a dict a step."""

def canonical(puzzle: str) -> Canonical:
    """The exact canonical form, its class key and the automorphisms."""

def generate(seed: int = 2026, symmetry: str = "none") -> str:
    """A random minimal puzzle from the seeded generator."""

class Bank:
    """A bank: a SQLite file `build`, `import_puzzles` or the `pseudoku` program made."""

    def __init__(self, path: StrPath) -> None: ...
    @property
    def path(self) -> str: ...
    def __len__(self) -> int: ...
    def levels(self) -> List[str]:
        """The names of the bank's levels, easiest first."""
    def get(
        self,
        level: Optional[str] = None,
        band: Optional[str] = None,
        percentile: Optional[str] = None,
        technique: Optional[str] = None,
        count: int = 1,
        mark_served: bool = False,
        seed: Optional[int] = None,
    ) -> List[Handout]:
        """Random unserved puzzles of a level, band (`"K/M"`) or percentile range (`"A..B"`)."""
    def puzzle(self, id: int) -> Optional[Handout]:
        """The puzzle with this id (with its `learned` rating), or None."""
    def stats(self) -> Dict[str, Any]:
        """What the bank holds (`pseudoku stats --json`)."""
    def for_user(self, user: str, count: int = 1, seed: Optional[int] = None) -> List[Handout]:
        """Up to `count` puzzles for the app user `user` matched to their learned rating
        (`pseudoku get --for-user USER --json`): each one the user was never given (up to
        symmetry), recorded as theirs, with its `learned` rating; fewer when the user has had
        every puzzle. Raises ValueError for a bad user id (1 to 64 characters among letters,
        digits and `-_.:@`), BankError while a server records in the bank."""
    def record_result(
        self,
        user: str,
        puzzle: int,
        solved: bool,
        seconds: float,
        hints: int = 0,
        mistakes: int = 0,
    ) -> Counted:
        """Counts a player's game of the puzzle with bank id `puzzle` (a line of `pseudoku
        results import`, the keys of `POST /v1/results`): the delivery recorded with it, both
        learned ratings moved. Raises ValueError for a game out of reason, BankError for a
        puzzle not in the bank or a second result of the user's for it."""
    def player(self, user: str, last: int = 50) -> Player:
        """The player's learned rating, games counted and last `last` games (`GET
        /v1/players/{user}`); a user with no game: a new player's rating."""

def build(
    db: StrPath,
    count: int = 1000,
    level: Optional[str] = None,
    per_level: Optional[int] = None,
    threads: int = 0,
    seed: int = 2026,
    progress: Optional[Callable[[BuildProgress], Any]] = None,
) -> BuildProgress:
    """Builds (or continues building) a bank. `progress` is called after each batch; Ctrl-C
    (raised) or `progress` returning False (the result's `stopped` True) stops after it, and
    the same call continues."""

def import_puzzles(
    db: StrPath,
    path: StrPath,
    threads: int = 0,
    progress: Optional[Callable[[ImportProgress], Any]] = None,
) -> ImportProgress:
    """Grades a puzzle file into a bank (`pseudoku import`); stops as `build` does."""

def import_results(
    db: StrPath,
    path: StrPath,
    progress: Optional[Callable[[ResultsProgress], Any]] = None,
) -> ResultsProgress:
    """Counts an app's log of games (JSON lines with the keys of `Bank.record_result`) into a
    bank (`pseudoku results import`); stops as `build` does, and the same call continues."""

def calibrate(
    db: StrPath,
    levels: Optional[Sequence[str]] = None,
    rating: Optional[str] = None,
    default: bool = False,
    from_play: bool = False,
    min_results: int = 5,
    force: bool = False,
    threads: int = 0,
) -> Calibrated:
    """Sets a bank's levels and levels every puzzle again (`pseudoku calibrate`): `levels`
    renames them or cuts the reference anew, `rating` is "difficulty" or "hsolve", `default`
    goes back to the default reference, `from_play` refits them to the puzzles players rated
    (`min_results` results or more each). Raises ValueError when nothing is asked."""

def book(
    db: StrPath,
    out: StrPath,
    name: str,
    mix: str,
    format: str = "pdf",
    replace: bool = False,
    reprint: bool = False,
    title: Optional[str] = None,
    subtitle: Optional[str] = None,
    author: Optional[str] = None,
    page: Optional[str] = None,
    per_page: Optional[int] = None,
    seed: int = 1,
) -> Dict[str, Any]:
    """Writes a book of puzzles by level (`pseudoku book`): files, puzzles, new,
    repeated_grids. Raises BankError, writing nothing, when a level runs short."""

def dataset(
    db: StrPath,
    out: StrPath,
    levels: Optional[Sequence[str]] = None,
    per_level: Optional[int] = None,
    split: Tuple[float, float, float] = (0.8, 0.1, 0.1),
    group: str = "class",
    formats: Optional[Sequence[str]] = None,
    seed: int = 2026,
) -> Dict[str, Any]:
    """Writes train, validation and test files (`pseudoku dataset`)."""

def export(
    db: StrPath,
    out: StrPath,
    start: str,
    days: int,
    mix: str,
    format: str = "txt",
    single_file: bool = False,
    allow_partial: bool = False,
    replace: bool = False,
    seed: int = 1,
) -> Dict[str, Any]:
    """Exports daily batches (`pseudoku export`)."""
