// Play on the board: tapping a board object shows its actions in a small popover beside it
// (each with its symbol, its label in words and its notation in small type); tapping a unit
// or ship lights the places it can go, and tapping one of them moves there (the popover lists
// the actions when several go there). The decision panel's list stays the complete fallback.
//
// Also, for every board:
// - board objects named by a legal action are marked "live" (the seat's turn only);
// - the turn bar above the board holds the legal actions that name nothing drawn on the
//   board (end the turn, pass, keep a faction...), so that they too are taken without the list;
// - on a zoomable board, edge markers point at live objects out of sight (tap: the board pans
//   to the nearest of them), and on a phone the map opens at a size that can be tapped
//   (every target at least MIN_TARGET px, every label at least MIN_TEXT px) on the part of
//   the board where the seat can act; labels too small to read at the zoom shown are hidden.
import { el } from "./dom.js";
import { icon } from "./symbols.js";
import { NAV_SELECTOR, OBJECT_ATTRS } from "./boardkeys.js";

export const MIN_TARGET = 44; // CSS pixels, a finger's tap
export const MIN_TEXT = 11; // CSS pixels

const OBJECT_SELECTOR = OBJECT_ATTRS.map((a) => `[${a}]`).join(",");

// The words of a notation as board objects are named ("move E1a D1|E1" -> move, e1a, d1|e1;
// "hit carrier[1/0]" -> hit, carrier, 1/0; "play x P1.destroyer" -> play, x, p1, destroyer).
export function words(notation) {
  return String(notation).toLowerCase().split(/[\s@:.[\]]+/).filter(Boolean);
}

// The name a board object goes by in notations: its data- attribute's value (a track cell
// "1:colonise" goes by its action, for its own seat only).
function nameOf(node, you) {
  for (const a of OBJECT_ATTRS) {
    const v = node.getAttribute(a);
    if (v === null) continue;
    if (a === "data-track") {
      const [seat, act] = v.split(":");
      return Number(seat) === you ? act.toLowerCase() : null;
    }
    return v.toLowerCase();
  }
  return null;
}

// A node's key (its tag, its naming attributes, its index among alike nodes), to find it
// again after a redraw.
const KEY_ATTRS = [...OBJECT_ATTRS, "data-unit", "data-object", "data-at"];
function keyOf(board, node) {
  const attrs = KEY_ATTRS.filter((a) => node.hasAttribute(a)).map((a) => `[${a}="${CSS.escape(node.getAttribute(a))}"]`);
  const sel = `${CSS.escape(node.localName)}${attrs.join("")}`;
  return { sel, index: [...board.querySelectorAll(sel)].indexOf(node) };
}
function find(board, key) {
  if (!key) return null;
  const all = board.querySelectorAll(key.sel);
  return all[Math.max(0, key.index)] ?? all[0] ?? null;
}

// The part of the screen the board can be seen in: the window above the phone's bottom
// sheet (a fixed panel), in client coordinates.
export function screenWindow() {
  const side = document.getElementById("side");
  let bottom = window.innerHeight;
  if (side && getComputedStyle(side).position === "fixed") bottom = Math.min(bottom, side.getBoundingClientRect().top);
  return { left: 0, top: 0, right: window.innerWidth, bottom };
}

function intersect(a, b) {
  const r = { left: Math.max(a.left, b.left), top: Math.max(a.top, b.top), right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom) };
  return r.right > r.left && r.bottom > r.top ? r : null;
}

