// Ratings on the lobby and the leaderboard page.
//
// Lobby (#ladder-box): per game, the catalogue bots with their ladder ratings and the best
// players, with a link to the full leaderboard. Leaderboard page (#leaderboard, on
// /leaderboard?game=ID): one game's players and bots on one scale, bots marked.
// Data: GET /api/catalogue (games), GET /api/ratings/{game}, GET /api/ratings/{game}/bots.
import { call } from "./api.js";
import { el } from "./dom.js";

const TOP_PLAYERS = 3;

function ratingText(entry) {
  // a provisional rating (fewer rated games than the server's threshold) gets a "?"
  return entry.provisional ? `${entry.rating}?` : String(entry.rating);
}

function who(entry) {
  return entry.bot ? el("span", {}, entry.name, " ", el("span", { class: "badge status", title: "a bot of this server, rated by the bot ladder" }, "bot"))
    : el("a", { href: `/players/${encodeURIComponent(entry.name)}` }, entry.name);
}

async function lobbyPanel(box) {
  const catalogue = await call("GET", "/api/catalogue");
  const games = catalogue.games || [];
  if (!games.length) return;
  box.replaceChildren(
    el("h2", { id: "ladder-title" }, "Ratings"),
    el("p", { class: "muted" }, "The bots' ratings and the best players, per game. A rating with ? counts few games yet."),
  );
  for (const game of games) {
    const section = el("div", { class: "ladder-game", "data-game": game.id },
      el("h3", {}, game.title, " ", el("a", { class: "small", href: `/leaderboard?game=${encodeURIComponent(game.id)}` }, "leaderboard")));
    box.append(section);
    try {
      const [bots, board] = await Promise.all([
        call("GET", `/api/ratings/${encodeURIComponent(game.id)}/bots`),
        call("GET", `/api/ratings/${encodeURIComponent(game.id)}?limit=50`),
      ]);
      const botLine = el("p", { class: "ladder-bots" }, "Bots: ");
      bots.bots.forEach((bot, i) => {
        if (i) botLine.append(" · ");
        botLine.append(el("span", { title: bot.help }, `${bot.name} ${bot.rating}`));
      });
      section.append(botLine);
      const players = board.leaderboard.filter((e) => !e.bot).slice(0, TOP_PLAYERS);
      if (players.length) {
        const list = el("ol", { class: "ladder-players" });
        for (const p of players) list.append(el("li", {}, who(p), ` ${ratingText(p)}`));
        section.append(el("p", {}, "Best players:"), list);
      } else {
        section.append(el("p", { class: "muted" }, "No rated players yet."));
      }
    } catch (e) {
      section.append(el("p", { class: "error", role: "alert" }, e.message));
    }
  }
  box.hidden = false;
}

async function leaderboardPage(root) {
  const catalogue = await call("GET", "/api/catalogue");
  const games = catalogue.games || [];
  const select = document.getElementById("game");
  const error = document.getElementById("board-error");
  const wanted = new URLSearchParams(location.search).get("game");
  for (const g of games) select.append(el("option", { value: g.id }, g.title));
  if (wanted && games.some((g) => g.id === wanted)) select.value = wanted;

  async function show() {
    error.textContent = "";
    const game = select.value;
    history.replaceState(null, "", `/leaderboard?game=${encodeURIComponent(game)}`);
    try {
      const board = await call("GET", `/api/ratings/${encodeURIComponent(game)}?limit=200`);
      const body = el("tbody");
      for (const e of board.leaderboard) {
        body.append(el("tr", { class: e.bot ? "ladder-bot" : "" },
          el("td", {}, String(e.rank)), el("td", {}, who(e)), el("td", {}, ratingText(e)),
          el("td", {}, String(e.games))));
      }
      if (!board.leaderboard.length) {
        root.replaceChildren(el("p", { class: "muted" }, "Nobody is rated in this game yet."));
        return;
      }
      root.replaceChildren(el("table", { id: "board" },
        el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, "player"),
          el("th", {}, "rating"), el("th", {}, "games"))), body),
        el("p", { class: "muted" }, `A rating with ? counts fewer than ${board.provisional_games} rated games. Bots' games are their ladder games.`));
    } catch (e) {
      error.textContent = e.message;
    }
  }
  select.addEventListener("change", show);
  await show();
}

const box = document.getElementById("ladder-box");
if (box) lobbyPanel(box).catch(() => { /* the lobby works without the panel */ });
const board = document.getElementById("leaderboard");
if (board) leaderboardPage(board).catch((e) => { document.getElementById("board-error").textContent = e.message; });
