// The play page's game. This script owns everything the player does in the browser: it
// fetches a puzzle (the next one for this browser's user, or the daily one) with its solution,
// keeps the player's entries, notes and undo history, times the game, counts hints and
// mistakes, marks conflicts, asks the server for hints in three steps (the technique and where
// to look, the digit or cells, the move), sees when the grid is solved, and keeps the game, the
// settings, the statistics per level and the daily streak in localStorage so that a reload
// carries on where the player left off. A result the server could not be told (offline) waits
// in an outbox until it can. The server only serves puzzles, hints and results; the page's
// state lives in the DOM and in localStorage.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);

  // The localStorage keys the page reads and writes.
  const STORE = {
    user: "pseudoku-user",
    level: "pseudoku-level",
    game: "pseudoku-game",
    settings: "pseudoku-settings",
    stats: "pseudoku-stats",
    streak: "pseudoku-streak",
    outbox: "pseudoku-outbox",
    // Before the settings were kept together: read once, then folded into them.
    showMistakes: "pseudoku-show-mistakes",
  };
  const UNDO_LIMIT = 200;
  const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  // Narrow screens: the daily's date without its year; narrower, the mistakes as a mark.
  const NARROW = window.matchMedia("(max-width: 419px)");
  const NARROWEST = window.matchMedia("(max-width: 359px)");

  // The twenty cells that share a row, a column or a box with each cell.
  const PEERS = Array.from({ length: 81 }, (_, i) => {
    const out = [];
    for (let j = 0; j < 81; j++) {
      if (j !== i && (row(j) === row(i) || col(j) === col(i) || box(j) === box(i))) out.push(j);
    }
    return out;
  });

  // The player's id: made by the server (POST /v1/players) the first time this browser plays,
  // and kept. An id the page made itself (before the server made them) is replaced.
  const PLAYER_ID = /^p[0-9a-f]{16}\.[0-9a-f]{24}$/;
  let user = localStorage.getItem(STORE.user);
  if (user !== null && !PLAYER_ID.test(user)) user = null;

  // The page's token, when the server gives it one (a server started with --page-token-file).
  const pageToken = (document.querySelector('meta[name="pseudoku-token"]') || {}).content;

  // The game in progress (what localStorage keeps, see saveGame), or null before the first.
  let game = null;
  // What the page shows of it, not kept across reloads.
  let cells = [];
  let selected = 0;
  let pencil = false;
  // Number first: the digit picked on the pad, which a tap on a cell enters (0: none).
  let picked = 0;
  let paused = false;
  let runningSince = null;
  let lastSaved = 0;
  let requests = 0;
  let hint = null;
  let hintBusy = false;
  let settings = readSettings();

  function row(i) { return Math.floor(i / 9); }
  function col(i) { return i % 9; }
  function box(i) { return Math.floor(row(i) / 3) * 3 + Math.floor(col(i) / 3); }

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

  // Text whose sentences each start with a capital: "row 2 is ... . so" -> "Row 2 is ... . So".
  function sentenceCase(text) {
    return text.replace(/(^|[.!?]\s+)([a-z])/g, (_, before, letter) => before + letter.toUpperCase());
  }

  function plural(n, one, many) {
    return n + " " + (n === 1 ? one : many || one + "s");
  }

  // What localStorage keeps under key, parsed; null when there is nothing or it does not
  // parse (each reader then checks the shape it needs).
  function stored(key) {
    try {
      return JSON.parse(localStorage.getItem(key));
    } catch (e) {
      return null;
    }
  }

  // ----- Settings -----

  // Conflicts shown, mistakes not, cell-first input: what a first visit gets.
  function readSettings() {
    const s = Object.assign({ conflicts: true, mistakes: false, input: "cell", limit: 0 }, stored(STORE.settings));
    const old = localStorage.getItem(STORE.showMistakes);
    if (old !== null) {
      s.mistakes = old === "true";
      localStorage.removeItem(STORE.showMistakes);
      localStorage.setItem(STORE.settings, JSON.stringify(s));
    }
    s.conflicts = s.conflicts !== false;
    s.mistakes = s.mistakes === true;
    s.input = s.input === "number" ? "number" : "cell";
    s.limit = [3, 5].includes(s.limit) ? s.limit : 0;
    return s;
  }

  function saveSettings() {
    localStorage.setItem(STORE.settings, JSON.stringify(settings));
  }

  // ----- Board state -----

  function isGiven(i) {
    return game !== null && game.puzzle[i] !== "." && game.puzzle[i] !== "0";
  }

  // The digit a cell shows, given or entered; 0 when it is empty.
  function valueAt(i) {
    if (game === null) return 0;
    return isGiven(i) ? Number(game.puzzle[i]) : game.entries[i];
  }

  function isWrong(i) {
    return !isGiven(i) && game.entries[i] > 0 && String(game.entries[i]) !== game.solution[i];
  }

  function isCorrect(i) {
    return valueAt(i) > 0 && String(valueAt(i)) === game.solution[i];
  }

  // The cells whose digit repeats in their row, column or box.
  function conflicts() {
    const out = new Set();
    if (game === null) return out;
    for (let i = 0; i < 81; i++) {
      const v = valueAt(i);
      if (v > 0 && PEERS[i].some((p) => valueAt(p) === v)) out.add(i);
    }
    return out;
  }

  // Where digit d already stands among the peers of cell i, in words ("row 3"), or "".
  function clashWords(i, d) {
    const p = PEERS[i].find((j) => valueAt(j) === d);
    if (p === undefined) return "";
    if (row(p) === row(i)) return "row " + (row(i) + 1);
    if (col(p) === col(i)) return "column " + (col(i) + 1);
    return "box " + (box(i) + 1);
  }

  // The digits cell i can still take: those not in its row, column or box.
  function candidatesOf(i) {
    const seen = new Set(PEERS[i].map(valueAt));
    const out = new Set();
    for (let d = 1; d <= 9; d++) if (!seen.has(d)) out.add(d);
    return out;
  }

  function isSolved() {
    for (let i = 0; i < 81; i++) if (String(valueAt(i)) !== game.solution[i]) return false;
    return true;
  }

  // At least one digit or note on an unsolved grid: starting another puzzle would lose it.
  function inProgress() {
    return game !== null && !ended(game) && (game.entries.some((d) => d > 0) || game.marks.some((m) => m.size > 0));
  }

  function canEdit() {
    return game !== null && !ended(game) && !paused;
  }

  // A game is over when solved, or when it reached the mistake limit the player set.
  function ended(g) {
    return g.solved || g.over;
  }

  function firstEmpty() {
    for (let i = 0; i < 81; i++) if (valueAt(i) === 0) return i;
    return 0;
  }

  // The entries and notes as one undo step keeps them.
  function snapshot() {
    return { entries: game.entries.slice(), marks: game.marks.map(marksText) };
  }

  function marksText(set) {
    return [...set].sort().join("");
  }

  function sameSnapshot(a, b) {
    return a.entries.join() === b.entries.join() && a.marks.join() === b.marks.join();
  }

  // Applies a change to the board as one undo step; a change that changes nothing leaves
  // no step behind. The first change of a game counts it as played.
  function change(apply) {
    const before = snapshot();
    apply();
    if (sameSnapshot(before, snapshot())) return false;
    game.undo.push(before);
    if (game.undo.length > UNDO_LIMIT) game.undo.shift();
    if (!game.counted) {
      game.counted = true;
      countPlayed(game.level);
    }
    boardChanged();
    return true;
  }

  // What follows every change of the board: the hint is stale, the grid may be solved.
  function boardChanged() {
    clearHint();
    setStatus("");
    if (isSolved()) finish();
    draw();
    saveGame();
  }

  // Digit d on cell i: an entry, or a note in notes mode.
  function enterAt(i, d) {
    if (!canEdit() || isGiven(i)) return;
    if (pencil) {
      if (game.entries[i] === 0) change(() => toggleMark(i, d));
      return;
    }
    const was = game.entries[i];
    const mistakes = game.mistakes;
    if (change(() => place(i, d)) && game.entries[i] === d && was !== d && !game.solved) {
      if (game.mistakes > mistakes && settings.limit > 0 && game.mistakes >= settings.limit) {
        overLimit();
        return;
      }
      const where = clashWords(i, d);
      // "an 8", "a 3": the article as the digit's name is said.
      const article = d === 8 ? "an" : "a";
      if (settings.conflicts && where) {
        setStatus("There is already " + article + " " + d + " in " + where + ".");
      }
    }
  }

  // A digit from the pad or the keyboard: cell first, it goes in the selected cell; number
  // first, the pad picks it (a second press lets it go) and the keyboard still enters it.
  function onDigit(d, fromPad) {
    if (!canEdit()) return;
    if (settings.input === "number" && fromPad) {
      picked = picked === d ? 0 : d;
      draw();
      return;
    }
    enterAt(selected, d);
  }

  // A tap on cell i: it is selected; number first, the picked digit goes in (a given or
  // filled cell picks its own digit instead).
  function onCell(i) {
    select(i, false);
    if (settings.input !== "number" || !canEdit()) return;
    if (isGiven(i) || (picked === 0 && valueAt(i) > 0)) {
      picked = valueAt(i);
      draw();
    } else if (picked > 0) {
      enterAt(i, picked);
    }
  }

  function toggleMark(i, d) {
    const m = game.marks[i];
    if (m.has(d)) m.delete(d);
    else m.add(d);
  }

  // Enters d in cell i (or takes it back when it is there already); the digit leaves the
  // notes of the cell's row, column and box, and a wrong digit counts as a mistake.
  function place(i, d) {
    if (game.entries[i] === d) {
      game.entries[i] = 0;
      return;
    }
    game.entries[i] = d;
    for (const p of PEERS[i]) game.marks[p].delete(d);
    if (String(d) !== game.solution[i]) game.mistakes++;
  }

  function erase() {
    if (!canEdit() || isGiven(selected)) return;
    const i = selected;
    change(() => {
      game.entries[i] = 0;
      game.marks[i].clear();
    });
  }

  // Every empty cell's notes become the digits it can still take (one undo step).
  function autoNotes() {
    if (!canEdit()) return;
    const changed = change(() => {
      for (let i = 0; i < 81; i++) if (valueAt(i) === 0) game.marks[i] = candidatesOf(i);
    });
    setStatus(changed ? "Notes filled in: every digit each empty cell can still take." : "The notes are already complete.");
  }

  function undo() {
    if (!canEdit() || game.undo.length === 0) return;
    const step = game.undo.pop();
    game.entries = step.entries.slice();
    game.marks = step.marks.map((m) => new Set([...m].map(Number)));
    boardChanged();
  }

  function togglePencil() {
    if (!canEdit()) return;
    pencil = !pencil;
    drawTools();
  }

  function select(i, focus) {
    selected = i;
    if (game !== null) game.selected = i;
    draw();
    if (focus) cells[i].focus();
  }

  // Moves the selection by one cell, stopping at the grid's edges.
  function move(dr, dc) {
    const r = Math.min(8, Math.max(0, row(selected) + dr));
    const c = Math.min(8, Math.max(0, col(selected) + dc));
    select(r * 9 + c, true);
  }

  // ----- Drawing -----

  function build() {
    const board = $("board");
    board.textContent = "";
    cells = [];
    for (let r = 0; r < 9; r++) {
      const line = document.createElement("div");
      line.className = "row";
      line.setAttribute("role", "row");
      for (let c = 0; c < 9; c++) {
        const i = r * 9 + c;
        const el = document.createElement("div");
        el.className = "cell r" + r + " c" + c;
        el.dataset.cell = i;
        el.setAttribute("role", "gridcell");
        el.tabIndex = -1;
        el.addEventListener("click", () => onCell(i));
        line.appendChild(el);
        cells.push(el);
      }
      board.appendChild(line);
    }
    const pad = $("pad");
    pad.textContent = "";
    for (let d = 1; d <= 9; d++) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.digit = d;
      // The count left is drawn by the style sheet (from data-left), so that the key's visible
      // text is its digit, which its spoken name starts with.
      b.innerHTML = '<span class="digit">' + d + '</span><span class="left" aria-hidden="true"></span>';
      b.addEventListener("click", () => onDigit(d, true));
      pad.appendChild(b);
    }
  }

  // The digit whose cells are highlighted: the picked one (number first), else the selected
  // cell's.
  function shownDigit() {
    return settings.input === "number" && picked > 0 ? picked : valueAt(selected);
  }

  function draw() {
    const digit = shownDigit();
    const peers = new Set(PEERS[selected]);
    const clash = settings.conflicts ? conflicts() : new Set();
    cells.forEach((el, i) => drawCell(el, i, digit, peers, clash));
    drawPad();
    drawTools();
    drawMistakes();
  }

  function drawCell(el, i, digit, peers, clash) {
    const v = valueAt(i);
    const given = isGiven(i);
    const wrong = game !== null && ((settings.mistakes && isWrong(i)) || (hint !== null && hint.wrong.has(i)));
    const conflict = clash.has(i);
    const cl = el.classList;
    cl.toggle("given", given);
    cl.toggle("entry", !given && v > 0);
    cl.toggle("selected", i === selected);
    cl.toggle("peer", game !== null && peers.has(i));
    cl.toggle("same", digit > 0 && v === digit);
    cl.toggle("conflict", conflict);
    cl.toggle("wrong", wrong);
    const looked = hint !== null && (hint.focus.has(i) || hint.pattern.has(i) || hint.flag.has(i));
    cl.toggle("focus", hint !== null && hint.focus.has(i));
    cl.toggle("pattern", hint !== null && hint.pattern.has(i));
    cl.toggle("flag", hint !== null && hint.flag.has(i));
    el.tabIndex = i === selected ? 0 : -1;
    el.setAttribute("aria-selected", String(i === selected));
    // What a screen reader says: the place, then what is in it.
    const words = ["Row " + (row(i) + 1) + ", column " + (col(i) + 1)];
    el.textContent = "";
    if (v > 0) {
      el.textContent = v;
      words.push(given ? v + ", given" : String(v));
    } else if (game !== null && game.marks[i].size > 0) {
      el.appendChild(marksElement(game.marks[i], digit));
      words.push("empty, notes " + [...game.marks[i]].sort().join(" "));
    } else {
      words.push("empty");
    }
    if (conflict) words.push("conflict: another " + v + " in its row, column or box");
    if (wrong) words.push("mistake");
    if (looked) words.push("highlighted by the hint");
    el.setAttribute("aria-label", words.join(", "));
  }

  // A cell's notes: nine spans in a 3x3 grid, the highlighted digit's stressed. The digits
  // are drawn by the style sheet (from data-d): the cell's name says them, as its text would.
  function marksElement(marks, digit) {
    const m = document.createElement("div");
    m.className = "marks";
    m.setAttribute("aria-hidden", "true");
    for (let d = 1; d <= 9; d++) {
      const s = document.createElement("span");
      if (marks.has(d)) {
        s.dataset.d = d;
        if (d === digit) s.className = "same";
      }
      m.appendChild(s);
    }
    return m;
  }

  // Each pad key shows how many of its digit are still to be placed correctly.
  function drawPad() {
    const right = new Array(10).fill(0);
    if (game !== null) for (let i = 0; i < 81; i++) if (isCorrect(i)) right[valueAt(i)]++;
    const number = settings.input === "number";
    for (const b of $("pad").children) {
      const d = Number(b.dataset.digit);
      const left = 9 - right[d];
      b.querySelector(".left").dataset.left = game === null ? "" : left === 0 ? "\u2713" : left;
      b.classList.toggle("done", game !== null && left === 0);
      b.disabled = !canEdit();
      if (number) b.setAttribute("aria-pressed", String(picked === d));
      else b.removeAttribute("aria-pressed");
      const state = game === null ? "" : left === 0 ? ", all placed" : ", " + left + " left";
      b.setAttribute("aria-label", d + state);
    }
    $("pad").classList.toggle("number-first", number);
  }

  function drawTools() {
    const edit = canEdit();
    $("pencil").setAttribute("aria-pressed", String(pencil && edit));
    $("pencil").querySelector(".state").textContent = pencil ? "on" : "off";
    $("pencil").disabled = !edit;
    $("auto-notes").disabled = !edit;
    $("undo").disabled = !edit || game.undo.length === 0;
    $("erase").disabled = !edit || isGiven(selected) || (valueAt(selected) === 0 && game.marks[selected].size === 0);
    $("hint").disabled = !edit;
    $("pause").disabled = game === null || ended(game);
    $("board").classList.toggle("locked", game !== null && ended(game));
  }

  function drawMistakes() {
    const el = $("mistakes");
    el.hidden = !(settings.mistakes || settings.limit > 0) || game === null;
    const n = game === null ? 0 : game.mistakes;
    el.textContent = (NARROWEST.matches ? "\u2717 " : "Mistakes: ") + n;
    el.setAttribute("aria-label", plural(n, "mistake"));
    el.classList.toggle("some", n > 0);
  }

  function setStatus(text) {
    $("status").textContent = text;
  }

  // ----- Clock -----

  function elapsedNow() {
    if (game === null) return 0;
    return game.elapsed + (runningSince === null ? 0 : (Date.now() - runningSince) / 1000);
  }

  function clockShouldRun() {
    return game !== null && !ended(game) && !paused && document.visibilityState === "visible";
  }

  // Starts or stops the clock as the game, the pause button and the tab's visibility say.
  function syncClock() {
    const run = clockShouldRun();
    if (run && runningSince === null) runningSince = Date.now();
    if (!run && runningSince !== null) {
      game.elapsed = elapsedNow();
      runningSince = null;
    }
    drawTimer();
  }

  function drawTimer() {
    $("timer").textContent = formatTime(elapsedNow());
  }

  // Seconds as m:ss, or h:mm:ss from an hour on.
  function formatTime(seconds) {
    const s = Math.floor(seconds);
    const two = (n) => String(n).padStart(2, "0");
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    return h > 0 ? h + ":" + two(m) + ":" + two(s % 60) : m + ":" + two(s % 60);
  }

  // The clock redraws a few times a second, so that it turns with the seconds; each new
  // second of play goes into the saved game.
  function tick() {
    if (runningSince === null) return;
    drawTimer();
    const second = Math.floor(elapsedNow());
    if (second !== lastSaved) {
      lastSaved = second;
      saveGame();
    }
  }

  function togglePause() {
    if (game === null || ended(game)) return;
    paused = !paused;
    $("paused").hidden = !paused;
    $("board").classList.toggle("paused", paused);
    $("pause").setAttribute("aria-pressed", String(paused));
    $("pause").setAttribute("aria-label", paused ? "Resume" : "Pause");
    syncClock();
    draw();
    if (paused) $("resume").focus();
    else cells[selected].focus();
  }

  // ----- Saving and restoring -----

  function saveGame() {
    if (game === null) return;
    const kept = Object.assign({}, game, {
      elapsed: Math.floor(elapsedNow()),
      marks: game.marks.map(marksText),
    });
    try {
      localStorage.setItem(STORE.game, JSON.stringify(kept));
    } catch (e) {
      // A full storage keeps the game without its older undo steps.
      game.undo = game.undo.slice(-20);
      kept.undo = game.undo;
      try { localStorage.setItem(STORE.game, JSON.stringify(kept)); } catch (e2) { /* The game plays on unsaved. */ }
    }
  }

  // The saved game, or null when there is none or it does not read as one.
  function loadGame() {
    const g = stored(STORE.game);
    const ok = g && typeof g.puzzle === "string" && g.puzzle.length === 81 && typeof g.solution === "string" &&
      g.solution.length === 81 && Array.isArray(g.entries) && g.entries.length === 81 &&
      Array.isArray(g.marks) && g.marks.length === 81;
    if (!ok) return null;
    g.marks = g.marks.map((m) => new Set([...String(m)].map(Number)));
    g.undo = Array.isArray(g.undo) ? g.undo : [];
    g.elapsed = Number(g.elapsed) || 0;
    g.hints = Number(g.hints) || 0;
    g.mistakes = Number(g.mistakes) || 0;
    g.solved = Boolean(g.solved);
    g.over = Boolean(g.over);
    g.reported = Boolean(g.reported);
    g.counted = Boolean(g.counted);
    return g;
  }

  // ----- Starting a game -----

  // A new game from the server's answer (the daily's date when it is the daily puzzle).
  function newGame(body, daily) {
    const level = body.level || $("level").value;
    const date = daily ? body.date || daily : null;
    return {
      id: body.id,
      puzzle: body.puzzle,
      solution: body.solution,
      level: level,
      daily: date,
      about: aboutText(body),
      entries: new Array(81).fill(0),
      marks: Array.from({ length: 81 }, () => new Set()),
      undo: [],
      elapsed: 0,
      hints: 0,
      mistakes: 0,
      solved: false,
      over: false,
      reported: false,
      counted: false,
      selected: null,
    };
  }

  // What the player reads above the grid: "Puzzle #123 · Hard", or "Daily · 27 Nov 2026 ·
  // Hard" ("Daily · 27 Nov · Hard" on a narrow screen).
  function infoText(g) {
    const where = g.daily ? "Daily \u00b7 " + formatDate(g.daily, NARROW.matches) : "Puzzle #" + g.id;
    return where + " \u00b7 " + title(g.level);
  }

  // The bank's figures in a player's words, for "This puzzle".
  function aboutText(body) {
    const about = [plural(body.clues, "clue") + " given."];
    if (body.hardest_step) about.push(stepWords(body.hardest_step));
    const p = body.percentile;
    if (p != null) {
      if (p < 1) about.push("One of the easiest 1% of the puzzles here.");
      else if (p >= 99) about.push("One of the hardest 1% of the puzzles here.");
      else about.push("Harder than " + Math.round(p) + "% of the puzzles here.");
    }
    return about.join(" ");
  }

  // The hardest step as a sentence: "hidden single" -> "Its hardest step is a hidden
  // single.", "xy-wing" -> "... an XY-wing.", a trial -> "... trying a value and following it.".
  function stepWords(name) {
    if (name === "backtracking" || name === "trial and error") return "Its hardest step is trying a value and following it.";
    const shown = name === "aic" ? "alternating inference chain"
      : name.replace(/\b(wxyz|xyz|xy|xz|x|w|als|bug)\b/g, (m) => m.toUpperCase());
    return "Its hardest step is " + (/^(X|ALS|[aeio])/.test(shown) ? "an " : "a ") + shown + ".";
  }

  // Shows game g, new or restored.
  function play(g) {
    game = g;
    selected = g.selected == null ? firstEmpty() : g.selected;
    game.selected = selected;
    paused = false;
    picked = 0;
    runningSince = null;
    $("paused").hidden = true;
    $("board").classList.remove("paused");
    if ($("win").open) $("win").close();
    clearHint();
    if ([...$("level").options].some((o) => o.value === g.level)) $("level").value = g.level;
    drawInfo();
    $("about-text").textContent = g.about || "";
    drawPrintHead();
    setStatus(g.solved ? "Solved in " + formatTime(g.elapsed) + ". Press New for another puzzle." : g.over ? overWords(g) : "");
    draw();
    syncClock();
    saveGame();
  }

  function drawInfo() {
    if (game !== null) $("info").textContent = infoText(game);
  }

  // Asks the server for a puzzle and plays it; only the latest request's answer counts.
  async function fetchPuzzle(url, opts, daily) {
    const ticket = ++requests;
    setStatus("Fetching a puzzle\u2026");
    try {
      const r = await api(url, opts);
      const body = await r.json();
      if (ticket !== requests) return;
      if (!r.ok) {
        setStatus(body.error || "The server answered " + r.status + ".");
        return;
      }
      // The game left for this one is reported as not solved (once it was played at all).
      if (game !== null && !ended(game)) leaveGame(game);
      play(newGame(body, daily));
    } catch (e) {
      if (ticket === requests) setStatus(offlineWords());
    }
  }

  function offlineWords() {
    return game !== null && !ended(game)
      ? "Offline: play on, this game is kept in this browser."
      : "Could not reach the server.";
  }

  // A game left unsolved: the server hears of it (once it was played at all), and the level's
  // run of wins ends.
  function leaveGame(g) {
    if (!g.reported && elapsedNow() > 0) report(g, false);
    if (g.counted) countLeft(g.level);
  }

  // The player's id, asked of the server once; null when it cannot be had now (the status
  // line says why).
  async function player() {
    if (user !== null) return user;
    try {
      const r = await api("/v1/players", { method: "POST" });
      const body = await r.json();
      if (!r.ok) {
        setStatus(body.error || "The server answered " + r.status + ".");
        return null;
      }
      user = body.user;
      localStorage.setItem(STORE.user, user);
      return user;
    } catch (e) {
      setStatus(offlineWords());
      return null;
    }
  }

  async function newPuzzle(level) {
    const id = await player();
    if (id === null) return;
    const url = "/v1/puzzles/next?solution=true&user=" + encodeURIComponent(id) + "&level=" + encodeURIComponent(level);
    return fetchPuzzle(url, { method: "POST" }, null);
  }

  // The daily puzzle, asked for as this player's (asking is its delivery, so the result
  // counts).
  async function dailyPuzzle(date, level) {
    const id = await player();
    if (id === null) return;
    const url = "/v1/daily?date=" + date + "&level=" + encodeURIComponent(level) + "&solution=true&user=" + encodeURIComponent(id);
    return fetchPuzzle(url, {}, date);
  }

  // True when the player may leave the game: it is not in progress, or they say so.
  function mayLeave(text) {
    return inProgress() ? askConfirm(text) : Promise.resolve(true);
  }

  // Asks a question in the page's own dialog; resolves to true for "Start a new one".
  function askConfirm(text) {
    const dialog = $("confirm");
    if (dialog.open) return Promise.resolve(false);
    $("confirm-text").textContent = text;
    dialog.returnValue = "";
    dialog.showModal();
    return new Promise((resolve) => {
      dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
    });
  }

  async function onNew() {
    if (await mayLeave("Start a new puzzle? Your progress on this one will be lost.")) newPuzzle($("level").value);
  }

  // ----- The daily puzzles: today's and the archive of the last 30 days -----

  // How many days the archive lists, today included.
  const ARCHIVE_DAYS = 30;

  // The daily puzzles dialog: the level's last 30 days, each with the player's result.
  function openArchive() {
    const sel = $("archive-level");
    const level = game !== null ? game.level : $("level").value;
    if ([...sel.options].some((o) => o.value === level)) sel.value = level;
    else if ($("level").value) sel.value = $("level").value;
    $("archive").showModal();
    drawArchive();
  }

  // Lists the days at once (their dates are the browser's), then each day's result as the
  // server has it; only the latest request's answer is drawn.
  let archiveAsks = 0;
  async function drawArchive() {
    const level = $("archive-level").value;
    const today = localDate(new Date());
    const days = [];
    for (let i = 0, d = today; i < ARCHIVE_DAYS; i++, d = dayBefore(d)) days.push({ date: d, playable: true });
    listDays(days, level);
    const ticket = ++archiveAsks;
    const status = $("archive-status");
    status.textContent = "Loading your results\u2026";
    try {
      const who = user !== null ? "&user=" + encodeURIComponent(user) : "";
      const r = await api("/v1/daily/archive?date=" + today + "&level=" + encodeURIComponent(level) + who);
      const body = await r.json();
      if (ticket !== archiveAsks) return;
      if (!r.ok) {
        status.textContent = body.error || "The server answered " + r.status + ".";
        return;
      }
      status.textContent = "";
      listDays(body.days, level);
    } catch (e) {
      if (ticket === archiveAsks) status.textContent = "Offline: results show when the server can be reached.";
    }
  }

  // One button a day: its date and what the player made of it.
  function listDays(days, level) {
    const ol = $("archive-days");
    ol.textContent = "";
    const today = localDate(new Date());
    for (const day of days) {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.date = day.date;
      const when = document.createElement("span");
      when.className = "when";
      when.textContent = day.date === today ? "Today" : day.date === dayBefore(today) ? "Yesterday" : weekdayDate(day.date);
      const state = document.createElement("span");
      state.className = "state";
      state.textContent = dayState(day, level);
      if (day.game && day.game.solved) li.className = "solved";
      b.disabled = !day.playable;
      b.append(when, state);
      b.addEventListener("click", () => pickDay(day.date, level));
      li.appendChild(b);
      ol.appendChild(li);
    }
  }

  // "Solved in 4:12", "Solved in 4:12, 2 hints", "Not solved", "Playing", "Not played".
  function dayState(day, level) {
    if (game !== null && game.daily === day.date && game.level === level && !ended(game)) return "Playing";
    const g = day.game;
    if (!g) {
      if (game !== null && game.daily === day.date && game.level === level && game.solved) return "Solved in " + formatTime(game.elapsed);
      return day.playable ? "Not played" : "None recorded";
    }
    if (!g.solved) return "Not solved";
    return "Solved in " + formatTime(g.seconds) + (g.hints > 0 ? ", " + plural(g.hints, "hint") : "");
  }

  // "2026-12-02" -> "Wed 2 Dec".
  function weekdayDate(iso) {
    const [y, m, d] = iso.split("-").map(Number);
    return WEEKDAYS[new Date(y, m - 1, d).getDay()] + " " + formatDate(iso, true);
  }

  // A day of the archive picked: its puzzle, unless it is the one on the board.
  async function pickDay(date, level) {
    $("archive").close();
    const today = localDate(new Date());
    const which = date === today ? "today's daily puzzle" : "the daily puzzle of " + formatDate(date, true);
    if (game !== null && game.daily === date && game.level === level) {
      setStatus(game.solved
        ? (date === today ? "You have solved today's daily puzzle: come back tomorrow." : "You have solved " + which + ".")
        : "This is " + which + ".");
      return;
    }
    if (await mayLeave("Start " + which + "? Your progress on this one will be lost.")) dailyPuzzle(date, level);
  }

  async function onLevel() {
    const level = $("level").value;
    if (!(await mayLeave("Start a new " + title(level) + " puzzle? Your progress on this one will be lost."))) {
      $("level").value = game.level;
      return;
    }
    localStorage.setItem(STORE.level, level);
    newPuzzle(level);
  }

  async function loadLevels() {
    const r = await api("/v1/levels");
    const body = await r.json();
    const names = (body.levels || []).map((l) => l.name);
    for (const sel of [$("level"), $("stats-level"), $("archive-level")]) {
      sel.textContent = "";
      for (const name of names) {
        const o = document.createElement("option");
        o.value = name;
        o.textContent = title(name);
        sel.appendChild(o);
      }
    }
  }

  // ----- Dates and the daily streak -----

  function localDate(d) {
    return d.getFullYear() + "-" + String(d.getMonth() + 1).padStart(2, "0") + "-" + String(d.getDate()).padStart(2, "0");
  }

  // "2026-11-27" -> "27 Nov 2026" ("27 Nov" when short).
  function formatDate(iso, short) {
    const [y, m, d] = iso.split("-").map(Number);
    return d + " " + MONTHS[m - 1] + (short ? "" : " " + y);
  }

  function dayBefore(iso) {
    const [y, m, d] = iso.split("-").map(Number);
    return localDate(new Date(y, m - 1, d - 1));
  }

  // The daily streak; a broken one reads as none.
  function readStreak() {
    const s = stored(STORE.streak);
    if (s && typeof s.last === "string") return { last: s.last, count: Number(s.count) || 0, best: Number(s.best) || 0 };
    return { last: "", count: 0, best: 0 };
  }

  // Solving the daily of date: the day after the last one extends the streak, the same day
  // keeps it, an older day leaves it alone, and any other day starts a new one.
  function recordDaily(date) {
    const s = readStreak();
    if (s.last === date || (s.last !== "" && s.last > date)) return s;
    s.count = s.last === dayBefore(date) ? s.count + 1 : 1;
    s.best = Math.max(s.best, s.count);
    s.last = date;
    localStorage.setItem(STORE.streak, JSON.stringify(s));
    return s;
  }

  // Whether a daily's date is today's or yesterday's: the dailies a streak counts (one of the
  // archive's older days leaves it alone).
  function recent(date) {
    const today = localDate(new Date());
    return date === today || date === dayBefore(today);
  }

  // The streak still alive today: its last daily was today's or yesterday's.
  function currentStreak() {
    const s = readStreak();
    const today = localDate(new Date());
    return s.last === today || s.last === dayBefore(today) ? s.count : 0;
  }

  function streakText(n) {
    return "Daily streak: " + plural(n, "day");
  }

  // ----- Statistics per level -----

  // Each level's figures: games played (a first move made), won, the winning seconds in
  // total and the best, wins without a hint or a mistake, and the current and best runs of
  // wins (a game left unsolved ends a run).
  function readStats() {
    const s = stored(STORE.stats);
    return s && typeof s === "object" ? s : {};
  }

  function levelStats(all, level) {
    const z = { played: 0, won: 0, seconds: 0, best: 0, clean: 0, run: 0, bestRun: 0 };
    const s = Object.assign(z, all[level] || {});
    all[level] = s;
    return s;
  }

  function updateStats(level, apply) {
    const all = readStats();
    const s = levelStats(all, level);
    apply(s);
    localStorage.setItem(STORE.stats, JSON.stringify(all));
    return s;
  }

  function countPlayed(level) {
    updateStats(level, (s) => { s.played++; });
  }

  function countLeft(level) {
    updateStats(level, (s) => { s.run = 0; });
  }

  // A win: returns the level's figures and whether its time is a new best.
  function countWon(g) {
    let best = false;
    const secs = Math.max(1, Math.floor(g.elapsed));
    const s = updateStats(g.level, (s) => {
      if (!g.counted) s.played++;
      s.won++;
      s.seconds += secs;
      best = s.best === 0 || secs < s.best;
      if (best) s.best = secs;
      if (g.hints === 0 && g.mistakes === 0) s.clean++;
      s.run++;
      s.bestRun = Math.max(s.bestRun, s.run);
    });
    g.counted = true;
    return { s: s, best: best && s.won > 1 };
  }

  // The figures of a level as the statistics dialog lists them.
  function figures(s) {
    const rate = s.played > 0 ? Math.round((100 * s.won) / s.played) + "%" : "\u2013";
    return [
      ["Games played", s.played],
      ["Games won", s.won],
      ["Win rate", rate],
      ["Best time", s.best > 0 ? formatTime(s.best) : "\u2013"],
      ["Average time", s.won > 0 ? formatTime(s.seconds / s.won) : "\u2013"],
      ["Wins without help", s.clean],
      ["Current run of wins", s.run],
      ["Best run of wins", s.bestRun],
    ];
  }

  function drawStats() {
    const level = $("stats-level").value;
    const s = levelStats(readStats(), level);
    const dl = $("stats-figures");
    dl.textContent = "";
    for (const [name, value] of figures(s)) {
      const div = document.createElement("div");
      const dt = document.createElement("dt");
      const dd = document.createElement("dd");
      dt.textContent = name;
      dd.textContent = value;
      div.append(dt, dd);
      dl.appendChild(div);
    }
    const streak = readStreak();
    $("stats-daily").textContent = streakText(currentStreak()) + " (best " + plural(streak.best, "day") + ").";
  }

  function openStats() {
    const sel = $("stats-level");
    if (game !== null && [...sel.options].some((o) => o.value === game.level)) sel.value = game.level;
    drawStats();
    $("stats").showModal();
  }

  // ----- Winning -----

  function finish() {
    game.solved = true;
    pencil = false;
    picked = 0;
    syncClock();
    setStatus("Solved in " + formatTime(game.elapsed) + ".");
    const streak = game.daily && recent(game.daily) ? recordDaily(game.daily) : null;
    const won = countWon(game);
    showWin(streak, won);
    report(game, true);
  }

  // Tells the server how game g went (once): the bank learns from it, and answers with the
  // player's rating, shown after a win. Offline, the result waits in the outbox; a server
  // without results (an older one) is no error.
  async function report(g, solved) {
    if (g.reported) return;
    g.reported = true;
    if (g === game) saveGame();
    const id = await player();
    if (id === null) return;
    const body = {
      user: id,
      puzzle: g.id,
      solved: solved,
      seconds: Math.max(0, Math.round(g === game ? elapsedNow() : g.elapsed)),
      hints: g.hints,
      mistakes: g.mistakes,
    };
    const answer = await send(body);
    if (answer === null) {
      keep(body);
      return;
    }
    if (solved && g === game && answer.player) showRating(answer.player);
  }

  // Posts one result: the server's answer (an empty object for a refusal), or null when the
  // server could not be reached.
  async function send(body) {
    try {
      const r = await api("/v1/results", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      if (r.status >= 500) return null;
      return r.ok ? await r.json() : {};
    } catch (e) {
      return null;
    }
  }

  function readOutbox() {
    const o = stored(STORE.outbox);
    return Array.isArray(o) ? o : [];
  }

  function keep(body) {
    const o = readOutbox();
    o.push(body);
    localStorage.setItem(STORE.outbox, JSON.stringify(o.slice(-100)));
  }

  // Sends the results kept while offline, oldest first; stops at the first that cannot go.
  let flushing = false;
  async function flushOutbox() {
    if (flushing) return;
    flushing = true;
    try {
      for (;;) {
        const o = readOutbox();
        if (o.length === 0) break;
        if ((await send(o[0])) === null) break;
        const now = readOutbox();
        now.shift();
        localStorage.setItem(STORE.outbox, JSON.stringify(now));
      }
    } finally {
      flushing = false;
    }
  }

  // "Your rating: 1319 after 1 game (it settles as you play)."
  function showRating(player) {
    const el = $("win-rating");
    el.textContent = "Your rating: " + Math.round(player.rating) + " after " + plural(player.results, "game") +
      (player.deviation > 100 ? " (it settles as you play)." : ".");
    el.hidden = false;
  }

  function showWin(streak, won) {
    $("win-time").textContent = formatTime(game.elapsed);
    $("win-hints").textContent = game.hints;
    $("win-mistakes").textContent = game.mistakes;
    const s = won.s;
    $("win-level").textContent = (won.best ? "A new best time for " + title(game.level) + ". " : "") +
      title(game.level) + ": won " + s.won + " of " + s.played + ", best " + formatTime(s.best) +
      ", average " + formatTime(s.seconds / s.won) + ".";
    $("win-streak").hidden = streak === null;
    $("win-streak").textContent = streak === null ? "" : streakText(streak.count) + " (best " + streak.best + ")";
    $("win-rating").hidden = true;
    $("win").showModal();
    $("win-new").focus();
  }

  // ----- Hints -----

  function clearHint() {
    hint = null;
    $("hint-text").textContent = "";
  }

  // Check: the entries that differ from the solution are marked until the board changes
  // (counted as a hint).
  function checkDigits() {
    if (!canEdit()) return;
    const wrong = [...Array(81).keys()].filter((i) => game.entries[i] > 0 && String(game.entries[i]) !== game.solution[i]);
    game.hints++;
    saveGame();
    hint = { answer: null, step: 3, focus: new Set(), pattern: new Set(), flag: new Set(), wrong: new Set(wrong) };
    const n = wrong.length;
    $("hint-text").textContent = n === 0
      ? "Checked: every digit you entered is right."
      : "Checked: " + (n === 1 ? "1 of your digits is wrong" : n + " of your digits are wrong") + ", marked on the grid.";
    draw();
  }

  // Reveal: the solution's digit in the selected cell (or, when that is a given or already
  // right, the first cell without its digit), counted as a hint.
  function revealCell() {
    if (!canEdit()) return;
    const open = (i) => !isGiven(i) && String(game.entries[i]) !== game.solution[i];
    const i = open(selected) ? selected : [...Array(81).keys()].find(open);
    if (i === undefined) return;
    const d = Number(game.solution[i]);
    game.hints++;
    change(() => {
      game.entries[i] = d;
      game.marks[i].clear();
      for (const p of PEERS[i]) game.marks[p].delete(d);
    });
    if (!game.solved) {
      select(i);
      setStatus("Revealed: row " + (Math.floor(i / 9) + 1) + ", column " + ((i % 9) + 1) + " is " + d + ".");
    }
  }

  // The mistake limit reached: the game is over, reported as not solved, and the board
  // locked until a new puzzle.
  function overLimit() {
    game.over = true;
    pencil = false;
    picked = 0;
    leaveGame(game);
    syncClock();
    setStatus(overWords(game));
    draw();
    saveGame();
  }

  function overWords(g) {
    return "That is " + g.mistakes + " mistakes, the limit you set: this game is over. Press New for another puzzle.";
  }

  // The next step of the hint: the first asks the server (and counts as a hint used).
  async function askHint() {
    if (!canEdit() || hintBusy) return;
    setStatus("");
    if (hint === null || hint.answer === null) {
      hintBusy = true;
      try {
        const answer = await fetchHint();
        if (answer === null) return;
        hint = { answer: answer, step: 0, focus: new Set(), pattern: new Set(), flag: new Set(), wrong: new Set() };
        game.hints++;
        saveGame();
      } finally {
        hintBusy = false;
      }
    }
    showHintStep(Math.min(hint.step + 1, 3));
  }

  // The server's hint for the board as it is now, or null (with the reason shown).
  async function fetchHint() {
    const asked = snapshot();
    const req = { puzzle: game.puzzle, entries: entriesText() };
    // Notes are sent only when every empty cell has some (else they would read as removed).
    const empty = [...Array(81).keys()].filter((i) => valueAt(i) === 0);
    if (empty.length > 0 && empty.every((i) => game.marks[i].size > 0)) req.candidates = game.marks.map(marksText);
    try {
      const r = await api("/v1/hint", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(req) });
      const body = await r.json();
      if (!sameSnapshot(asked, snapshot())) return null;
      if (!r.ok) {
        $("hint-text").textContent = body.error || "The server answered " + r.status + ".";
        return null;
      }
      return body;
    } catch (e) {
      $("hint-text").textContent = "Hints need the server, which cannot be reached now.";
      return null;
    }
  }

  function entriesText() {
    return [...Array(81).keys()].map((i) => (valueAt(i) > 0 ? String(valueAt(i)) : ".")).join("");
  }

  // Shows step 1 (the technique, and the house to look in), 2 (the digit or cells: the
  // pattern) or 3 (the move), each more particular than the one before. A mistake's nudge is
  // already the general step (a sentence naming the box), so it comes first.
  function showHintStep(step) {
    const h = hint.answer;
    hint.step = step;
    const focus = indexes(h.focus);
    const nudge = h.nudge || "";
    const general = /\.$/.test(nudge) ? [nudge, h.hint] : [h.hint, lookAt(nudge)];
    const text = step === 3 ? h.move : general[step - 1];
    $("hint-text").textContent = "Hint " + step + " of 3: " + sentenceCase(plainCells(text || ""));
    // Step 1 shades a house, never the one cell the move is about.
    hint.focus = step > 1 || focus.size > 1 ? focus : new Set();
    hint.pattern = step >= 2 ? indexes(h.pattern) : new Set();
    hint.flag = step === 3 ? indexes((h.placements || []).concat(h.eliminations || [])) : new Set();
    hint.wrong = step === 3 ? indexes(h.errors) : new Set();
    draw();
  }

  // The nudge as a sentence: "box 2, digit 7" -> "Look at digit 7 in box 2.".
  function lookAt(nudge) {
    const m = /^(.*), digit (\d)$/.exec(nudge);
    if (m) return "Look at digit " + m[2] + " in " + m[1] + ".";
    return "Look at " + nudge + ".";
  }

  // The cells of one-based [row, column, ...] lists, as indexes.
  function indexes(list) {
    return new Set((list || []).map(([r, c]) => (r - 1) * 9 + (c - 1)));
  }

  // "r3c5" -> "row 3, column 5".
  function plainCells(text) {
    return text.replace(/\br(\d)c(\d)\b/g, "row $1, column $2");
  }

  // ----- Print -----

  function drawPrintHead() {
    if (game === null) return;
    const date = formatDate(game.daily || localDate(new Date()));
    $("print-info").textContent = title(game.level) + " \u00b7 " + date + " \u00b7 Puzzle #" + game.id;
  }

  // ----- Input -----

  // Keys play on the board unless the focus is in a form field or a dialog.
  function onKey(e) {
    if (e.altKey || game === null) return;
    const t = e.target;
    if (document.querySelector("dialog[open]") || (t.closest && t.closest("select, dialog, textarea, input"))) return;
    if (e.ctrlKey || e.metaKey) {
      if (e.key.toLowerCase() === "z" && !e.shiftKey) {
        e.preventDefault();
        undo();
      }
      return;
    }
    if (paused) return;
    const onCellNow = t.classList && t.classList.contains("cell");
    if (e.key in ARROWS) {
      if (!onCellNow && t !== document.body) return;
      e.preventDefault();
      move(ARROWS[e.key][0], ARROWS[e.key][1]);
    } else if (/^[1-9]$/.test(e.key)) {
      e.preventDefault();
      onDigit(Number(e.key), false);
    } else if (e.key === "Backspace" || e.key === "Delete" || e.key === "0") {
      e.preventDefault();
      erase();
    } else if ((e.key === "Enter" || e.key === " ") && onCellNow) {
      // Number first: the picked digit goes in the focused cell.
      e.preventDefault();
      if (settings.input === "number" && picked > 0) enterAt(selected, picked);
    } else if (/^[pn]$/i.test(e.key)) {
      togglePencil();
    } else if (/^a$/i.test(e.key)) {
      autoNotes();
    } else if (/^h$/i.test(e.key)) {
      askHint();
    }
  }

  function drawSettings() {
    $("show-conflicts").checked = settings.conflicts;
    $("show-mistakes").checked = settings.mistakes;
    $("input-" + settings.input).checked = true;
    $("mistake-limit").value = String(settings.limit);
    $("check").disabled = !canEdit();
    $("reveal").disabled = !canEdit();
  }

  function onSetting() {
    settings.conflicts = $("show-conflicts").checked;
    settings.mistakes = $("show-mistakes").checked;
    settings.input = $("input-number").checked ? "number" : "cell";
    settings.limit = Number($("mistake-limit").value) || 0;
    if (settings.input !== "number") picked = 0;
    saveSettings();
    draw();
  }

  // A dialog's close button, and the focus back where it was when the dialog opened.
  function dialogs() {
    for (const [id, opener] of [["stats", "open-stats"], ["settings", "open-settings"], ["archive", "daily"]]) {
      $(id + "-close").addEventListener("click", () => $(id).close());
      $(id).addEventListener("close", () => $(opener).focus());
    }
  }

  function bind() {
    document.addEventListener("keydown", onKey);
    $("new").addEventListener("click", onNew);
    $("daily").addEventListener("click", openArchive);
    $("archive-level").addEventListener("change", drawArchive);
    $("level").addEventListener("change", onLevel);
    $("undo").addEventListener("click", undo);
    $("erase").addEventListener("click", erase);
    $("pencil").addEventListener("click", togglePencil);
    $("auto-notes").addEventListener("click", autoNotes);
    $("hint").addEventListener("click", askHint);
    $("check").addEventListener("click", () => {
      $("settings").close();
      checkDigits();
    });
    $("reveal").addEventListener("click", () => {
      $("settings").close();
      revealCell();
    });
    $("pause").addEventListener("click", togglePause);
    $("resume").addEventListener("click", togglePause);
    $("print").addEventListener("click", () => {
      $("settings").close();
      window.print();
    });
    $("open-stats").addEventListener("click", openStats);
    $("stats-level").addEventListener("change", drawStats);
    $("open-settings").addEventListener("click", () => {
      drawSettings();
      $("settings").showModal();
    });
    for (const id of ["show-conflicts", "show-mistakes", "input-cell", "input-number", "mistake-limit"]) {
      $(id).addEventListener("change", onSetting);
    }
    dialogs();
    $("confirm-yes").addEventListener("click", () => $("confirm").close("yes"));
    $("confirm-no").addEventListener("click", () => $("confirm").close("no"));
    $("win-close").addEventListener("click", () => $("win").close());
    $("win-new").addEventListener("click", () => {
      $("win").close();
      newPuzzle($("level").value);
    });
    document.addEventListener("visibilitychange", () => {
      syncClock();
      saveGame();
      if (document.visibilityState === "visible") flushOutbox();
    });
    window.addEventListener("online", flushOutbox);
    window.addEventListener("pagehide", saveGame);
    window.addEventListener("beforeprint", drawPrintHead);
    for (const query of [NARROW, NARROWEST]) {
      query.addEventListener("change", () => {
        drawInfo();
        drawMistakes();
      });
    }
    setInterval(tick, 250);
  }

  // The page keeps working offline: a service worker keeps its files (and the levels).
  function installable() {
    if ("serviceWorker" in navigator && window.isSecureContext) {
      navigator.serviceWorker.register("/sw.js").catch(() => { /* The page works without it. */ });
    }
  }

  // The first load: the saved game comes back, or a puzzle starts at the last level chosen.
  async function init() {
    build();
    bind();
    installable();
    const saved = loadGame();
    if (saved !== null) play(saved);
    else draw();
    flushOutbox();
    try {
      await loadLevels();
    } catch (e) {
      setStatus(offlineWords());
      return;
    }
    const sel = $("level");
    const chosen = localStorage.getItem(STORE.level);
    if (saved !== null && [...sel.options].some((o) => o.value === saved.level)) sel.value = saved.level;
    else if (chosen && [...sel.options].some((o) => o.value === chosen)) sel.value = chosen;
    if (saved === null && game === null && sel.value) newPuzzle(sel.value);
  }

  init();
})();