// box: the board's section (#board-box); board: #board; tools: the strip above the board
// that holds the turn bar; zoom: layout.js's zoom ({ view, centre, focus, zoomFor }) or
// null; phone(): a phone's layout; play(notation): the shell's play; symbol(item): the
// action's symbol [sheet, id] or null.
export function boardPlay({ box, board, tools, zoom, phone, play, symbol }) {
  const pop = el("div", { id: "board-pop", class: "board-pop card", role: "group", hidden: "hidden" });
  const marks = el("div", { id: "edge-marks", class: "edge-marks" });
  box.append(pop, marks);
  let bar = document.getElementById("turn-bar");
  if (!bar && tools) {
    bar = el("span", { id: "turn-bar", class: "turn-bar", role: "group", "aria-label": "actions of the turn" });
    tools.prepend(bar);
  }
  let anchor = null; // the key of the object the popover belongs to
  let lastTap = null;
  let view = null;
  let focusedSeq = null;
  let marksAfterSlides = false; // markers waiting for the board's slides to end
  // what is in sight changes when the page scrolls or the window changes size, and the
  // map's contents scale with its box when the page around it changes (the turn bar, the
  // log): the markers are placed again, once a frame at most
  let marksQueued = false;
  const markAgain = () => {
    if (marksQueued || !view) return;
    marksQueued = true;
    requestAnimationFrame(() => {
      marksQueued = false;
      drawMarks();
    });
  };
  window.addEventListener("scroll", markAgain, { passive: true });
  window.addEventListener("resize", markAgain);
  if (typeof ResizeObserver === "function") new ResizeObserver(markAgain).observe(board);
  // the last board object tapped or chosen with Enter: where the popover opens
  board.addEventListener("click", (e) => {
    const node = e.target.closest?.(NAV_SELECTOR);
    lastTap = node && board.contains(node) ? keyOf(board, node) : null;
  }, true);

  function actionButton(item, cls = "pop-action") {
    const s = symbol(item);
    return el("button", { type: "button", class: `action ${cls}`, "data-notation": item.notation, title: item.notation, onclick: (e) => { e.stopPropagation(); play(item.notation); } },
      s ? icon(s[0], s[1], { size: 16 }) : "",
      el("span", { class: "label" }, item.label || item.notation), item.label ? el("code", { class: "notation" }, item.notation) : "");
  }

  // Place the popover beside the anchor's box, in the visible part of the screen, where it
  // covers the fewest places to tap (the highlighted destinations first): under it, over
  // it, to its right or its left.
  function place() {
    if (pop.hidden) return;
    const node = find(board, anchor);
    if (!node || !node.getClientRects().length) {
      pop.hidden = true;
      return;
    }
    const a = node.getBoundingClientRect();
    const win = screenWindow();
    // panned out of sight: the popover waits until its object is back
    const seen = intersect(a, win);
    const root = board.querySelector("svg.zoomable");
    const frame = root ? intersect(root.getBoundingClientRect(), win) : win;
    if (!seen || !frame || !intersect(a, frame)) {
      pop.classList.add("away");
      return;
    }
    pop.classList.remove("away");
    const b = box.getBoundingClientRect();
    pop.style.maxHeight = `${Math.max(120, Math.min(360, (win.bottom - win.top) * 0.6))}px`;
    const w = pop.offsetWidth;
    const h = pop.offsetHeight;
    // inside the board's section: never over the decision panel beside it
    const fitX = (x) => Math.max(Math.max(4, b.left), Math.min(Math.min(window.innerWidth, b.right) - w - 4, x));
    const fitY = (y) => Math.max(win.top + 4, Math.min(win.bottom - h - 4, y));
    const frame2 = root ? root.getBoundingClientRect() : a;
    const spots = [
      { left: a.left + a.width / 2 - w / 2, top: a.bottom + 6 },
      { left: a.left + a.width / 2 - w / 2, top: a.top - 6 - h },
      { left: a.right + 6, top: a.top + a.height / 2 - h / 2 },
      { left: a.left - 6 - w, top: a.top + a.height / 2 - h / 2 },
      // over the strip above the map (the turn bar), covering none of it
      { left: a.left + a.width / 2 - w / 2, top: frame2.top - h - 2 },
    ].map((p) => ({ left: fitX(p.left), top: fitY(p.top) }));
    const aims = [...board.querySelectorAll(".target, .live")].filter((n) => n !== node && !node.contains(n)).map((n) => {
      const r = n.getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2, weight: n.classList.contains("target") ? 3 : 1 };
    });
    const cost = (p) => {
      const over = { left: p.left, top: p.top, right: p.left + w, bottom: p.top + h };
      const covered = aims.filter((t) => t.x > over.left && t.x < over.right && t.y > over.top && t.y < over.bottom).reduce((n, t) => n + t.weight, 0);
      const overAnchor = intersect(over, a) ? 1 : 0;
      const far = Math.hypot(p.left + w / 2 - (a.left + a.width / 2), p.top + h / 2 - (a.top + a.height / 2));
      return covered * 40 + overAnchor * 200 + far * 0.05;
    };
    const best = spots.reduce((p, q) => (cost(q) < cost(p) ? q : p));
    pop.style.left = `${fitX(best.left) - b.left}px`;
    pop.style.top = `${fitY(best.top) - b.top}px`;
  }

  // The popover of a board object: title, a hint (how to move) and the actions.
  // With a hint (the unit's destinations light up), its other actions fold away so that the
  // popover leaves the map to the move.
  function show(title, items, hint) {
    anchor = lastTap;
    if (!anchor) {
      pop.hidden = true;
      return;
    }
    let list = items.length ? el("ul", { class: "pop-list" }, ...items.map((item) => el("li", {}, actionButton(item)))) : "";
    if (list && hint) {
      const fold = el("details", { class: "pop-more" }, el("summary", {}, `other actions here (${items.length})`), list);
      fold.addEventListener("toggle", () => place());
      list = fold;
    }
    pop.setAttribute("aria-label", `actions of ${title}`);
    pop.replaceChildren(el("p", { class: "pop-title" }, el("strong", {}, title),
      el("button", { type: "button", class: "pop-close", "aria-label": "close", onclick: (e) => { e.stopPropagation(); hide(); } }, "\u00d7")),
    hint ? el("p", { class: "pop-hint" }, hint) : "", list,
    !items.length && !hint ? el("p", { class: "pop-hint" }, "No action involves it now.") : "");
    pop.hidden = false;
    place();
  }

  function hide() {
    pop.hidden = true;
    anchor = null;
  }

  // Live objects: named by a legal action of the seat's turn.
  function markLive() {
    const named = new Set();
    if (view?.your_turn) for (const a of view.legal) for (const w of words(a.notation)) named.add(w);
    const all = new Set();
    for (const node of board.querySelectorAll(OBJECT_SELECTOR)) {
      const name = nameOf(node, view?.you);
      if (name === null) continue;
      all.add(name);
      if (named.has(name)) node.classList.add("live");
    }
    return all;
  }

  // The turn bar: the legal actions that name nothing drawn on the board (a board object
  // may take actions by their verb: data-verbs="draw celebrate" on a deck).
  function drawBar(drawn) {
    if (!bar) return;
    const verbs = new Set([...board.querySelectorAll("[data-verbs]")].flatMap((n) => n.dataset.verbs.split(" ")));
    const rest = view?.your_turn ? view.legal.filter((a) => !verbs.has(a.notation.split(" ")[0]) && !words(a.notation).some((w) => drawn.has(w))) : [];
    bar.replaceChildren(...rest.slice(0, 6).map((item) => actionButton(item, "turn-action")),
      rest.length > 6 ? el("span", { class: "muted" }, ` and ${rest.length - 6} more in the list`) : "");
    bar.hidden = !rest.length;
  }

  // The live objects (or, with a unit chosen, the places it can go) of a zoomable board.
  const aims = (root) => {
    const targets = [...root.querySelectorAll(".target")];
    return targets.length ? targets : [...root.querySelectorAll(".live")];
  };

  // A target's centre in board units and on the screen.
  function centreOf(node, root, v) {
    const r = node.getBoundingClientRect();
    const s = root.getBoundingClientRect();
    const cx = r.left + r.width / 2;
    const cy = r.top + r.height / 2;
    return { cx, cy, ux: v.x + (cx - s.left) / v.k, uy: v.y + (cy - s.top) / v.k };
  }

  // Edge markers: the live objects out of sight, grouped by the side of the board they lie
  // beyond; each marker says how many and pans to the nearest.
  function drawMarks() {
    const root = board.querySelector("svg.zoomable");
    const v = root && zoom?.view();
    if (!root || !v) {
      marks.replaceChildren();
      return;
    }
    const shown = intersect(root.getBoundingClientRect(), screenWindow());
    if (!shown) {
      marks.replaceChildren();
      return;
    }
    // a marker's middle lies `band` inside the view's edge; an object counts as in sight
    // only where no marker can cover its middle (`clear`), so a marker never hides a place
    // to act that the player could tap: one nearer the edge gets a marker that centres it
    const band = MIN_TARGET / 2 + 4;
    const inner = { left: shown.left + band, top: shown.top + band, right: shown.right - band, bottom: shown.bottom - band };
    const edge = MIN_TARGET + 4;
    const clear = { left: shown.left + edge, top: shown.top + edge, right: shown.right - edge, bottom: shown.bottom - edge };
    const mid = { x: (shown.left + shown.right) / 2, y: (shown.top + shown.bottom) / 2 };
    const groups = new Map();
    for (const node of aims(root)) {
      const c = centreOf(node, root, v);
      if (c.cx > clear.left && c.cx < clear.right && c.cy > clear.top && c.cy < clear.bottom) continue;
      const angle = Math.atan2(c.cy - mid.y, c.cx - mid.x);
      const side = ["right", "below right", "below", "below left", "left", "above left", "above", "above right"][((Math.round(angle / (Math.PI / 4)) % 8) + 8) % 8];
      const g = groups.get(side) ?? { side, items: [], angle };
      g.items.push({ ...c, d: Math.hypot(c.cx - mid.x, c.cy - mid.y) });
      groups.set(side, g);
    }
    const b = box.getBoundingClientRect();
    const out = [];
    for (const g of groups.values()) {
      g.items.sort((p, q) => p.d - q.d);
      const near = g.items[0];
      // on the line from the middle of the view to the nearest, at the view's edge
      const dx = near.cx - mid.x;
      const dy = near.cy - mid.y;
      const t = Math.min(dx ? ((dx > 0 ? inner.right - 0 : inner.left) - mid.x) / dx : Infinity,
        dy ? ((dy > 0 ? inner.bottom : inner.top) - mid.y) / dy : Infinity, 1);
      const x = mid.x + dx * t;
      const y = mid.y + dy * t;
      const arrow = ["\u2192", "\u2198", "\u2193", "\u2199", "\u2190", "\u2196", "\u2191", "\u2197"][((Math.round(g.angle / (Math.PI / 4)) % 8) + 8) % 8];
      const n = g.items.length;
      out.push(el("button", { type: "button", class: "edge-mark", "data-side": g.side, "aria-label": `${n} place${n > 1 ? "s" : ""} to act ${g.side}: show the nearest`,
        style: { left: `${x - b.left - MIN_TARGET / 2}px`, top: `${y - b.top - MIN_TARGET / 2}px` },
        onclick: (e) => { e.stopPropagation(); zoom.centre(near.ux, near.uy); } }, el("span", { "aria-hidden": "true" }, `${arrow}${n > 1 ? n : ""}`)));
    }
    marks.replaceChildren(...out);
    // a move still sliding (motion.js) is not where it will stay: place the markers again
    // when the slides end
    const sliding = root.getAnimations?.({ subtree: true }).filter((a) => a.playState === "running") ?? [];
    if (sliding.length && !marksAfterSlides) {
      marksAfterSlides = true;
      Promise.allSettled(sliding.map((a) => a.finished)).then(() => {
        marksAfterSlides = false;
        markAgain();
      });
    }
  }

  // On a phone, a zoomable board opens at its playing scale (playScale px per unit) on the
  // part where most live objects lie (or at fallback, {x, y} in board units, when none is);
  // with each new position of the seat's turn it comes back there when the map was zoomed
  // out or nothing to act on is in sight. Redraws of the same position leave the view alone.
  // follow: a replay's map keeps the last move in sight at each step instead.
  function phoneFocus(playScale, fallback, follow) {
    const root = board.querySelector("svg.zoomable");
    if (!root || !zoom || !playScale || !phone()) return;
    const v = zoom.view();
    const seq = view?.seq ?? view?.step ?? 0;
    if (!v || focusedSeq === seq) return;
    const first = focusedSeq === null;
    focusedSeq = seq;
    if (!first && !view?.your_turn && !follow) return;
    const rect = root.getBoundingClientRect();
    const win = intersect(rect, screenWindow()) ?? rect;
    const live = view?.your_turn ? aims(root) : follow ? [...root.querySelectorAll(".last-move")] : [];
    const inSight = live.some((n) => {
      const r = n.getBoundingClientRect();
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      return x > win.left && x < win.right && y > win.top && y < win.bottom;
    });
    if (!first && v.k >= playScale * 0.98 && (inSight || !live.length)) return;
    const level = zoom.zoomFor(playScale);
    // the window the sheet leaves may be shorter than the element: centre that window
    const offsetY = ((rect.top + rect.bottom) / 2 - (win.top + win.bottom) / 2) / v.k;
    const pts = live.map((n) => centreOf(n, root, v));
    if (!pts.length) {
      if (fallback) zoom.focus(fallback.x, fallback.y + offsetY * (v.k / playScale), level);
      return;
    }
    // the densest window of live objects at the playing scale, and their middle
    const w = (win.right - win.left) / playScale / 2 - MIN_TARGET;
    const h = (win.bottom - win.top) / playScale / 2 - MIN_TARGET;
    const around = (p) => pts.filter((q) => Math.abs(q.ux - p.ux) < w && Math.abs(q.uy - p.uy) < h);
    const best = pts.reduce((a, p) => (around(p).length > around(a).length ? p : a), pts[0]);
    const near = around(best);
    const cx = near.reduce((t, q) => t + q.ux, 0) / near.length;
    const cy = near.reduce((t, q) => t + q.uy, 0) / near.length;
    zoom.focus(cx, cy + offsetY * (v.k / playScale), level);
  }

  // Labels too small to read at the zoom shown are hidden (a phone's whole-map view).
  function smallText() {
    const root = board.querySelector("svg.zoomable");
    if (!root) return;
    const k = Number(root.dataset.scale) || 1;
    const smallest = Math.min(...[...root.querySelectorAll("text")].map((t) => parseFloat(getComputedStyle(t).fontSize) || 12), 99);
    board.classList.toggle("small-text", phone() && smallest * k < MIN_TEXT);
  }

  // On a phone a zoomable map ends where the lowered decision panel begins (at the page's
  // top), so that the whole of it can be seen and tapped without scrolling the page.
  function fitMap() {
    const root = board.querySelector("svg.zoomable");
    const side = document.getElementById("side");
    if (!root || !phone() || !side || side.classList.contains("open") || getComputedStyle(side).position !== "fixed") {
      if (root) root.style.height = "";
      return;
    }
    const top = root.getBoundingClientRect().top + window.scrollY;
    const sheetTop = window.innerHeight - side.getBoundingClientRect().height;
    root.style.height = `${Math.max(240, Math.round(sheetTop - top - 6))}px`;
  }

  return {
    // after every drawing of the board (view: the table's view)
    afterDraw(v, { playScale, fallback, follow = false } = {}) {
      view = v;
      const drawn = markLive();
      drawBar(drawn);
      fitMap();
      zoom?.apply();
      phoneFocus(playScale, fallback, follow);
      smallText();
      drawMarks();
      place();
    },
    // after every zoom or pan
    onZoom() {
      smallText();
      drawMarks();
      place();
    },
    show,
    hide,
    place,
    shown: () => !pop.hidden,
  };
}
