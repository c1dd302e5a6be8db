// The replay viewer: a finished or running server game, or an uploaded game record, stepped
// through action by action (first, back, forward, last, slider, arrow keys), from the view
// of any seat or the spectators, drawn by the same game modules as the tables, with the log
// up to that step. The address names the position (?game=ID&step=N&seat=K) to share it.
// Only the views the server gives are offered: a seat's view of a game still being played
// is refused (it would show that seat's secrets to anyone), so the seats are offered once
// the game is over or for an uploaded record.
import { api } from "./api.js";
import { el, SEEDED } from "./dom.js";
import { applySeatColours, seatMark } from "./seats.js";
import { boardKeys } from "./boardkeys.js";
import { highlight, lastMoves } from "./memory.js";
import { panZoom } from "./panzoom.js";
import { boardPlay } from "./boardplay.js";
import { scoreNodes } from "./gameover.js";
import { showChat } from "./replaychat.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const source = { game: params.get("game"), record: null };
let step = params.has("step") ? Number(params.get("step")) : null;
let seat = params.get("seat") === null || params.get("seat") === "" ? null : Number(params.get("seat"));
let total = 0;
let module = null;
let loadedGame = null;


const keys = boardKeys($("board"));
// The board's view is the table's: zoom buttons above it (out of the board), pinch and drag,
// and on a phone the map at its playing scale on the last move (boardplay.js).
const phone = window.matchMedia("(max-width: 700px)");
const zoomButtons = ["+", "\u2212", "fit"].map((t, i) => el("button", { type: "button", class: "small", "aria-label": ["zoom in", "zoom out", "fit the board"][i] }, t));
const tools = el("div", { class: "board-tools" }, el("span", { class: "zoom", hidden: "hidden" }, ...zoomButtons));
$("board").before(tools);
let onBoard = null;
const zoom = panZoom($("board"), { zoomIn: zoomButtons[0], zoomOut: zoomButtons[1], reset: zoomButtons[2] }, { onChange: () => onBoard?.onZoom() });
onBoard = boardPlay({ box: $("board-box"), board: $("board"), tools: null, zoom, phone: () => phone.matches, play: () => {}, symbol: () => null });
const ctx = {
  view: null, layout: null, board: $("board"), legend: $("legend"), panels: $("game-panels"),
  selected: null, el, tip, orderPlan: [],
  select: (id) => { ctx.selected = id; drawBoard(); },
  play: () => {},
  facts: (nodes) => { $("facts").hidden = !nodes; if (nodes) $("facts").replaceChildren(...nodes); },
  redraw: () => drawBoard(),
  phone: () => phone.matches,
};

function drawBoard() {
  module?.draw(ctx.view, ctx);
  keys.enhance();
  highlight($("board"), lastMoves(ctx.view));
  zoom.apply();
  tools.querySelector(".zoom").hidden = !$("board").querySelector("svg.zoomable");
  onBoard.afterDraw(ctx.view, { playScale: ctx.playScale, fallback: ctx.home?.(ctx.view), follow: true });
}

function tip(target, text) {
  target.addEventListener("mouseenter", () => {
    const box = $("tip");
    box.textContent = text;
    box.hidden = false;
    const r = target.getBoundingClientRect();
    box.style.left = `${Math.min(window.innerWidth - 340, r.left)}px`;
    box.style.top = `${r.bottom + window.scrollY + 6}px`;
  });
  target.addEventListener("mouseleave", () => { $("tip").hidden = true; });
}

async function fetchView() {
  if (source.record) return api.replayRecord(source.record, step ?? source.record.actions.length, seat);
  return api.replay(source.game, step, seat);
}

