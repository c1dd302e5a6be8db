// The table shell every game shares: whose turn, players, the log, the legal actions
// grouped by kind with their explanations, search and typed notation, undo, game over and
// the rules reference. The board and the game's own panels come from the game's module in
// games/<game>.js, which exports setup(ctx) and draw(view, ctx) (and optionally
// seatColours(view, layout), actionSymbol(item, ctx), boardActions(objectId, view, ctx) and
// endReasons). Play on the board (the popover of a tapped object, the turn bar, the phone's
// map) is boardplay.js.
// The page around the board: layout.js (bottom sheet, folds, zoom), boardkeys.js (the board
// from the keyboard), memory.js (last moves, since your last turn, announcements),
// gameover.js and howto.js.
import { api, watch } from "./api.js";
import { el, SEEDED } from "./dom.js";
import { applySeatColours, seatMark } from "./seats.js";
import { icon } from "./symbols.js";
import { boardKeys } from "./boardkeys.js";
import { announcement, drawLastMoves, highlight, Since } from "./memory.js";
import { rematchOffers, resultNodes } from "./gameover.js";
import { rulesContent } from "./howto.js";
import { connection, sheet } from "./layout.js";
import { Guide, loadGuide } from "./guide.js";
import { boardPlay, words } from "./boardplay.js";
import { motion } from "./motion.js";

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const storageKey = `starlanes:${gameId}`;

// A seat link (/games/ID?token=...) is read once: the token is kept in localStorage for
// this game and taken out of the address bar at once (the other query parameters stay),
// so it is not left in the history, a bookmark or a shared screenshot. Later visits of
// the plain address find it there.
function takeToken() {
  const params = new URLSearchParams(location.search);
  const given = params.get("token");
  let stored = null;
  try {
    stored = JSON.parse(localStorage.getItem(storageKey) ?? "null");
  } catch {
    stored = null;
  }
  if (!given) return { token: stored?.token ?? null, fromLink: false };
  try {
    localStorage.setItem(storageKey, JSON.stringify({ token: given, seat: stored?.token === given ? stored.seat : null }));
  } catch {
    return { token: given, fromLink: true }; // no storage: keep the link as it is
  }
  params.delete("token");
  const query = params.toString();
  history.replaceState(history.state, "", `${location.pathname}${query ? `?${query}` : ""}${location.hash}`);
  return { token: given, fromLink: true };
}
const taken = takeToken();
let token = taken.token;

const ctx = {
  view: null,
  layout: null,
  board: $("board"),
  legend: $("legend"),
  panels: $("game-panels"),
  selected: null,
  select,
  play,
  tip,
  facts,
  // a board too large for a phone starts zoomed in on the seat's part of it
  focusOn: (cx, cy, scale) => layout.zoom.focus(cx, cy, scale),
  phone: () => layout.phone(),
  redraw: () => drawBoard(),
  el,
};

function drawBoard() {
  module?.draw(ctx.view, ctx);
  ctx.afterDraw?.();
}
let module = null;
let offline = false;
let guide = null; // the guided first game, when the table was opened with ?guide=1
const since = new Since(gameId);
let onBoard = null; // play on the board (boardplay.js)
const layout = sheet({ onZoom: () => onBoard?.onZoom() });
const firstAction = () => [...$("groups").querySelectorAll("button.action")].find((b) => b.getClientRects().length) ?? null;
const keys = boardKeys($("board"), {
  keep: [$("side")], // the decision panel's buttons are drawn anew: the focus comes back to the board
  firstAction,
  onOpen: () => {
    const first = $("selection").hidden ? null : $("selection-list").querySelector("button");
    if (first) {
      layout.open(true);
      first.focus();
    }
  },
});
// moves slide and a battle's lines come one at a time; off with reduced motion (motion.js)
const moves = motion({ board: $("board"), box: $("board-box") });
onBoard = boardPlay({ box: $("board-box"), board: $("board"), tools: document.querySelector("#board-box .board-tools"), zoom: layout.zoom,
  phone: () => layout.phone(), play: (notation) => play(notation), symbol: (item) => module?.actionSymbol?.(item, ctx) ?? null });
