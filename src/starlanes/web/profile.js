// A player's profile (/players/NAME): ratings, recent results, games in progress and
// finished games with their replay; on one's own profile, change password and delete, the
// followed players (friends) with their presence, hiding one's own presence and the
// blocked players; on another player's, challenge, follow and block them (social.js).
import { call } from "./api.js";
import { el } from "./dom.js";
import { me, send } from "./session.js";
import { challengeForm, followSent, friendItems } from "./social.js";

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

// Another player's profile, for a logged-in visitor: follow or unfollow, block or
// unblock, and challenge them.
async function social(profile) {
  $("social-box").hidden = false;
  const result = $("social-result");
  const error = $("social-error");
  const state = { following: false, blocked: false };
  const draw = () => {
    $("follow-button").textContent = state.following ? "unfollow" : "follow";
    $("follow-button").setAttribute("aria-pressed", String(state.following));
    $("block-button").textContent = state.blocked ? "unblock" : "block";
    $("block-button").setAttribute("aria-pressed", String(state.blocked));
  };
  const [follows, blocks] = await Promise.all([call("GET", "/api/follows"), call("GET", "/api/blocks")]);
  state.following = follows.following.some((f) => f.name === profile.name);
  state.blocked = blocks.blocked.includes(profile.name);
  draw();
  const act = async (change, words) => {
    error.textContent = "";
    result.textContent = "";
    try {
      if ((await change()) === false) return; // the player thought better of it
      result.textContent = words();
      draw();
    } catch (e) {
      error.textContent = e.message;
    }
  };
  const who = encodeURIComponent(profile.name);
  $("follow-button").addEventListener("click", () => act(async () => {
    await (state.following ? send("DELETE", `/api/follows/${who}`) : send("POST", "/api/follows", { name: profile.name }));
    state.following = !state.following;
  }, () => (state.following ? `You follow ${profile.name}: the lobby shows when they are online.` : `You no longer follow ${profile.name}.`)));
  $("block-button").addEventListener("click", () => act(async () => {
    if (!state.blocked && !window.confirm(`Block ${profile.name}? You will not read their chat; they cannot challenge you, offer you a rematch or follow you, and play now never seats you together.`)) return false;
    await (state.blocked ? send("DELETE", `/api/blocks/${who}`) : send("POST", "/api/blocks", { name: profile.name }));
    state.blocked = !state.blocked;
    if (state.blocked) state.following = false;
    return true;
  }, () => (state.blocked ? `You blocked ${profile.name}.` : `You no longer block ${profile.name}.`)));
  $("challenge-box").replaceChildren(await challengeForm(profile.name, (c) => followSent(c, error)));
}

// One's own profile: the followed players, hiding one's presence, the blocked players.
async function friends() {
  $("own-friends").hidden = false;
  const error = $("friends-error");
  const drawBlocked = (names) => $("blocked-list").replaceChildren(...(names.length ? names.map((n) => el("li", {},
    el("a", { href: `/players/${encodeURIComponent(n)}` }, n), " ",
    el("button", { type: "button", class: "small", onclick: async () => {
      try {
        drawBlocked((await send("DELETE", `/api/blocks/${encodeURIComponent(n)}`)).blocked);
      } catch (e) {
        error.textContent = e.message;
      }
    } }, "unblock")))
    : [el("li", { class: "muted" }, "Nobody.")]));
  try {
    const [follows, blocks] = await Promise.all([call("GET", "/api/follows"), call("GET", "/api/blocks")]);
    $("friends-list").replaceChildren(...friendItems(follows.following));
    $("presence-hidden").checked = follows.hidden;
    drawBlocked(blocks.blocked);
  } catch (e) {
    error.textContent = e.message;
  }
  $("presence-hidden").addEventListener("change", async (event) => {
    try {
      await send("POST", "/api/presence", { hidden: event.target.checked });
    } catch (e) {
      error.textContent = e.message;
      event.target.checked = !event.target.checked;
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
  if (own) {
    settings();
    friends();
  } else if (account) {
    social(profile).catch((e) => { $("social-error").textContent = e.message; });
  }
}

show();
