// Live notifications on every page of a logged-in player: one event stream
// (GET /api/events, Server-Sent Events) tells of the turns that come and go, challenges
// and rematch offers. This adds to the page's header a bell button with the number of
// things waiting (also put before the page's title, "(2) ..."), opening a list of them:
// a game where it is your turn (opened with a fresh seat link of the account) or an
// offer to answer. Every event is also dispatched as the document event
// "starlanes:notify" (detail: the event) for the page's own panels.
// A stream the server closes (a restart, an idle stream) is opened again by the browser;
// one refused (too many pages open, 429) is tried again after a minute.
import { el } from "./dom.js";
import { me, send } from "./session.js";

const RETRY_MS = 60_000;
const OFFER_KINDS = new Set(["challenge", "rematch"]);
const CLOSED_OFFERS = new Set(["accepted", "declined", "withdrawn", "expired", "started", "failed"]);

const turns = new Map(); // game id -> { id, title, url }
const offers = new Map(); // "kind:id" -> { kind, id, from, title, url }
let tableGame = null; // the game the table page shows (its own view says whose turn it is)
let source = null;
let control = null;
let titleBase = null;

function stylesheet() {
  if (document.querySelector('link[href="/static/notify.css"]')) return;
  document.head.append(el("link", { rel: "stylesheet", href: "/static/notify.css" }));
}

function waiting() {
  return [...turns.values()].filter((t) => t.id !== tableGame).length + offers.size;
}

// The page's title with "(n) " before it while n things wait (the table page writes its own
// title on every view: the prefix is put back after each change).
function setTitle() {
  const bare = document.title.replace(/^\(\d+\) /, "");
  titleBase = bare;
  const n = waiting();
  const want = n ? `(${n}) ${bare}` : bare;
  if (document.title !== want) document.title = want;
}

async function openGame(game, note) {
  try {
    const seat = await send("POST", `/api/games/${game.id}/my-seat`, {});
    location.assign(seat.link);
  } catch (e) {
    note.textContent = e.message;
  }
}

function render() {
  if (!control) return;
  const n = waiting();
  const bell = control.querySelector("summary");
  bell.textContent = n ? `notifications (${n})` : "notifications";
  bell.setAttribute("aria-label", n ? `${n} notifications` : "no notifications");
  control.classList.toggle("has-news", n > 0);
  const note = control.querySelector(".live-error");
  const items = [];
  for (const game of turns.values()) {
    if (game.id === tableGame) continue;
    items.push(el("li", { class: "live-turn" },
      el("button", { type: "button", class: "link-button", onclick: () => openGame(game, note) },
        `Your turn: ${game.title}`)));
  }
  for (const offer of offers.values()) {
    const what = offer.kind === "rematch" ? "offers a rematch" : "challenges you";
    items.push(el("li", { class: `live-${offer.kind}` },
      el("a", { href: offer.url || "/" }, `${offer.from || "A player"} ${what}: ${offer.title || "a game"}`)));
  }
  control.querySelector("ul").replaceChildren(...(items.length ? items
    : [el("li", { class: "muted" }, "nothing waiting for you")]));
  setTitle();
}

function take(event) {
  if (event.kind === "hello") {
    turns.clear();
    for (const game of event.games || []) turns.set(game.id, game);
  } else if (event.kind === "turn") {
    if (event.your_turn && !event.over) turns.set(event.game, { id: event.game, title: event.title, url: event.url });
    else turns.delete(event.game);
  } else if (OFFER_KINDS.has(event.kind)) {
    offers.set(`${event.kind}:${event.id}`, event);
  } else if (event.kind.endsWith("_update")) {
    const key = `${event.kind.replace(/_update$/, "")}:${event.id}`;
    if (CLOSED_OFFERS.has(event.event) || CLOSED_OFFERS.has(event.status)) offers.delete(key);
  }
  render();
  document.dispatchEvent(new CustomEvent("starlanes:notify", { detail: event }));
}

function connect() {
  if (source) return;
  source = new EventSource("/api/events");
  source.onmessage = (message) => {
    try {
      take(JSON.parse(message.data));
    } catch {
      // an event this page cannot read: the next one may be fine
    }
  };
  source.onerror = () => {
    if (source && source.readyState === EventSource.CLOSED) {
      source = null; // refused (too many pages, logged out): try again later
      setTimeout(start, RETRY_MS);
    }
  };
}

function addControl() {
  if (control) return;
  stylesheet();
  control = el("details", { class: "live-notes", id: "live-notes" },
    el("summary", { "aria-live": "polite" }, "notifications"),
    el("div", { class: "live-drop" }, el("ul", { id: "live-list" }), el("p", { class: "error live-error", role: "alert" })));
  const place = document.querySelector("header.bar nav") || document.querySelector("header.bar");
  if (place) place.prepend(control);
  else document.body.prepend(control);
  const title = document.querySelector("title");
  if (title) {
    new MutationObserver(() => {
      if (document.title.replace(/^\(\d+\) /, "") !== titleBase || !/^\(\d+\) /.test(document.title) !== !waiting()) setTitle();
    }).observe(title, { childList: true, characterData: true, subtree: true });
  }
  render();
}

async function start() {
  const { account } = await me();
  if (!account) return;
  addControl();
  connect();
}

// the table tells which game it shows: its own view signals that game's turn
document.addEventListener("starlanes:view", (event) => {
  if (tableGame !== event.detail.gameId) {
    tableGame = event.detail.gameId;
    render();
  }
});
// logging in on this page (the lobby's account box) starts the stream
document.addEventListener("starlanes:account", (event) => {
  if (event.detail?.account) start();
  else if (source) {
    source.close();
    source = null;
    turns.clear();
    offers.clear();
    render();
  }
});

start();