ctx.afterDraw = () => {
  keys.enhance();
  highlight($("board"), ctx.moves ?? []);
  layout.zoom.apply();
  // a phone's map opens at ctx.playScale (px per board unit) where the seat can act
  onBoard.afterDraw(ctx.view, { playScale: ctx.playScale, fallback: ctx.home?.(ctx.view) });
  guide?.update(ctx.view, $("board"));
  moves.afterDraw(ctx.view); // what moved slides from its old place (motion.js)
};

// ------------------------------------------------------------------ helpers
// A tooltip on target; text is a string or a function giving it (possibly async).
function tip(target, text) {
  target.addEventListener("mouseenter", async () => {
    const box = $("tip");
    box.textContent = typeof text === "function" ? await text() : text;
    box.hidden = false;
    const r = target.getBoundingClientRect();
    box.style.left = `${Math.min(window.innerWidth - 340, r.left)}px`;
    box.style.top = `${r.bottom + window.scrollY + 6}px`;
  });
  target.addEventListener("mouseleave", () => { $("tip").hidden = true; });
}

// The facts card beside the board (a planet's tile, upgrades and units...): shown on hover
// or focus, kept ("pinned") when the object was tapped, until the selection is cleared.
let factsPinned = false;
function facts(nodes, pin = false) {
  const box = $("facts");
  if (!nodes) {
    if (!factsPinned) box.hidden = true;
    return;
  }
  factsPinned = pin || (factsPinned && !box.hidden);
  if (pin) factsPinned = true;
  box.replaceChildren(...nodes);
  box.hidden = false;
}

function explain(item) {
  const parts = [item.label ? `${item.label} (typed: ${item.notation})` : item.notation];
  if (item.text) parts.push(item.text);
  if (item.cost) parts.push(`Cost: ${item.cost}.`);
  if (item.changes) parts.push(item.changes);
  if (item.rules?.length) parts.push(`Rules: ${item.rules.join(", ")}${item.section ? ` (see "${item.section}" in how to play)` : ""}.`);
  return parts.join("\n");
}

function actionButton(item) {
  const li = el("li");
  const symbol = module?.actionSymbol?.(item, ctx);
  // The button reads the action's label in words; the notation (what a player types, and
  // what the record keeps) follows in small type. A game without labels shows the notation.
  const words = item.label
    ? [el("span", { class: "label" }, item.label), el("code", { class: "notation" }, item.notation)]
    : [el("code", {}, item.notation), item.cost ? el("span", { class: "cost" }, item.cost) : ""];
  const button = el("button", { type: "button", class: "action", "data-notation": item.notation, onclick: () => play(item.notation), disabled: offline ? "disabled" : null },
    symbol ? icon(symbol[0], symbol[1], { size: 16 }) : "", ...words);
  const text = el("span", { class: "what" }, item.text || "");
  // In a position with many legal actions the view carries the explanation of one action
  // per verb; the others are asked for when the player looks at them.
  tip(button, async () => {
    if (item.more && token) {
      try {
        Object.assign(item, await api.describe(gameId, token, item.notation), { more: false });
        text.textContent = item.text || "";
      } catch {
        /* the position moved on: the next view brings fresh actions */
      }
    }
    return explain(item);
  });
  li.append(button, text);
  return li;
}

// Before a player commits to an action that starts a battle, show its odds: the server
// works them out for this seat (on what this seat may know) and says nothing for actions
// that start no battle. Only the few actions of a selection are asked about.
const ODDS_KINDS = new Set(["move", "land", "attack", "raid", "invade"]);
async function showOdds(items) {
  if (!token || !ctx.view?.your_turn) return;
  const seq = ctx.view.seq;
  const asked = items.filter((a) => ODDS_KINDS.has((a.kind || "").toLowerCase())
    || ODDS_KINDS.has(a.notation.split(" ")[0].toLowerCase())).slice(0, 8);
  for (const item of asked) {
    let answer;
    try {
      answer = await api.odds(gameId, token, item.notation);
    } catch {
      continue;
    }
    if (!answer.odds || ctx.view.seq !== seq) continue;
    const o = answer.odds.outcomes;
    const pct = (x) => `${Math.round(100 * x)}%`;
    const line = `battle odds: win ${pct(o.attacker_wins ?? 0)}, lose ${pct(o.defender_wins ?? 0)}` +
      (o.mutual_destruction ? `, both destroyed ${pct(o.mutual_destruction)}` : "") +
      (answer.odds.method !== "exact" ? " (estimated)" : "");
    const button = $("selection-list").querySelector(`button[data-notation="${CSS.escape(item.notation)}"]`);
    button?.parentElement.append(el("span", { class: "odds", "data-odds": item.notation }, line,
      el("a", { class: "odds-link", href: `/odds?${new URLSearchParams({ from: gameId, action: item.notation })}`, target: "_blank", rel: "noopener" }, "calculator")));
  }
}

