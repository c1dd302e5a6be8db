// The lobby's "Play now" panel (#play-now): a logged-in player joins the rated queue of a
// game, a player count and a clock mode, waits (elapsed time, cancel) and is sent to the
// seat once the server has made the game; invitations to open seats are answered here too.
// Guests see one line about logging in.
import { el } from "./dom.js";
import { call } from "./api.js";
import { me, send, get } from "./session.js";

const POLL_MS = 2000;
const IDLE_POLL_MS = 15000;
const box = document.getElementById("play-now");

let catalogue = null;
let modes = null;
let timer = null;
let ticker = null;
let watching = false; // this page saw the entry waiting: "seated" sends the player on

function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function schedule(ms) {
  clearTimeout(timer);
  timer = setTimeout(refresh, ms);
}

function title() {
  return el("h2", { id: "play-now-title" }, "Play now");
}

function errorLine() {
  return el("p", { class: "error", role: "alert", id: "play-now-error" });
}

function showError(err) {
  const line = document.getElementById("play-now-error");
  if (line) line.textContent = err.message || String(err);
}

async function load() {
  if (!catalogue) catalogue = await call("GET", "/api/catalogue");
  if (!modes) modes = await call("GET", "/api/play/modes");
}

// The seat of a seated entry: its link, or (after a server restart) a fresh one asked for.
async function goToSeat(entry) {
  let link = entry.link;
  if (!link) {
    const seat = await send("POST", `/api/games/${encodeURIComponent(entry.game_id)}/my-seat`, { seat: entry.seat });
    link = seat.link || `/games/${encodeURIComponent(entry.game_id)}?token=${encodeURIComponent(seat.token)}`;
  }
  window.location.assign(link);
}

function playersFor(gameId, select) {
  const game = catalogue.games.find((g) => g.id === gameId);
  select.replaceChildren();
  for (let n = game.min_players; n <= game.max_players; n++) {
    select.append(el("option", { value: String(n) }, `${n} players`));
  }
}

function form() {
  const game = el("select", { id: "play-game", name: "game" },
    ...catalogue.games.map((g) => el("option", { value: g.id }, g.title)));
  const players = el("select", { id: "play-players", name: "players" });
  playersFor(catalogue.games[0].id, players);
  game.addEventListener("change", () => playersFor(game.value, players));
  const help = el("p", { class: "muted", id: "play-mode-help" }, modes.modes[0].help);
  const mode = el("select", { id: "play-mode", name: "mode" },
    ...modes.modes.map((m) => el("option", { value: m.name },
      m.name === "realtime" ? "Real time" : m.name === "correspondence" ? "Correspondence" : m.name)));
  mode.addEventListener("change", () => {
    help.textContent = modes.modes.find((m) => m.name === mode.value).help;
  });
  const wait = Math.round(modes.queue_wait_seconds);
  const after = wait >= 120 ? `${Math.round(wait / 60)} minutes` : `${wait} seconds`;
  return el("form", {
    id: "play-form",
    onsubmit: async (ev) => {
      ev.preventDefault();
      try {
        await send("POST", "/api/play", { game: game.value, players: Number(players.value), mode: mode.value });
        watching = true;
        await refresh();
      } catch (err) {
        showError(err);
      }
    },
  },
  el("label", {}, "Game ", game),
  el("label", {}, "Players ", players),
  el("label", {}, "Clock ", mode),
  help,
  el("p", { class: "muted" }, `Rated. You are seated with players of a similar rating; after ${after} a bot of your strength takes any empty seat.`),
  el("button", { type: "submit", id: "play-start" }, "Play now"));
}

