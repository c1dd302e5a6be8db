// A player's profile (/players/NAME): ratings, recent results, games in progress and
// finished games with their replay; on one's own profile, change password and delete.
import { call } from "./api.js";
import { el } from "./dom.js";
import { me, send } from "./session.js";

const $ = (id) => document.getElementById(id);
const name = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() ?? "");

function when(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleString();
}

function ordinal(n) {
  const s = { 1: "st", 2: "nd", 3: "rd" }[n % 100 > 10 && n % 100 < 14 ? 0 : n % 10] ?? "th";
  return `${n}${s}`;
}

function table(headers, rows, id) {
  return el("table", { class: "profile-table", id },
    el("thead", {}, el("tr", {}, ...headers.map((h) => el("th", {}, h)))),
    el("tbody", {}, ...rows));
}

// titles: game id -> its title (from the catalogue); the id where the catalogue is unknown
function ratings(list, titles) {
  if (!list.length) return el("p", { class: "muted" }, "No rated games yet.");
  return table(["game", "rating", "games", ""], list.map((r) => el("tr", {},
    el("td", {}, el("a", { href: `/leaderboard?game=${encodeURIComponent(r.game)}` }, titles[r.game] ?? r.game)), el("td", {}, String(Math.round(r.rating))), el("td", {}, String(r.games)),
    el("td", { class: "muted" }, r.provisional ? "provisional" : ""))), "ratings-table");
}

async function openOwn(game, error) {
  try {
    const seat = await send("POST", `/api/games/${game.id}/my-seat`, { seat: game.seat });
    location.assign(seat.link);
  } catch (e) {
    error.textContent = e.message;
  }
}

function liveGames(list, own) {
  if (!list.length) return el("p", { class: "muted" }, "None right now.");
  const error = el("p", { class: "error", role: "alert" });
  const rows = list.map((g) => el("tr", {},
    el("td", {}, g.title), el("td", {}, g.status),
    el("td", {}, g.your_turn ? el("span", { class: "badge your-turn" }, "your turn") : ""),
    el("td", {}, own
      ? el("button", { type: "button", class: "small", onclick: () => openOwn(g, error) }, "open")
      : el("a", { href: g.url }, "watch"))));
  return el("div", {}, table(["game", "status", "", ""], rows, "live-table"), error);
}

// A finished game's result in words: "won (1st of 3)", "lost (2nd of 2)", "resigned
// (2nd of 2)", "lost on time", "drawn", "aborted" (no place: it counts for nobody).
function resultText(g) {
  const word = g.result ?? (g.place === 1 ? "won" : "lost");
  if (g.place === null || g.place === undefined) return word;
  return `${word} (${ordinal(g.place)} of ${g.of})`;
}

function finishedGames(list) {
  if (!list.length) return el("p", { class: "muted" }, "No finished games yet.");
  return table(["game", "players", "result", "ended", ""], list.map((g) => el("tr", {},
    el("td", {}, g.title), el("td", {}, g.players.join(", ")),
    el("td", { class: `place-${g.place ?? "none"}` }, resultText(g)),
    el("td", {}, when(g.ended)),
    el("td", {}, el("a", { href: g.replay }, "replay")))), "finished-table");
}

function settings() {
  $("settings-box").hidden = false;
  $("password-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const out = $("password-result");
    out.className = "";
    try {
      await send("POST", "/api/account/password", { old: $("old-password").value, new: $("new-password").value });
      out.textContent = "Password changed.";
      event.target.reset();
    } catch (e) {
      out.className = "error";
      out.textContent = e.message;
    }
  });
  $("delete-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!window.confirm("Delete your account for good?")) return;
    try {
      await send("POST", "/api/account/delete", { password: $("delete-password").value });
      location.assign("/");
    } catch (e) {
      $("delete-result").textContent = e.message;
    }
  });
}

async function show() {
  let profile;
  try {
    profile = await call("GET", `/api/players/${encodeURIComponent(name)}`);
  } catch (e) {
    $("player-name").textContent = name;
    $("profile-error").textContent = e.message;
    return;
  }
  const { account } = await me();
  const own = account !== null && account.name === profile.name;
  document.title = `starlanes: ${profile.name}`;
  $("player-name").textContent = profile.name;
  $("player-since").textContent = `playing since ${new Date(profile.created).toLocaleDateString()}`;
  const titles = await call("GET", "/api/catalogue")
    .then((c) => Object.fromEntries(c.games.map((g) => [g.id, g.title])), () => ({}));
  $("ratings").replaceChildren(ratings(profile.ratings, titles));
  const r = profile.recent;
  $("recent").replaceChildren(r.games
    ? `Won ${r.wins} of the last ${r.games} (places: ${r.places.map(ordinal).join(", ")})`
    : "No finished games yet.");
  $("live-games").replaceChildren(liveGames(profile.games_in_progress, own));
  $("finished-games").replaceChildren(finishedGames(profile.finished));
  if (own) settings();
}

show();