// ------------------------------------------------------------------ acting
const sending = () => "sending" in document.body.dataset; // an action is on its way
// Returns false without sending when another action is still on its way (the caller may
// try again), true once the server took this one, undefined when it refused it.
async function play(notation) {
  if (sending() || !ctx.view) return false;
  if (offline) {
    $("act-error").textContent = "You are offline: your move waits until the table is connected again.";
    return undefined;
  }
  document.body.dataset.sending = notation; // the action on its way (tests wait on it)
  $("act-error").textContent = "";
  try {
    const step = guide?.current ?? null;
    // what the player picks on the board while the action is on its way stays picked:
    // the view that follows may come (and be drawn) before the server's answer
    const picked = selections;
    await api.act(gameId, token, ctx.view.seq, notation);
    if (guide) {
      guide.played(notation, step);
      guide.update(ctx.view, $("board"));
    }
    // the new view may have come first, drawn with the old search: draw its actions again
    const searched = $("search").value !== "";
    $("search").value = "";
    if (searched) drawActions(ctx.view);
    if (selections === picked) select(null);
    return true;
  } catch (e) {
    $("act-error").textContent = e.message;
  } finally {
    delete document.body.dataset.sending;
  }
}

// Show the legal actions that involve a board object (a planet, a point, a unit kind, a
// card id, or a run of words such as "C1b C1" for the moves between two points): their
// notation names it as consecutive words, unless the game's module says which
// (boardActions(objectId, view, ctx) -> { items, popover, hint } or null: popover the part
// of items the popover lists, hint what else to tap). They are listed beside the
// object on the board (boardplay.js) and in the decision panel. { go: true }: a destination
// was tapped, and the one action that goes there is played at once.
let selections = 0; // counts the player's picks (select), not the redraws of one (draw)
function select(objectId, title, options = {}) {
  selections += 1;
  showSelection(objectId, title, options);
}

function showSelection(objectId, title, { go = false } = {}) {
  ctx.selected = objectId;
  ctx.selectedTitle = title;
  const box = $("selection");
  if (!objectId || !ctx.view) {
    box.hidden = true;
    $("selection-list").replaceChildren();
    factsPinned = false;
    $("facts").hidden = true;
    onBoard.hide();
    drawBoard();
    return;
  }
  const want = words(objectId);
  const involves = (notation) => {
    const have = words(notation);
    for (let i = 0; i + want.length <= have.length; i += 1) {
      if (want.every((w, k) => have[i + k] === w)) return true;
    }
    return false;
  };
  const own = module?.boardActions?.(objectId, ctx.view, ctx) ?? null;
  const items = own ? own.items : ctx.view.legal.filter((a) => involves(a.notation));
  if (go && items.length === 1 && ctx.view.your_turn) {
    ctx.selected = null;
    play(items[0].notation);
    return;
  }
  $("selection-title").textContent = items.length ? `${title ?? objectId}: ${items.length} action(s)` : `${title ?? objectId}: no action involves it now`;
  $("selection-list").replaceChildren(...items.map(actionButton));
  showOdds(items);
  box.hidden = false;
  drawBoard();
  onBoard.show(title ?? objectId, ctx.view.your_turn ? own?.popover ?? items : [], ctx.view.your_turn ? own?.hint ?? "" : "");
  // on a phone the popover beside the object shows them: the panel stays down
  if (items.length && !layout.phone()) layout.open(true);
}