function waiting(entry) {
  const started = Date.now() - entry.waited_seconds * 1000;
  const elapsed = el("span", { id: "play-elapsed" }, clock(entry.waited_seconds));
  clearInterval(ticker);
  ticker = setInterval(() => {
    elapsed.textContent = clock((Date.now() - started) / 1000);
  }, 1000);
  const game = catalogue.games.find((g) => g.id === entry.game);
  return el("div", { id: "play-waiting", role: "status" },
    el("p", {}, `Looking for ${entry.players - 1} opponent${entry.players > 2 ? "s" : ""} in ${game ? game.title : entry.game} (${entry.mode === "realtime" ? "real time" : entry.mode}) … `, elapsed),
    el("button", {
      type: "button",
      id: "play-cancel",
      onclick: async () => {
        try {
          await send("DELETE", "/api/play");
        } catch (err) {
          showError(err);
        }
        watching = false;
        await refresh();
      },
    }, "Cancel"));
}

function seatedLine(entry) {
  return el("p", { id: "play-seated" }, "Your play-now game is on. ",
    el("button", { type: "button", class: "small", onclick: () => goToSeat(entry).catch(showError) }, "Open it"));
}

function invitationList(invitations) {
  if (!invitations.length) return el("div", { id: "play-invitations" });
  return el("div", { id: "play-invitations" },
    el("h3", {}, "Invitations"),
    el("ul", {}, ...invitations.map((inv) => {
      const game = catalogue.games.find((g) => g.id === inv.game);
      return el("li", { "data-invitation": String(inv.id) },
        `${inv.from} invites you to ${game ? game.title : inv.game} (seat ${inv.seat + 1}) `,
        el("button", {
          type: "button",
          class: "small accept",
          onclick: async () => {
            try {
              const seat = await send("POST", `/api/invitations/${inv.id}/accept`, {});
              window.location.assign(seat.link);
            } catch (err) {
              showError(err);
              await refresh();
            }
          },
        }, "Accept"),
        el("button", {
          type: "button",
          class: "small decline",
          onclick: async () => {
            try {
              await send("POST", `/api/invitations/${inv.id}/decline`, {});
            } catch (err) {
              showError(err);
            }
            await refresh();
          },
        }, "Decline"));
    })));
}

async function refresh() {
  clearTimeout(timer);
  const { account } = await me();
  if (!account) {
    clearInterval(ticker);
    box.replaceChildren(title(),
      el("p", { class: "muted", id: "play-guest" }, "Log in to play rated games against players of your strength."));
    box.hidden = false;
    return;
  }
  let entry;
  let invitations;
  try {
    await load();
    [entry, { invitations }] = await Promise.all([get("/api/play"), get("/api/invitations")]);
  } catch (err) {
    box.hidden = false;
    if (!box.firstChild) box.replaceChildren(title(), errorLine());
    showError(err);
    schedule(POLL_MS * 5);
    return;
  }
  if (entry.status === "seated" && watching) {
    watching = false;
    try {
      await goToSeat(entry);
      return;
    } catch (err) {
      box.replaceChildren(title(), errorLine());
      showError(err);
    }
  }
  const state = `${entry.status}:${entry.id}:${invitations.map((i) => i.id).join(",")}`;
  // keep what the player is filling in (or watching) when nothing changed
  const shown = document.getElementById(entry.status === "waiting" ? "play-waiting" : "play-form");
  if (!shown || box.dataset.state !== state) {
    const parts = [title()];
    if (entry.status === "waiting") {
      parts.push(waiting(entry));
    } else {
      clearInterval(ticker);
      if (entry.status === "seated" && !entry.over) parts.push(seatedLine(entry));
      parts.push(form());
    }
    parts.push(invitationList(invitations), errorLine());
    box.replaceChildren(...parts);
    box.dataset.state = state;
  }
  if (entry.status === "waiting") watching = true;
  box.hidden = false;
  schedule(entry.status === "waiting" ? POLL_MS : IDLE_POLL_MS);
}

if (box) {
  refresh();
  // the account panel says when someone logs in or out
  document.addEventListener("starlanes:account", () => {
    me(true);
    refresh();
  });
}