async function show() {
  $("replay-error").textContent = "";
  let view;
  try {
    view = await fetchView();
  } catch (e) {
    $("replay-error").textContent = e.message;
    return;
  }
  if (loadedGame !== view.game || (source.record && view.layout)) {
    ctx.layout = view.layout ?? await api.layout(source.game);
    if (loadedGame !== view.game) {
      try { module = await import(`./games/${view.game}.js`); } catch { module = await import("./games/generic.js"); }
      applySeatColours(module.seatColours?.(view, ctx.layout));
      module.setup?.(ctx);
      loadedGame = view.game;
    }
  }
  step = view.step;
  total = view.total;
  ctx.view = view;
  document.body.dataset.step = String(view.step);
  // a running game's replay has no digest (it would tell its future apart)
  if (view.digest) document.body.dataset.digest = view.digest;
  else delete document.body.dataset.digest;
  $("seeded").hidden = !view.seeded;
  $("title").textContent = `Replay: ${view.title}`;
  $("status").textContent = view.result ? "game over" : view.waiting_label ? `next: ${view.waiting_label}` : "";
  $("slider").max = String(total);
  $("slider").value = String(step);
  $("step-label").textContent = `action ${step} of ${total}`;
  $("last-action").textContent = step === 0 ? "the set-up" : view.last ? `${step}: ${view.last}` : `${step} actions played`;
  applySeatColours(module.seatColours?.(view, ctx.layout));
  const seats = $("seat");
  const open = view.finished !== false; // a running game: the spectators' view only
  if (seats.options.length !== view.players + 1 || seats.dataset.open !== String(open)) {
    seats.replaceChildren(el("option", { value: "" }, "spectators"), ...view.seats.map((s) => el("option", { value: String(s.seat), disabled: open ? null : "disabled" },
      open ? s.label : `${s.label} (once the game is over)`)));
    seats.dataset.open = String(open);
  }
  seats.value = seat === null ? "" : String(seat);
  $("seat-note").hidden = open;
  $("seats").replaceChildren(...view.seats.map((s) => el("div", { class: `seat seat-${s.seat}${view.waiting_for === s.seat ? " waiting" : ""}` },
    seatMark(s.seat, 16), el("span", {}, s.label), el("span", { class: "score" }, `${view.scores[s.seat]}`))));
  drawScores(view);
  const log = $("log");
  log.replaceChildren(...view.log.map((line) => el("li", {}, line)));
  log.scrollTop = log.scrollHeight;
  showChat(view);
  drawBoard();
  if (source.game) {
    const query = new URLSearchParams({ game: source.game, step: String(step), ...(seat === null ? {} : { seat: String(seat) }) });
    history.replaceState(null, "", `/replay?${query}`);
    $("share").href = `/replay?${query}`;
  }
}

// At the last step of a finished game: the final scores, by source where the game gives
// them, as the game-over dialog shows them (a card per seat on a phone).
function drawScores(view) {
  let box = $("replay-scores");
  if (!view.result) {
    if (box) box.hidden = true;
    return;
  }
  if (!box) {
    box = el("section", { class: "card replay-scores", id: "replay-scores", "aria-label": "final scores" });
    $("seats-box").after(box);
  }
  box.replaceChildren(el("h2", {}, "Final scores"), ...scoreNodes(view));
  box.hidden = false;
}

function go(to) {
  const target = Math.max(0, Math.min(total, to));
  if (target === step && ctx.view) return;
  step = target;
  show();
}

$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(step - 1));
$("next").addEventListener("click", () => go(step + 1));
$("last").addEventListener("click", () => go(total));
$("slider").addEventListener("change", () => go(Number($("slider").value)));
$("seat").addEventListener("change", () => { seat = $("seat").value === "" ? null : Number($("seat").value); show(); });
$("load-game").addEventListener("click", () => {
  source.game = $("game-id").value.trim();
  source.record = null;
  step = null;
  show();
});
$("record-file").addEventListener("change", async () => {
  const file = $("record-file").files[0];
  if (!file) return;
  try {
    source.record = JSON.parse(await file.text());
  } catch (e) {
    $("replay-error").textContent = `${file.name} is not a game record: ${e.message}`;
    return;
  }
  source.game = null;
  step = 0;
  show();
});
document.addEventListener("keydown", (e) => {
  if (["INPUT", "SELECT"].includes(e.target.tagName) && e.target.type !== "range") return;
  if (e.key === "ArrowRight") go(step + 1);
  else if (e.key === "ArrowLeft") go(step - 1);
  else if (e.key === "Home") go(0);
  else if (e.key === "End") go(total);
});

$("seeded").setAttribute("aria-label", `seeded. ${SEEDED}`);
tip($("seeded"), SEEDED);

if (source.game) {
  $("game-id").value = source.game;
  show();
}