// ------------------------------------------------------------------ drawing
function drawActions(view) {
  $("tip").hidden = true;
  const mine = view.your_turn;
  $("actions-title").textContent = mine ? `Your decision (${view.legal.length} options)` : view.result ? "The game is over" : `Waiting for ${view.waiting_label ?? "..."}`;
  const filter = $("search").value.trim().toLowerCase();
  const groups = new Map();
  for (const item of view.legal) {
    // the search matches the action's names (its label, notation and kind), not its explanation
    if (filter && ![item.label, item.notation, item.kind].some((name) => (name || "").toLowerCase().includes(filter))) continue;
    const kind = item.kind || item.notation.split(" ")[0];
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push(item);
  }
  const box = $("groups");
  box.replaceChildren();
  for (const [kind, items] of groups) {
    const open = groups.size <= 3 || items.length <= 6;
    const details = el("details", { class: "group" }, el("summary", {}, `${kind} (${items.length})`));
    details.open = open;
    details.append(el("ul", { class: "action-list" }, ...items.map(actionButton)));
    box.append(details);
  }
  $("search").disabled = !mine || offline;
  $("undo").hidden = !view.can_undo;
}

function drawSeats(view) {
  const rows = view.seats.map((s) => {
    const row = el("div", { class: `seat seat-${s.seat}${view.waiting_for === s.seat ? " waiting" : ""}`, "data-seat": s.seat },
      seatMark(s.seat, 16), el("span", {}, s.label), el("span", { class: "score", "aria-label": `score ${view.scores[s.seat]}` }, `${view.scores[s.seat]}`));
    if (view.you === s.seat) row.append(el("em", {}, " you"));
    return row;
  });
  $("seats").replaceChildren(...rows);
}

function drawLog(view) {
  const log = $("log");
  log.replaceChildren(...view.log.map((line) => el("li", {}, line)));
  log.start = view.log_total - view.log.length + 1;
  log.scrollTop = log.scrollHeight;
}

function drawResult(view) {
  if (!view.result) return;
  $("result").replaceChildren(...resultNodes(view, module?.endReasons));
  $("record-link").href = `/api/games/${gameId}/record`;
  $("replay-button").href = `/replay?game=${encodeURIComponent(gameId)}`;
  if (!$("gameover").open && !$("gameover").dataset.seen) {
    $("gameover").dataset.seen = "1";
    $("gameover").showModal();
  }
}

function draw(view) {
  const seqChanged = ctx.view?.seq !== view.seq;
  moves.beforeDraw(view);
  ctx.view = view;
  applySeatColours(module?.seatColours?.(view, ctx.layout));
  document.body.dataset.seq = view.seq;
  document.body.dataset.turn = view.your_turn ? "yours" : view.result ? "over" : "waiting";
  $("title").textContent = view.title;
  const status = offline ? "offline" : view.result ? "game over" : view.your_turn ? "your turn" : `waiting for ${view.waiting_label}`;
  $("status").textContent = status;
  $("status").className = `status${view.your_turn && !offline ? " yours" : ""}${offline ? " off" : ""}`;
  document.title = `${view.your_turn ? "(your turn) " : ""}${view.title} - starlanes`;
  $("link-button").hidden = view.you === null;
  $("rematch").hidden = view.you === null;
  $("seeded").hidden = !view.seeded;
  drawSeats(view);
  drawActions(view);
  drawLog(view);
  ctx.moves = drawLastMoves($("last-list"), view);
  since.update(view, $("since"));
  if (seqChanged) $("announce").textContent = announcement(view);
  if (ctx.selected) showSelection(ctx.selected, ctx.selectedTitle);
  else drawBoard();
  drawResult(view);
  // the table's other panels (clocks, chat, turn signals) follow the views through this
  document.dispatchEvent(new CustomEvent("starlanes:view", { detail: { view, gameId, token } }));
}

// Offline or reconnecting: a banner says so in plain words, the actions are disabled and
// the status no longer says "your turn" until the table is live again.
function setOnline(state) {
  offline = state !== "live";
  const box = $("offline");
  box.hidden = !offline;
  document.body.classList.toggle("offline", offline);
  box.replaceChildren(icon("common", "offline", { size: 20 }), " ", connection.words(state));
  if (ctx.view) draw(ctx.view);
}

