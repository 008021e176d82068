"""pseudoku: graded Sudoku puzzle banks.

Puzzles are 81-character strings (``.`` or ``0`` for an empty cell). Rate, hint, explain,
solve, count and canonicalize single puzzles; rate many on every core with ``rate_many``;
build, import into, draw from, calibrate, export, print books from and make datasets of banks
(SQLite files, the same ones the ``pseudoku`` program writes); count players' results and
draw puzzles matched to a player (``Bank.record_result``, ``Bank.for_user``).

    >>> import pseudoku
    >>> pseudoku.rate("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")["level"]
    'hard'
"""

from ._native import (
    RATER,
    __version__,
    Bank,
    BankError,
    InvalidPuzzle,
    NotUnique,
    PseudokuError,
    book,
    build,
    calibrate,
    canonical,
    count_solutions,
    dataset,
    explain,
    export,
    generate,
    hint,
    import_puzzles,
    import_results,
    parse,
    rate,
    rate_many,
    solve,
)

__all__ = [
    "RATER",
    "Bank",
    "BankError",
    "InvalidPuzzle",
    "NotUnique",
    "PseudokuError",
    "book",
    "build",
    "calibrate",
    "canonical",
    "count_solutions",
    "dataset",
    "explain",
    "export",
    "generate",
    "hint",
    "import_puzzles",
    "import_results",
    "parse",
    "rate",
    "rate_many",
    "solve",
]
