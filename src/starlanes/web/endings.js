// A seat's way out of the game, in the decision panel (#endings): resign (with a confirm
// step), abort (only while the server allows it: before the seat's first decision, also
// with a confirm step), and draw offers in two-player games (offer; the other player
// accepts or declines; a move withdraws an offer). The server's view says what this seat
// may do now: can_resign, can_abort, can_offer_draw and draw_offer ({seat, label} of the
// seat that offered, or null). Every control is a button: Tab and Enter or Space work it,
// Escape leaves a confirm step.
import { el } from "./dom.js";
import { call } from "./api.js";

const box = document.getElementById("endings");
let last = null; // the last view event's detail: { view, gameId, token }
let confirming = null; // "resign" | "abort" while its confirm step shows
let shown = ""; // what the panel was last drawn for (redrawn only when that changes)
let error = "";

const CONFIRM = {
  resign: {
    question: "Resign this game? You are placed last and the game ends for everyone.",
    yes: "yes, resign",
  },
  abort: {
    question: "Abort this game? It ends now and counts for nobody: no winner, no loser, no rating.",
    yes: "yes, abort the game",
  },
};

async function send(path, body) {
  const { gameId, token } = last;
  error = "";
  try {
    await call("POST", `/api/games/${encodeURIComponent(gameId)}/${path}`, body, token);
  } catch (e) {
    error = e.message;
  }
  confirming = null;
  draw(true);
}

function ask(what) {
  confirming = what;
  error = "";
  draw(true);
  document.getElementById("endings-no")?.focus();
}

function cancel() {
  const back = confirming;
  confirming = null;
  draw(true);
  document.getElementById(`${back}-button`)?.focus();
}

function confirmStep(what) {
  const c = CONFIRM[what];
  return el("div", { class: "endings-confirm", role: "group", "aria-labelledby": "endings-question",
    // (Escape here steps back only: the table's own Escape would leave the panel)
    onkeydown: (e) => { if (e.key === "Escape") { e.preventDefault(); e.stopPropagation(); cancel(); } } },
  el("p", { id: "endings-question" }, c.question),
  el("button", { type: "button", class: "small danger", id: "endings-yes", onclick: () => send(what) }, c.yes),
  el("button", { type: "button", class: "small", id: "endings-no", onclick: cancel }, "no, keep playing"));
}

function offerLine(view) {
  const offer = view.draw_offer;
  if (!offer) return null;
  if (offer.seat === view.you) {
    return el("p", { class: "draw-offer", id: "draw-offer" },
      "You offered a draw. It stands until the other player answers or a move is made.");
  }
  if (view.you === null || view.you === undefined) {
    return el("p", { class: "draw-offer muted", id: "draw-offer" }, `${offer.label} offers a draw.`);
  }
  return el("div", { class: "draw-offer", id: "draw-offer" },
    el("p", {}, `${offer.label} offers you a draw.`),
    el("button", { type: "button", class: "small", id: "accept-draw", onclick: () => send("draw", { answer: "accept" }) }, "accept the draw"),
    el("button", { type: "button", class: "small", id: "decline-draw", onclick: () => send("draw", { answer: "decline" }) }, "decline"));
}

function draw(force = false) {
  if (!box || !last) return;
  const { view } = last;
  const seated = view.you !== null && view.you !== undefined;
  const key = JSON.stringify([view.id, view.can_resign, view.can_abort, view.can_offer_draw,
    view.draw_offer?.seat ?? null, view.result ? 1 : 0, confirming, error]);
  if (!force && key === shown) return;
  shown = key;
  if (view.result || (!seated && !view.draw_offer)) {
    box.hidden = true;
    box.replaceChildren();
    confirming = null;
    return;
  }
  if (confirming === "abort" && !view.can_abort) confirming = null;
  const buttons = [];
  if (view.can_resign) buttons.push(el("button", { type: "button", class: "small", id: "resign-button", onclick: () => ask("resign") }, "resign"));
  if (view.can_abort) buttons.push(el("button", { type: "button", class: "small", id: "abort-button", onclick: () => ask("abort") }, "abort the game"));
  if (view.can_offer_draw) buttons.push(el("button", { type: "button", class: "small", id: "offer-draw", onclick: () => send("draw", { answer: "offer" }) }, "offer a draw"));
  box.hidden = false;
  box.replaceChildren(
    el("div", { "aria-live": "polite" }, offerLine(view)),
    confirming ? confirmStep(confirming) : el("div", { class: "endings-buttons" }, ...buttons),
    el("p", { class: "error", role: "alert", id: "endings-error" }, error));
}

document.addEventListener("starlanes:view", (event) => {
  const before = last?.view;
  last = event.detail;
  // a move or an answer since: an error about the position before it no longer applies
  if (before && (before.seq !== last.view.seq || before.draw_offer?.seat !== last.view.draw_offer?.seat)) error = "";
  draw();
});
