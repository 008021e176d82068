"""Types of pseudoku's Python interface (the extension module `pseudoku._native`)."""

from os import PathLike
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, TypedDict, Union

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

class Handout(TypedDict, total=False):
    """A puzzle of a bank."""

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
    source: Dict[str, Any]

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
        """The puzzle with this id, or None."""
    def stats(self) -> Dict[str, Any]:
        """What the bank holds (`pseudoku stats --json`)."""

def build(
    db: StrPath,
    count: int = 1000,
    level: Optional[str] = None,
    per_level: Optional[int] = None,
    threads: int = 0,
    seed: int = 2026,
    progress: Optional[Callable[[Dict[str, int]], Any]] = None,
) -> Dict[str, Any]:
    """Builds (or continues building) a bank; Ctrl-C stops after the batch."""

def import_puzzles(
    db: StrPath,
    path: StrPath,
    threads: int = 0,
    progress: Optional[Callable[[Dict[str, int]], Any]] = None,
) -> Dict[str, Any]:
    """Grades a puzzle file into a bank (`pseudoku import`)."""

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
    seed: int = 1,
) -> Dict[str, Any]:
    """Exports daily batches (`pseudoku export`)."""
