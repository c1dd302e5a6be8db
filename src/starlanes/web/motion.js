// Motion where it explains: between two views, what moved slides from its old place to its
// new one (MOVE_MS), and a battle's dice and hits, read from the view's new log lines, are
// shown one line at a time (STEP_MS apart) in a small overlay over the board.
//
// Nothing waits on it: the board is drawn at once in its new state and each moved thing is
// only drawn from its old place back to where it now is (the Web Animations API, a
// transform), so actions, clicks and the keyboard focus work at once. A click on the board
// or on the overlay, or Escape, skips to the end. With prefers-reduced-motion: reduce
// neither runs (the log has the lines).
//
// What is a moving thing, found in the drawn board: a ship ([data-ship], its number), a
// card unit ([data-unit] without [data-at], its id), or a group of units at a place
// ([data-unit][data-at]: kind, owner (its chip's seat-stroke-N) and whether landed, with its
// count). A group that grew at a place slides from a place where the same group shrank.
const MOVE_MS = 300;
const STEP_MS = 400;
const SHOWN_MS = 2500; // the overlay stays this long after its last line
const MOVED_PX = 2; // less than this is no move

// The log lines that tell a battle's dice, hits and losses, as each game words them:
// Rift Domination ("space battle at ...", "P0 (..) rolls [5, 2]: 1 hit(s)", "P1's Fighter
// is destroyed", kamikaze, bombardment, barrage, repairs, retreat), Interstellar Ambitions
// ("P0 raids P1 at level 2", "... rolls 3 and leaves the battle", "combat totals: ..."),
// Galactic Domination ("... is destroyed", collisions, black holes) and Galactic Empires
// ("P0 allocates 3 damage on ...", "... takes 2 damage", the distortion cannon).
export const BATTLE_LINE = new RegExp([
  "^(space|ground) battle ", "\\brolls \\[", "\\bhit\\(s\\)", " is destroyed\\b", "^kamikaze",
  "\\bbombardment\\b", "rocket barrage", "\\bnegates \\d+ damage", " retreats$", "battle has no winner",
  "\\brange phase$", "\\bdeals \\d+ damage", "^P\\d+ (raid|invade)s P\\d+ at level", "\\bleaves the battle$",
  "^combat totals:", "\\bdestroys .+ before", "emergency ship", "\\bcollides\\b", "black hole opens",
  "\\ballocates \\d+ damage", "\\btakes \\d+ damage", "distortion cannon",
].join("|"));

export const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;

// The moving things drawn in board: [{ key, place, count, node }].
function things(board) {
  const out = [];
  for (const node of board.querySelectorAll("[data-ship],[data-unit]")) {
    if (node.dataset.ship !== undefined) {
      out.push({ key: `ship:${node.dataset.ship}`, place: "", count: 1, node });
    } else if (node.dataset.at === undefined) {
      out.push({ key: `unit:${node.dataset.unit}`, place: "", count: 1, node });
    } else {
      const owner = (node.querySelector("[class*='seat-stroke-']")?.getAttribute("class") ?? "").match(/seat-stroke-(\d+)/)?.[1] ?? "";
      const count = Number(node.querySelector("text")?.textContent) || 1;
      out.push({ key: `group:${node.dataset.unit}:${owner}:${node.classList.contains("landed") ? "l" : ""}`, place: node.dataset.at, count, node });
    }
  }
  return out;
}

// Where a node is, in the units a transform of it moves it by: an SVG node's box in its own
// user space (the board's units, whatever the zoom), an HTML node's box in page pixels.
function where(node) {
  if (node instanceof SVGGraphicsElement) {
    const b = node.getBBox();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2, svg: true };
  }
  const r = node.getBoundingClientRect();
  return { x: r.left + r.width / 2 + window.scrollX, y: r.top + r.height / 2 + window.scrollY, svg: false };
}

