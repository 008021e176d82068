// The play page's game. This script owns everything the player does in the browser: it
// fetches a puzzle (the next one for this browser's user, or the daily one) with its solution,
// keeps the player's entries, pencil marks and undo history, times the game, counts hints and
// mistakes, asks the server for hints in three steps (nudge, technique, move), sees when the
// grid is solved, and keeps the game, the chosen level, the mistake setting and the daily
// streak in localStorage so that a reload carries on where the player left off. The server
// only serves puzzles and hints; the page's state lives in the DOM and in localStorage.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);

  // The localStorage keys the page reads and writes.
  const STORE = {
    user: "pseudoku-user",
    level: "pseudoku-level",
    game: "pseudoku-game",
    showMistakes: "pseudoku-show-mistakes",
    streak: "pseudoku-streak",
  };
  const UNDO_LIMIT = 200;
  const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

  // The twenty cells that share a row, a column or a box with each cell.
  const PEERS = Array.from({ length: 81 }, (_, i) => {
    const out = [];
    for (let j = 0; j < 81; j++) {
      if (j !== i && (row(j) === row(i) || col(j) === col(i) || box(j) === box(i))) out.push(j);
    }
    return out;
  });

  const user = localStorage.getItem(STORE.user) || "web-" + Math.random().toString(36).slice(2, 12);
  localStorage.setItem(STORE.user, user);

  // The page's token, when the server gives it one (a server started with --page-token-file).
  const pageToken = (document.querySelector('meta[name="pseudoku-token"]') || {}).content;

  // The game in progress (what localStorage keeps, see saveGame), or null before the first.
  let game = null;
  // What the page shows of it, not kept across reloads.
  let cells = [];
  let selected = 0;
  let pencil = false;
  let paused = false;
  let runningSince = null;
  let lastSaved = 0;
  let requests = 0;
  let hint = null;
  let hintBusy = false;
  let showMistakes = localStorage.getItem(STORE.showMistakes) === "true";

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

  function isSolved() {
    for (let i = 0; i < 81; i++) if (String(valueAt(i)) !== game.solution[i]) return false;
    return true;
  }

  // At least one digit or mark on an unsolved grid: starting another puzzle would lose it.
  function inProgress() {
    return game !== null && !game.solved && (game.entries.some((d) => d > 0) || game.marks.some((m) => m.size > 0));
  }

  function canEdit() {
    return game !== null && !game.solved && !paused;
  }

  function firstEmpty() {
    for (let i = 0; i < 81; i++) if (valueAt(i) === 0) return i;
    return 0;
  }

  // The entries and marks as one undo step keeps them.
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
  // no step behind.
  function change(apply) {
    const before = snapshot();
    apply();
    if (sameSnapshot(before, snapshot())) return;
    game.undo.push(before);
    if (game.undo.length > UNDO_LIMIT) game.undo.shift();
    boardChanged();
  }

  // What follows every change of the board: the hint is stale, the grid may be solved.
  function boardChanged() {
    clearHint();
    if (isSolved()) finish();
    draw();
    saveGame();
  }

  // A digit on the selected cell: an entry, or a pencil mark in pencil mode.
  function enter(d) {
    if (!canEdit() || isGiven(selected)) return;
    const i = selected;
    if (pencil) {
      if (game.entries[i] === 0) change(() => toggleMark(i, d));
    } else {
      change(() => place(i, d));
    }
  }

  function toggleMark(i, d) {
    const m = game.marks[i];
    if (m.has(d)) m.delete(d);
    else m.add(d);
  }

  // Enters d in cell i (or takes it back when it is there already); the digit leaves the
  // marks of the cell's row, column and box, and a wrong digit counts as a mistake.
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

  function undo() {
    if (!canEdit() || game.undo.length === 0) return;
    const step = game.undo.pop();
    game.entries = step.entries.slice();
    game.marks = step.marks.map((m) => new Set([...m].map(Number)));
    boardChanged();
  }

  function togglePencil() {
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
        el.addEventListener("click", () => select(i, false));
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
      b.innerHTML = '<span class="digit">' + d + '</span><span class="left"></span>';
      b.addEventListener("click", () => enter(d));
      pad.appendChild(b);
    }
  }

  function draw() {
    const digit = valueAt(selected);
    const peers = new Set(PEERS[selected]);
    cells.forEach((el, i) => drawCell(el, i, digit, peers));
    drawPad();
    drawTools();
    drawMistakes();
  }

  function drawCell(el, i, digit, peers) {
    const v = valueAt(i);
    const given = isGiven(i);
    const cl = el.classList;
    cl.toggle("given", given);
    cl.toggle("entry", !given && v > 0);
    cl.toggle("selected", i === selected);
    cl.toggle("peer", game !== null && peers.has(i));
    cl.toggle("same", digit > 0 && v === digit);
    cl.toggle("wrong", game !== null && ((showMistakes && isWrong(i)) || (hint !== null && hint.wrong.has(i))));
    cl.toggle("focus", hint !== null && hint.focus.has(i));
    cl.toggle("pattern", hint !== null && hint.pattern.has(i));
    cl.toggle("flag", hint !== null && hint.flag.has(i));
    el.tabIndex = i === selected ? 0 : -1;
    el.setAttribute("aria-selected", String(i === selected));
    const where = "row " + (row(i) + 1) + ", column " + (col(i) + 1) + ", ";
    el.textContent = "";
    if (v > 0) {
      el.textContent = v;
      el.setAttribute("aria-label", where + v);
    } else if (game !== null && game.marks[i].size > 0) {
      el.appendChild(marksElement(game.marks[i], digit));
      el.setAttribute("aria-label", where + "pencil marks " + [...game.marks[i]].sort().join(" "));
    } else {
      el.setAttribute("aria-label", where + "empty");
    }
  }

  // A cell's pencil marks: nine spans in a 3x3 grid, the selected digit's stressed.
  function marksElement(marks, digit) {
    const m = document.createElement("div");
    m.className = "marks";
    for (let d = 1; d <= 9; d++) {
      const s = document.createElement("span");
      if (marks.has(d)) {
        s.textContent = d;
        if (d === digit) s.className = "same";
      }
      m.appendChild(s);
    }
    return m;
  }

  // Each pad button shows how many of its digit are left to place.
  function drawPad() {
    const placed = new Array(10).fill(0);
    for (let i = 0; i < 81; i++) placed[valueAt(i)]++;
    for (const b of $("pad").children) {
      const d = Number(b.dataset.digit);
      const left = game === null ? 9 : Math.max(0, 9 - placed[d]);
      b.querySelector(".left").textContent = game === null ? "" : left;
      b.classList.toggle("done", game !== null && left === 0);
      b.disabled = !canEdit();
      b.setAttribute("aria-label", d + (game === null ? "" : ", " + left + " left"));
    }
  }

  function drawTools() {
    $("pencil").setAttribute("aria-pressed", String(pencil));
    $("undo").disabled = !canEdit() || game.undo.length === 0;
    $("erase").disabled = !canEdit();
    $("hint").disabled = !canEdit();
    $("pause").disabled = game === null || game.solved;
    $("board").classList.toggle("locked", game !== null && game.solved);
  }

  function drawMistakes() {
    const el = $("mistakes");
    el.hidden = !showMistakes || game === null;
    el.textContent = game === null ? "" : "Mistakes: " + game.mistakes;
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
    return game !== null && !game.solved && !paused && document.visibilityState === "visible";
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
    if (game === null || game.solved) return;
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
    let g;
    try {
      g = JSON.parse(localStorage.getItem(STORE.game));
    } catch (e) {
      return null;
    }
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
    g.reported = Boolean(g.reported);
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
      info: infoText(body.id, level, date),
      about: aboutText(body),
      entries: new Array(81).fill(0),
      marks: Array.from({ length: 81 }, () => new Set()),
      undo: [],
      elapsed: 0,
      hints: 0,
      mistakes: 0,
      solved: false,
      reported: false,
      selected: null,
    };
  }

  // What the player reads above the grid: "Puzzle #123 · Hard", or "Daily · 27 Nov 2026 · Hard".
  function infoText(id, level, daily) {
    return (daily ? "Daily \u00b7 " + formatDate(daily) : "Puzzle #" + id) + " \u00b7 " + title(level);
  }

  // The bank's figures, for "About this puzzle".
  function aboutText(body) {
    const about = [body.clues + " clues"];
    if (body.hardest_step) about.push("the hardest step: " + body.hardest_step);
    if (body.percentile != null) about.push("harder than " + Math.round(body.percentile) + "% of puzzles");
    if (body.difficulty != null) about.push("rating " + body.difficulty.toFixed(2));
    return about.join(", ") + ".";
  }

  // Shows game g, new or restored.
  function play(g) {
    game = g;
    selected = g.selected == null ? firstEmpty() : g.selected;
    game.selected = selected;
    paused = false;
    runningSince = null;
    $("paused").hidden = true;
    $("board").classList.remove("paused");
    if ($("win").open) $("win").close();
    clearHint();
    $("level").value = g.level;
    $("info").textContent = g.info || infoText(g.id, g.level, g.daily);
    $("about-text").textContent = g.about;
    $("about").hidden = false;
    drawPrintHead();
    drawStreak();
    setStatus(g.solved ? "Solved in " + formatTime(g.elapsed) + ". Press New for another puzzle." : "");
    draw();
    syncClock();
    saveGame();
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
      if (game !== null && !game.solved && !game.reported && elapsedNow() > 0) report(game, false);
      play(newGame(body, daily));
    } catch (e) {
      if (ticket === requests) setStatus("Could not reach the server.");
    }
  }

  function newPuzzle(level) {
    const url = "/v1/puzzles/next?solution=true&user=" + encodeURIComponent(user) + "&level=" + encodeURIComponent(level);
    return fetchPuzzle(url, { method: "POST" }, null);
  }

  function dailyPuzzle(date, level) {
    const url = "/v1/daily?date=" + date + "&level=" + encodeURIComponent(level) + "&solution=true";
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

  async function onDaily() {
    const date = localDate(new Date());
    const level = $("level").value;
    if (game !== null && game.daily === date && game.level === level) {
      setStatus(game.solved ? "You have solved today's daily puzzle: come back tomorrow." : "This is today's daily puzzle.");
      return;
    }
    if (await mayLeave("Start today's daily puzzle? Your progress on this one will be lost.")) dailyPuzzle(date, level);
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
    const sel = $("level");
    sel.textContent = "";
    for (const l of body.levels || []) {
      const o = document.createElement("option");
      o.value = l.name;
      o.textContent = title(l.name);
      sel.appendChild(o);
    }
  }

  // ----- Dates and the daily streak -----

  function localDate(d) {
    return d.getFullYear() + "-" + String(d.getMonth() + 1).padStart(2, "0") + "-" + String(d.getDate()).padStart(2, "0");
  }

  // "2026-11-27" -> "27 Nov 2026".
  function formatDate(iso) {
    const [y, m, d] = iso.split("-").map(Number);
    return d + " " + MONTHS[m - 1] + " " + y;
  }

  function dayBefore(iso) {
    const [y, m, d] = iso.split("-").map(Number);
    return localDate(new Date(y, m - 1, d - 1));
  }

  function readStreak() {
    try {
      const s = JSON.parse(localStorage.getItem(STORE.streak));
      if (s && typeof s.last === "string") return { last: s.last, count: Number(s.count) || 0, best: Number(s.best) || 0 };
    } catch (e) { /* A broken streak reads as none. */ }
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

  // The streak still alive today: its last daily was today's or yesterday's.
  function currentStreak() {
    const s = readStreak();
    const today = localDate(new Date());
    return s.last === today || s.last === dayBefore(today) ? s.count : 0;
  }

  function streakText(n) {
    return "Streak " + n + (n === 1 ? " day" : " days");
  }

  function drawStreak() {
    const n = currentStreak();
    $("streak").hidden = n === 0;
    $("streak").textContent = n > 0 ? streakText(n) : "";
  }

  // ----- Winning -----

  function finish() {
    game.solved = true;
    syncClock();
    setStatus("Solved in " + formatTime(game.elapsed) + ".");
    const streak = game.daily ? recordDaily(game.daily) : null;
    drawStreak();
    showWin(streak);
    report(game, true);
  }

  // Tells the server how game g went (once): the bank learns from it, and answers with the
  // player's rating, shown after a win. A server without results (an older one) is no error.
  async function report(g, solved) {
    if (g.reported) return;
    g.reported = true;
    if (g === game) saveGame();
    const body = {
      user: user,
      puzzle: g.id,
      solved: solved,
      seconds: Math.max(0, Math.round(g === game ? elapsedNow() : g.elapsed)),
      hints: g.hints,
      mistakes: g.mistakes,
    };
    try {
      const r = await api("/v1/results", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      if (!r.ok) return;
      const answer = await r.json();
      if (solved && g === game && answer.player) showRating(answer.player);
    } catch (e) {
      // Offline: the game is kept, its result is not.
    }
  }

  // "Your rating: 1319 after 1 game (it settles as you play)."
  function showRating(player) {
    const el = $("win-rating");
    const games = player.results + (player.results === 1 ? " game" : " games");
    el.textContent = "Your rating: " + Math.round(player.rating) + " after " + games +
      (player.deviation > 100 ? " (it settles as you play)." : ".");
    el.hidden = false;
  }

  function showWin(streak) {
    $("win-time").textContent = formatTime(game.elapsed);
    $("win-hints").textContent = game.hints;
    $("win-mistakes").textContent = game.mistakes;
    $("win-streak").hidden = streak === null;
    $("win-streak").textContent = streak === null ? "" : streakText(streak.count) + " (best " + streak.best + ")";
    $("win-rating").hidden = true;
    $("win").hidden = false;
    $("win").showModal();
    $("win-new").focus();
  }

  // ----- Hints -----

  function clearHint() {
    hint = null;
    $("hint-text").textContent = "";
  }

  // The next step of the hint: the first asks the server (and counts as a hint used).
  async function askHint() {
    if (!canEdit() || hintBusy) return;
    if (hint === null) {
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
    // Marks are sent only when every empty cell has some (else they would read as removed).
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
      $("hint-text").textContent = "Could not reach the server for a hint.";
      return null;
    }
  }

  function entriesText() {
    return [...Array(81).keys()].map((i) => (valueAt(i) > 0 ? String(valueAt(i)) : ".")).join("");
  }

  // Shows step 1 (where to look), 2 (the technique and its pattern) or 3 (the move).
  function showHintStep(step) {
    const h = hint.answer;
    hint.step = step;
    const text = step === 1 ? h.nudge : step === 2 ? h.hint : h.move;
    $("hint-text").textContent = "Hint " + step + "/3: " + plainCells(text || "");
    hint.focus = indexes(h.focus);
    hint.pattern = step >= 2 ? indexes(h.pattern) : new Set();
    hint.flag = step === 3 ? indexes((h.placements || []).concat(h.eliminations || [])) : new Set();
    hint.wrong = step === 3 ? indexes(h.errors) : new Set();
    draw();
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

  // Keys play on the board unless the focus is in a select, a text field or a dialog.
  function onKey(e) {
    if (e.altKey || game === null) return;
    const t = e.target;
    if (document.querySelector("dialog[open]") || (t.closest && t.closest("select, dialog, textarea, input[type=text]"))) return;
    if (e.ctrlKey || e.metaKey) {
      if (e.key.toLowerCase() === "z" && !e.shiftKey) {
        e.preventDefault();
        undo();
      }
      return;
    }
    if (paused) return;
    if (e.key in ARROWS) {
      e.preventDefault();
      move(ARROWS[e.key][0], ARROWS[e.key][1]);
    } else if (/^[1-9]$/.test(e.key)) {
      e.preventDefault();
      enter(Number(e.key));
    } else if (e.key === "Backspace" || e.key === "Delete" || e.key === "0") {
      e.preventDefault();
      erase();
    } else if (/^[pn]$/i.test(e.key)) {
      togglePencil();
    } else if (/^h$/i.test(e.key)) {
      askHint();
    }
  }

  function onShowMistakes() {
    showMistakes = $("show-mistakes").checked;
    localStorage.setItem(STORE.showMistakes, String(showMistakes));
    draw();
  }

  function bind() {
    document.addEventListener("keydown", onKey);
    $("new").addEventListener("click", onNew);
    $("daily").addEventListener("click", onDaily);
    $("level").addEventListener("change", onLevel);
    $("undo").addEventListener("click", undo);
    $("erase").addEventListener("click", erase);
    $("pencil").addEventListener("click", togglePencil);
    $("hint").addEventListener("click", askHint);
    $("pause").addEventListener("click", togglePause);
    $("resume").addEventListener("click", togglePause);
    $("print").addEventListener("click", () => window.print());
    $("show-mistakes").addEventListener("change", onShowMistakes);
    $("confirm-yes").addEventListener("click", () => $("confirm").close("yes"));
    $("confirm-no").addEventListener("click", () => $("confirm").close("no"));
    $("win").addEventListener("close", () => { $("win").hidden = true; });
    $("win-close").addEventListener("click", () => $("win").close());
    $("win-new").addEventListener("click", () => {
      $("win").close();
      newPuzzle($("level").value);
    });
    document.addEventListener("visibilitychange", () => {
      syncClock();
      saveGame();
    });
    window.addEventListener("pagehide", saveGame);
    window.addEventListener("beforeprint", drawPrintHead);
    setInterval(tick, 250);
  }

  // The first load: the saved game comes back, or a puzzle starts at the last level chosen.
  async function init() {
    build();
    bind();
    $("show-mistakes").checked = showMistakes;
    drawStreak();
    const saved = loadGame();
    if (saved !== null) play(saved);
    else draw();
    try {
      await loadLevels();
    } catch (e) {
      setStatus("Could not reach the server.");
      return;
    }
    const sel = $("level");
    const chosen = localStorage.getItem(STORE.level);
    if (saved !== null) sel.value = saved.level;
    else if (chosen && [...sel.options].some((o) => o.value === chosen)) sel.value = chosen;
    if (saved === null && game === null && sel.value) newPuzzle(sel.value);
  }

  init();
})();