// ------------------------------------------------------------------ start
async function main() {
  let view;
  try {
    view = await api.view(gameId, token);
  } catch (e) {
    if (!(e.status === 401 && token && !taken.fromLink)) {
      $("title").textContent = e.message;
      return;
    }
    // a token kept here that this game no longer knows: forget it and watch
    localStorage.removeItem(storageKey);
    token = null;
    try {
      view = await api.view(gameId, null);
    } catch (e2) {
      $("title").textContent = e2.message;
      return;
    }
  }
  ctx.layout = await api.layout(gameId);
  try {
    module = await import(`./games/${view.game}.js`);
  } catch {
    module = await import("./games/generic.js");
  }
  applySeatColours(module.seatColours?.(view, ctx.layout));
  document.body.dataset.game = view.game;
  module.setup?.(ctx);
  layout.zoom.apply();
  if (new URLSearchParams(location.search).get("guide") && token) {
    const data = await loadGuide(view.game).catch(() => null);
    if (data) guide = new Guide(data, gameId, $("guide"));
  }
  $("replay-link").href = `/replay?game=${encodeURIComponent(gameId)}`;
  $("seeded").setAttribute("aria-label", `seeded. ${SEEDED}`);
  tip($("seeded"), SEEDED);
  $("seeded").addEventListener("focus", () => $("seeded").dispatchEvent(new Event("mouseenter")));
  $("seeded").addEventListener("blur", () => { $("tip").hidden = true; });
  draw(view);
  watch(gameId, token, draw, setOnline);
  connection.watchBrowser(setOnline, async () => {
    try {
      const fresh = await api.view(gameId, token);
      setOnline("live");
      draw(fresh);
    } catch {
      /* still unreachable: the websocket's reconnection will say when it is back */
    }
  });
  $("search").addEventListener("input", () => drawActions(ctx.view));
  $("search").addEventListener("keydown", async (e) => {
    // Tab goes to the first action found (not a group's heading); Escape back to the board
    if (e.key === "Tab" && !e.shiftKey && firstAction()) {
      e.preventDefault();
      firstAction().focus();
    } else if (e.key === "Escape") {
      keys.focus();
    }
    if (e.key !== "Enter") return;
    const text = $("search").value.trim();
    const shown = [...$("groups").querySelectorAll("button.action")];
    const played = shown.length === 1 ? await play(shown[0].dataset.notation) : text ? await play(text) : false;
    if (played) keys.focus(); // after the action, back to the board
  });
  $("clear-selection").addEventListener("click", () => select(null));
  $("undo").addEventListener("click", async () => {
    try { await api.undo(gameId, token, ctx.view.seq); } catch (e) { $("act-error").textContent = e.message; }
  });
  rematchOffers(gameId, () => token, () => ctx.view); // the game-over dialog's rematch
  $("close-gameover").addEventListener("click", () => $("gameover").close());
  $("link-button").addEventListener("click", async () => {
    // the full seat link, to open this seat in another browser (it holds the token)
    const link = `${location.origin}/games/${encodeURIComponent(gameId)}?token=${encodeURIComponent(token)}`;
    try {
      await navigator.clipboard.writeText(link);
      $("link-button").textContent = "link copied";
    } catch {
      $("act-error").textContent = `Your seat link (keep it secret: it plays as you): ${link}`;
    }
  });
  $("rules-button").addEventListener("click", async () => {
    const box = $("rules-text");
    if (!box.dataset.loaded) {
      try {
        const rules = await api.rules(ctx.view.game);
        const { toc, body } = await rulesContent(ctx.view.game, rules.text);
        $("rules-toc").replaceChildren(el("h3", {}, "Contents"), toc);
        box.replaceChildren(body);
      } catch (e) {
        box.textContent = e.message;
      }
      box.dataset.loaded = "1";
    }
    $("rules").showModal();
  });
  $("close-rules").addEventListener("click", () => $("rules").close());
  document.addEventListener("keydown", shortcut);
}

// Keyboard: "/" the action list's search, "e" ends the turn (or passes, or says done) when
// that is one of the legal actions, "u" undo, Escape clears the board selection.
const ENDINGS = ["end", "end-turn", "pass", "done"];
function shortcut(e) {
  if (e.ctrlKey || e.metaKey || e.altKey || ["INPUT", "TEXTAREA", "SELECT"].includes(e.target.tagName)) return;
  if (document.querySelector("dialog[open]")) return;
  if (e.key === "/") {
    e.preventDefault();
    $("search").focus();
  } else if (e.key === "Escape") {
    select(null);
    keys.focus(); // from the actions, or wherever the focus was: back to the board
  } else if (e.key === "u" && ctx.view?.can_undo) {
    $("undo").click();
  } else if (e.key === "e" && ctx.view?.your_turn) {
    const end = ctx.view.legal.find((a) => ENDINGS.includes(a.notation));
    if (end) play(end.notation);
  }
}

main();