export function motion({ board, box }) {
  let before = null; // the things of the last drawn view, with their places
  let lastSeq = null;
  let lastTotal = null;
  let flights = []; // slides under way: { key, place, dx, dy, start }, kept across redraws
  let steps = null; // the battle overlay's state: { lines, shown, timer }

  const overlay = document.createElement("div");
  overlay.id = "battle-steps";
  overlay.className = "battle-steps";
  overlay.hidden = true;
  overlay.setAttribute("aria-hidden", "true"); // the log and the live region say it in words
  overlay.addEventListener("click", (e) => {
    e.stopPropagation();
    if (steps && steps.shown < steps.lines.length) skipSteps();
    else closeSteps();
  });
  box.append(overlay);

  function finishMoves() {
    flights = [];
    for (const a of board.getAnimations({ subtree: true })) if (a.id === "move") a.finish();
  }

  function slide(node, dx, dy, elapsed) {
    // an SVG node's px are its user units: the same numbers as its box
    const anim = node.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0px, 0px)" }],
      { duration: MOVE_MS, easing: "ease-out" });
    anim.id = "move";
    anim.currentTime = Math.min(MOVE_MS, elapsed);
    node.classList.add("moving");
    anim.finished.then(() => node.classList.remove("moving"), () => node.classList.remove("moving"));
  }

  // After every drawing of the board: new slides for what moved since the last view, and
  // the slides under way started again on the nodes drawn anew.
  function afterDraw(view) {
    const now = things(board);
    const seqChanged = view && view.seq !== lastSeq;
    if (seqChanged && before && !reducedMotion()) {
      const had = new Map(); // key -> [{place, count, pos}]
      for (const t of before) had.set(t.key, [...(had.get(t.key) ?? []), t]);
      const start = performance.now();
      for (const t of now) {
        const olds = had.get(t.key);
        if (!olds) continue;
        const pos = where(t.node);
        let from = null;
        if (t.place === "") {
          from = olds[0].pos;
        } else if (!olds.some((o) => o.place === t.place && o.count >= t.count)) {
          // grown here: it came from a place where the same group shrank or left
          const shrunk = olds.find((o) => o.place !== t.place
            && o.count > (now.find((n) => n.key === t.key && n.place === o.place)?.count ?? 0));
          from = shrunk?.pos ?? null;
        }
        if (!from || from.svg !== pos.svg) continue;
        const dx = from.x - pos.x;
        const dy = from.y - pos.y;
        if (Math.hypot(dx, dy) < MOVED_PX) continue;
        flights = flights.filter((f) => !(f.key === t.key && f.place === t.place));
        flights.push({ key: t.key, place: t.place, dx, dy, start });
      }
    }
    const clock = performance.now();
    flights = flights.filter((f) => clock - f.start < MOVE_MS);
    if (!reducedMotion()) {
      for (const f of flights) {
        const t = now.find((n) => n.key === f.key && n.place === f.place);
        if (t && !t.node.getAnimations().some((a) => a.id === "move")) slide(t.node, f.dx, f.dy, clock - f.start);
      }
    } else {
      flights = [];
    }
    before = now.map((t) => ({ key: t.key, place: t.place, count: t.count, pos: where(t.node) }));
    if (view) lastSeq = view.seq;
  }

  // ---------------------------------------------------------------- battle steps
  function render() {
    const list = document.createElement("ol");
    for (const line of steps.lines.slice(0, steps.shown)) {
      const li = document.createElement("li");
      li.textContent = line;
      list.append(li);
    }
    const head = document.createElement("p");
    head.className = "battle-steps-head";
    head.textContent = steps.shown < steps.lines.length ? "Battle (click or Esc: all at once)" : "Battle (click to close)";
    overlay.replaceChildren(head, list);
    overlay.dataset.shown = String(steps.shown);
    overlay.dataset.total = String(steps.lines.length);
  }
  function next() {
    if (!steps) return;
    steps.shown += 1;
    render();
    steps.timer = setTimeout(steps.shown < steps.lines.length ? next : closeSteps, steps.shown < steps.lines.length ? STEP_MS : SHOWN_MS);
  }
  function skipSteps() {
    if (!steps) return;
    clearTimeout(steps.timer);
    steps.shown = steps.lines.length;
    render();
    steps.timer = setTimeout(closeSteps, SHOWN_MS);
  }
  function closeSteps() {
    if (steps) clearTimeout(steps.timer);
    steps = null;
    overlay.hidden = true;
    overlay.replaceChildren();
  }
  // The battle lines among lines, shown one at a time from the first (a battle still being
  // shown gets the new ones after its own).
  function showBattle(lines) {
    const battle = lines.filter((l) => BATTLE_LINE.test(l));
    if (!battle.length || reducedMotion()) return;
    if (steps) {
      steps.lines.push(...battle);
      if (steps.shown >= steps.lines.length - battle.length) {
        clearTimeout(steps.timer);
        steps.timer = setTimeout(next, STEP_MS);
      }
      render();
      return;
    }
    steps = { lines: battle, shown: 0, timer: null };
    overlay.hidden = false;
    next();
  }

  // Before a view is drawn: its log lines that are new since the last view.
  function beforeDraw(view) {
    if (!view || view.log_total === undefined) return;
    if (lastTotal !== null && view.seq !== lastSeq && view.log_total > lastTotal) {
      const fresh = view.log.slice(Math.max(0, view.log.length - (view.log_total - lastTotal)));
      showBattle(fresh);
    }
    lastTotal = view.log_total;
  }

  // a click on the board or Escape anywhere skips what is under way
  board.addEventListener("pointerdown", finishMoves, true);
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    finishMoves();
    if (steps && steps.shown < steps.lines.length) skipSteps();
    else if (steps) closeSteps();
  }, true);
  return { beforeDraw, afterDraw, showBattle, overlay, skip: () => { finishMoves(); skipSteps(); } };
}
