//! The links of one digit, shared by the single-digit techniques (skyscraper, two-string kite,
//! turbot fish, empty rectangle, X-chains and X-cycles, multi-colouring); not a technique
//! itself.
//!
//! For a digit d, a **strong link** joins the only two places of d in a house: one of the two
//! holds d. A **weak link** joins two places of d that see each other: at most one of them
//! holds d. A strong link is also a weak link (its two cells see each other), so a chain may
//! use it either way.

use crate::candidates::Candidates;
use crate::cellset::CellSet;
use crate::grid::{Cell, Digit, House};

/// The kind bit of a strong link in a row.
pub(crate) const ROW: u8 = 1;
/// The kind bit of a strong link in a column.
pub(crate) const COL: u8 = 2;
/// The kind bit of a strong link in a box.
pub(crate) const BOX: u8 = 4;

/// A strong link: two cells that are the only places of the digit in a house they share
/// (in one, two or, never, three houses: `kinds` has a bit per kind of house).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Link {
    /// The first cell (the lower index).
    pub a: Cell,
    /// The second cell.
    pub b: Cell,
    /// The kinds of house ([`ROW`], [`COL`], [`BOX`]) where the two are the only places.
    pub kinds: u8,
}

impl Link {
    /// The two cells.
    #[inline]
    pub fn cells(self) -> CellSet {
        CellSet::single(self.a) | CellSet::single(self.b)
    }

    /// True when the two cells are the only places of the digit in their row.
    #[inline]
    pub fn in_row(self) -> bool {
        self.kinds & ROW != 0
    }

    /// True when the two cells are the only places of the digit in their column.
    #[inline]
    pub fn in_col(self) -> bool {
        self.kinds & COL != 0
    }

    /// The two ends, `c` first: `(c, other)`, when `c` is one of them.
    #[inline]
    pub fn from(self, c: Cell) -> (Cell, Cell) {
        if c == self.a {
            (self.a, self.b)
        } else {
            (self.b, self.a)
        }
    }
}

/// The link graph of one digit: its places, its strong links (each pair of cells once), and
/// per cell the cells it is strongly linked to.
pub(crate) struct Graph {
    /// The empty cells where the digit is still possible.
    pub places: CellSet,
    /// The places that are in at least one strong link.
    pub linked: CellSet,
    /// Per cell (index 0-80), its strong-link partners.
    pub partner: [CellSet; 81],
    /// The strong links, in house order of their first house; `count` of them are used.
    links: [Link; 27],
    /// How many of `links` there are.
    count: usize,
}

impl Graph {
    /// The graph of digit `d` in `st`.
    pub fn new(st: &Candidates, d: Digit) -> Graph {
        let places = st.cells_with(d);
        let mut g = Graph {
            places,
            linked: CellSet::EMPTY,
            partner: [CellSet::EMPTY; 81],
            links: [Link {
                a: Cell::from_index(0),
                b: Cell::from_index(0),
                kinds: 0,
            }; 27],
            count: 0,
        };
        for h in 0..27 {
            let x = places & CellSet::house_at(h);
            if x.len() != 2 {
                continue;
            }
            let (a, b) = two_cells(x);
            let kind = [ROW, COL, BOX][h / 9];
            g.linked |= x;
            g.partner[a.index()].insert(b);
            g.partner[b.index()].insert(a);
            match g.links[..g.count].iter_mut().find(|l| l.a == a && l.b == b) {
                Some(l) => l.kinds |= kind,
                None => {
                    g.links[g.count] = Link { a, b, kinds: kind };
                    g.count += 1;
                }
            }
        }
        g
    }

    /// The strong links, each pair of cells once.
    #[inline]
    pub fn links(&self) -> &[Link] {
        &self.links[..self.count]
    }

    /// The strong link between `a` and `b`, if there is one.
    pub fn link(&self, a: Cell, b: Cell) -> Option<Link> {
        self.links()
            .iter()
            .copied()
            .find(|l| (l.a == a && l.b == b) || (l.a == b && l.b == a))
    }

    /// The places that see `c` (its weak links).
    #[inline]
    pub fn weak(&self, c: Cell) -> CellSet {
        self.places & CellSet::peers(c)
    }

    /// The strong-link partners of all the cells of `s`.
    #[inline]
    pub fn partners_of(&self, s: CellSet) -> CellSet {
        s.iter()
            .fold(CellSet::EMPTY, |a, c| a | self.partner[c.index()])
    }
}

/// The cells that see at least one cell of `s` (the union of their peers).
#[inline]
pub(crate) fn seen_by(s: CellSet) -> CellSet {
    s.iter().fold(CellSet::EMPTY, |a, c| a | CellSet::peers(c))
}

/// True when `a` and `b` are different cells of one house.
#[inline]
pub(crate) fn sees(a: Cell, b: Cell) -> bool {
    CellSet::peers(a).contains(b)
}

/// A house holding both `a` and `b`: their row, else their column, else their box.
pub(crate) fn shared_house(a: Cell, b: Cell) -> Option<House> {
    if a.row() == b.row() {
        Some(House::Row(a.row()))
    } else if a.col() == b.col() {
        Some(House::Col(a.col()))
    } else if a.box_index() == b.box_index() {
        Some(House::Box(a.box_index()))
    } else {
        None
    }
}

/// A house where `a` and `b` are the only places of a digit with places `places` (a row
/// first, then a column, then a box).
pub(crate) fn strong_house(places: CellSet, a: Cell, b: Cell) -> Option<House> {
    let pair = CellSet::single(a) | CellSet::single(b);
    [
        House::Row(a.row()),
        House::Col(a.col()),
        House::Box(a.box_index()),
    ]
    .into_iter()
    .find(|&h| places & CellSet::house(h) == pair)
}

/// The two cells of a set of two, in cell order.
pub(crate) fn two_cells(x: CellSet) -> (Cell, Cell) {
    let a = x.first().expect("two cells");
    let b = (x - CellSet::single(a)).first().expect("two cells");
    (a, b)
}

/// The strong links of the nine lines of one direction (rows when `rows`, else columns) for a
/// digit with places `places`: the lines where it has exactly two places, as their two cells,
/// in line order; and how many.
pub(crate) fn line_links(places: CellSet, rows: bool) -> ([(Cell, Cell); 9], usize) {
    let mut links = [(Cell::from_index(0), Cell::from_index(0)); 9];
    let mut n = 0;
    for i in 0..9 {
        let x = places & CellSet::house_at(if rows { i } else { 9 + i });
        if x.len() == 2 {
            links[n] = two_cells(x);
            n += 1;
        }
    }
    (links, n)
}
