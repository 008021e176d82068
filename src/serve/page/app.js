// The play page: fetches a puzzle for this browser's user id, lets the player enter digits
// and pencil marks (keyboard and mouse, with undo), asks the server for hints in three steps
// (nudge, technique, move), checks the entries against the solution, and prints the grid.
"use strict";

const $ = (id) => document.getElementById(id);
const user = localStorage.getItem("pseudoku-user") || ("web-" + Math.random().toString(36).slice(2, 12));
localStorage.setItem("pseudoku-user", user);

let puzzle = null;      // 81 characters, "." for empty
let solution = null;    // 81 digits
let entries = [];       // digit per cell, 0 for empty
let marks = [];         // Set of digits per cell
let selected = 0;
let pencil = false;
let undo = [];
let hintStep = 0;
let lastHint = null;

function snapshot() { return { entries: entries.slice(), marks: marks.map((m) => new Set(m)) }; }
function save() { undo.push(snapshot()); if (undo.length > 500) undo.shift(); }

function build() {
  const board = $("board");
  board.innerHTML = "";
  for (let i = 0; i < 81; i++) {
    const c = document.createElement("div");
    c.className = "cell r" + Math.floor(i / 9) + " c" + (i % 9);
    c.dataset.cell = i;
    c.setAttribute("role", "gridcell");
    c.addEventListener("click", () => { selected = i; draw(); });
    board.appendChild(c);
  }
  const pad = $("pad");
  pad.innerHTML = "";
  for (let d = 1; d <= 9; d++) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = d;
    b.addEventListener("click", () => enter(d));
    pad.appendChild(b);
  }
}

function given(i) { return puzzle && puzzle[i] !== "." && puzzle[i] !== "0"; }

function draw() {
  const cells = $("board").children;
  const r0 = Math.floor(selected / 9), c0 = selected % 9;
  for (let i = 0; i < 81; i++) {
    const el = cells[i];
    const r = Math.floor(i / 9), c = i % 9;
    const peer = r === r0 || c === c0 || (Math.floor(r / 3) === Math.floor(r0 / 3) && Math.floor(c / 3) === Math.floor(c0 / 3));
    el.classList.toggle("selected", i === selected);
    el.classList.toggle("peer", peer && i !== selected);
    el.classList.toggle("given", given(i));
    el.classList.toggle("entry", !given(i) && entries[i] > 0);
    el.innerHTML = "";
    if (!puzzle) continue;
    if (given(i)) {
      el.textContent = puzzle[i];
    } else if (entries[i] > 0) {
      el.textContent = entries[i];
    } else if (marks[i].size > 0) {
      const m = document.createElement("div");
      m.className = "marks";
      for (let d = 1; d <= 9; d++) {
        const s = document.createElement("span");
        s.textContent = marks[i].has(d) ? d : "";
        m.appendChild(s);
      }
      el.appendChild(m);
    }
  }
}

function enter(d) {
  if (!puzzle || given(selected)) return;
  save();
  if (pencil) {
    const m = marks[selected];
    if (m.has(d)) m.delete(d); else m.add(d);
  } else {
    entries[selected] = entries[selected] === d ? 0 : d;
  }
  clearFlags();
  draw();
}

function erase() {
  if (!puzzle || given(selected)) return;
  save();
  entries[selected] = 0;
  marks[selected].clear();
  clearFlags();
  draw();
}

function clearFlags() {
  hintStep = 0;
  lastHint = null;
  for (const el of $("board").children) el.classList.remove("wrong", "flag");
}

// The page's token, when the server gives it one (a server started with --page-token-file).
const pageToken = (document.querySelector('meta[name="pseudoku-token"]') || {}).content;

// fetch, with the page's token when there is one.
function api(url, opts) {
  opts = opts || {};
  if (pageToken) opts.headers = Object.assign({}, opts.headers, { Authorization: "Bearer " + pageToken });
  return fetch(url, opts);
}

// A level's name as a player reads it: "hard" -> "Hard".
function title(name) {
  return name ? name.charAt(0).toUpperCase() + name.slice(1) : "";
}

async function loadLevels() {
  const r = await api("/v1/levels");
  const body = await r.json();
  const sel = $("level");
  sel.innerHTML = "";
  for (const l of body.levels || []) {
    const o = document.createElement("option");
    o.value = l.name;
    o.textContent = title(l.name);
    sel.appendChild(o);
  }
}

