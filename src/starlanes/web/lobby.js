// The lobby: create a game (seats human or bot), list games, join an open seat, watch.
import { api } from "./api.js";
import { el } from "./dom.js";

const $ = (id) => document.getElementById(id);
const AGENTS = [
  ["human", "human"],
  ["heuristic", "bot: heuristic"],
  ["random", "bot: random"],
  ["mcts:seconds=2", "bot: search (2 s)"],
];
let catalogue = { games: [] };

export function rememberSeat(id, token, seat) {
  localStorage.setItem(`starlanes:${id}`, JSON.stringify({ token, seat }));
}

function selectedGame() {
  return catalogue.games.find((g) => g.id === $("game").value);
}

function drawSeats() {
  const g = selectedGame();
  const n = Number($("players").value);
  const box = $("seats");
  box.querySelectorAll("label").forEach((l) => l.remove());
  for (let i = 0; i < n; i += 1) {
    const select = el("select", { name: `seat${i}`, "data-seat": i });
    for (const [value, label] of AGENTS) select.append(el("option", { value }, label));
    select.value = i === 0 ? "human" : "heuristic";
    box.append(el("label", {}, `Seat ${i}${i === 0 ? " (you)" : ""} `, select));
  }
  const opts = $("options");
  opts.replaceChildren();
  for (const o of g.options) {
    let input;
    if (o.kind === "bool") {
      input = el("input", { type: "checkbox", "data-option": o.name });
      input.checked = Boolean(o.default);
    } else if (o.choices.length) {
      input = el("select", { "data-option": o.name });
      for (const c of o.choices) input.append(el("option", { value: c }, c));
      input.value = o.default;
    } else {
      input = el("input", { type: o.kind === "int" ? "number" : "text", "data-option": o.name });
      input.value = o.default;
    }
    opts.append(el("label", { title: o.help }, `${o.name} `, input, el("small", { class: "muted" }, ` ${o.help}`)));
  }
}

function drawPlayers() {
  const g = selectedGame();
  const players = $("players");
  players.replaceChildren();
  for (let n = g.min_players; n <= g.max_players; n += 1) players.append(el("option", { value: n }, n));
  players.value = String(Math.min(g.max_players, Math.max(g.min_players, 4)));
  $("game-summary").textContent = g.summary;
  drawSeats();
}

function chosenOptions() {
  const g = selectedGame();
  const out = {};
  for (const input of $("options").querySelectorAll("[data-option]")) {
    const spec = g.options.find((o) => o.name === input.dataset.option);
    const value = input.type === "checkbox" ? input.checked : input.value;
    if (value !== spec.default && String(value) !== String(spec.default)) out[spec.name] = value;
  }
  return out;
}

async function create(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  const seats = [...$("seats").querySelectorAll("select")].map((s) => s.value);
  const name = $("name").value.trim();
  try {
    if (!seats.includes("human")) throw new Error("make at least one seat human (or watch bots from the list)");
    const game = await api.create({
      game: $("game").value,
      players: Number($("players").value),
      seats,
      options: chosenOptions(),
      clock_seconds: Number($("clock").value) * 60,
    });
    const joined = await api.join(game.id, name, seats.indexOf("human"));
    rememberSeat(game.id, joined.token, joined.seat);
    location.href = joined.link;
  } catch (e) {
    $("create-error").textContent = e.message;
  }
}

async function join(id, seat) {
  const name = $("name").value.trim() || prompt("Your name?");
  if (!name) return;
  try {
    const joined = await api.join(id, name, seat);
    rememberSeat(id, joined.token, joined.seat);
    location.href = joined.link;
  } catch (e) {
    alert(e.message);
  }
}

async function drawGames() {
  const { games } = await api.lobby();
  const body = $("games").querySelector("tbody");
  body.replaceChildren();
  $("no-games").hidden = games.length > 0;
  for (const g of games) {
    const seats = g.seats.map((s) => (s.bot ? s.bot : s.open ? "open" : s.name)).join(", ");
    const actions = el("td");
    const open = g.seats.find((s) => s.open);
    if (open && g.status !== "finished") {
      actions.append(el("button", { class: "small", type: "button", onclick: () => join(g.id, open.seat) }, `join seat ${open.seat}`));
    }
    const mine = localStorage.getItem(`starlanes:${g.id}`);
    if (mine) {
      const { token } = JSON.parse(mine);
      actions.append(el("a", { class: "button small", href: `/games/${g.id}?token=${encodeURIComponent(token)}` }, "your seat"));
    }
    actions.append(el("a", { class: "button small", href: `/games/${g.id}` }, "watch"));
    actions.append(el("a", { class: "button small", href: `/replay?game=${g.id}` }, "replay"));
    const title = catalogue.games.find((c) => c.id === g.game)?.title ?? g.game;
    body.append(el("tr", {}, el("td", {}, title), el("td", {}, seats), el("td", {}, g.status), el("td", {}, g.moves), actions));
  }
}

async function main() {
  catalogue = await api.catalogue();
  const select = $("game");
  for (const g of catalogue.games) select.append(el("option", { value: g.id }, g.title));
  select.value = catalogue.games.some((g) => g.id === "rift-domination") ? "rift-domination" : catalogue.games[0].id;
  select.addEventListener("change", drawPlayers);
  $("players").addEventListener("change", drawSeats);
  $("create-form").addEventListener("submit", create);
  $("refresh").addEventListener("click", drawGames);
  $("name").value = localStorage.getItem("starlanes:name") ?? "";
  $("name").addEventListener("change", () => localStorage.setItem("starlanes:name", $("name").value));
  drawPlayers();
  await drawGames();
  setInterval(drawGames, 10000);
}

main();