async function newPuzzle() {
  const level = $("level").value;
  $("status").textContent = "Fetching a puzzle...";
  const r = await api("/v1/puzzles/next?solution=true&user=" + encodeURIComponent(user) + "&level=" + encodeURIComponent(level), { method: "POST" });
  const body = await r.json();
  if (!r.ok) { $("status").textContent = body.error || ("error " + r.status); return; }
  puzzle = body.puzzle;
  solution = body.solution;
  entries = new Array(81).fill(0);
  marks = Array.from({ length: 81 }, () => new Set());
  undo = [];
  selected = 0;
  clearFlags();
  $("hint-text").textContent = "";
  // The player sees the puzzle's number and level; the bank's figures wait behind "About this puzzle".
  $("info").textContent = "Puzzle #" + body.id + " \u00b7 " + title(body.level);
  const about = [body.clues + " clues"];
  if (body.hardest_step) about.push("the hardest step: " + body.hardest_step);
  about.push("harder than " + Math.round(body.percentile) + "% of puzzles");
  if (body.difficulty != null) about.push("rating " + body.difficulty.toFixed(2));
  $("about-text").textContent = about.join(", ") + ".";
  $("about").hidden = false;
  $("status").textContent = "";
  draw();
}

function entriesText() {
  return entries.map((d, i) => (given(i) ? puzzle[i] : d > 0 ? String(d) : ".")).join("");
}

async function askHint() {
  if (!puzzle) return;
  if (!lastHint) {
    const req = { puzzle: puzzle, entries: entriesText() };
    // Marks are sent only when every empty cell has some (else they would read as removed).
    const empty = [...Array(81).keys()].filter((i) => !given(i) && entries[i] === 0);
    if (empty.length > 0 && empty.every((i) => marks[i].size > 0)) {
      req.candidates = [...Array(81).keys()].map((i) => [...marks[i]].sort().join(""));
    }
    const r = await api("/v1/hint", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(req) });
    const body = await r.json();
    if (!r.ok) { $("hint-text").textContent = body.error || ("error " + r.status); return; }
    lastHint = body;
    hintStep = 0;
  }
  hintStep = Math.min(hintStep + 1, 3);
  const h = lastHint;
  const text = hintStep === 1 ? h.nudge : hintStep === 2 ? h.hint : h.move;
  $("hint-text").textContent = "Hint " + hintStep + "/3: " + text;
  if (hintStep === 3) {
    const cells = $("board").children;
    for (const [r, c] of h.placements.concat(h.eliminations)) cells[(r - 1) * 9 + (c - 1)].classList.add("flag");
    for (const [r, c] of h.errors) cells[(r - 1) * 9 + (c - 1)].classList.add("wrong");
  }
}

function check() {
  if (!puzzle) return;
  let wrong = 0, empty = 0;
  const cells = $("board").children;
  for (let i = 0; i < 81; i++) {
    if (given(i)) continue;
    if (entries[i] === 0) { empty++; continue; }
    const bad = String(entries[i]) !== solution[i];
    cells[i].classList.toggle("wrong", bad);
    if (bad) wrong++;
  }
  $("status").textContent = wrong > 0 ? wrong + " wrong " + (wrong === 1 ? "entry" : "entries") + "." : empty > 0 ? "So far so good: " + empty + " cells to go." : "Solved!";
}

document.addEventListener("keydown", (e) => {
  if (e.target && e.target.tagName === "SELECT") return;
  if ((e.ctrlKey || e.metaKey) && e.key === "z") { e.preventDefault(); $("undo").click(); return; }
  const moves = { ArrowUp: -9, ArrowDown: 9, ArrowLeft: -1, ArrowRight: 1 };
  if (e.key in moves) { e.preventDefault(); selected = (selected + moves[e.key] + 81) % 81; draw(); return; }
  if (e.key >= "1" && e.key <= "9") { enter(Number(e.key)); return; }
  if (e.key === "Backspace" || e.key === "Delete" || e.key === "0") { erase(); return; }
  if (e.key === "p" || e.key === "P") { $("pencil").click(); return; }
  if (e.key === "h" || e.key === "H") { askHint(); }
});

$("new").addEventListener("click", newPuzzle);
$("hint").addEventListener("click", askHint);
$("check").addEventListener("click", check);
$("print").addEventListener("click", () => window.print());
$("erase").addEventListener("click", erase);
$("pencil").addEventListener("click", () => { pencil = !pencil; $("pencil").setAttribute("aria-pressed", String(pencil)); });
$("undo").addEventListener("click", () => {
  const s = undo.pop();
  if (!s) return;
  entries = s.entries;
  marks = s.marks;
  clearFlags();
  draw();
});

build();
loadLevels();
