// The lobby: create a game (each seat human or one of the server's bots, by catalogue
// name; a content pack of the server for the chosen game), list games, join an open seat,
// watch. Seat tokens stay in localStorage: links on this page never carry them.
import { api } from "./api.js";
import { me, send } from "./session.js";
import { el, SEEDED } from "./dom.js";

const $ = (id) => document.getElementById(id);
let catalogue = { games: [], bots: [], content_packs: [] };
// What the server takes as a display name (it answers 422 with its reason otherwise):
// at most 40 characters once runs of spaces are one, no control or format characters.
const NAME_LIMIT = 40;
const CONTROL = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}]/u;

function seededBadge() {
  return el("span", { class: "badge seeded", title: SEEDED, tabindex: "0", "aria-label": `seeded. ${SEEDED}` }, "seeded");
}

// Decks saved by the deck builder (/decks) in this browser: what a seat may bring to a
// game whose lobby entry says its seats bring a deck ("setup": "deck").
const DECKS_KEY = "starlanes:decks:galactic-empires";
const picked = new Map(); // game id -> the deck chosen in its row

function deckPicker(attrs) {
  let saved = [];
  try {
    saved = JSON.parse(localStorage.getItem(DECKS_KEY) ?? "[]");
  } catch { /* no saved decks */ }
  const select = el("select", { "aria-label": "your deck", ...attrs }, el("option", { value: "" }, "a ready-made deck"));
  for (const d of Array.isArray(saved) ? saved : []) {
    if (d && d.legal && typeof d.code === "string") select.append(el("option", { value: d.code }, `${d.name} (${d.major})`));
  }
  return select;
}

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
  const bots = (catalogue.bots ?? []).filter((b) => !b.games?.length || b.games.includes(g.id));
  const fallback = bots.some((b) => b.name === "heuristic") ? "heuristic" : bots[0]?.name ?? "human";
  for (let i = 0; i < n; i += 1) {
    const select = el("select", { name: `seat${i}`, "data-seat": i });
    select.append(el("option", { value: "human" }, "human"));
    for (const b of bots) {
      const budget = b.seconds ? ` (${b.seconds} s a move)` : "";
      select.append(el("option", { value: b.name, title: b.help || undefined }, `bot: ${b.name}${budget}`));
    }
    select.value = i === 0 ? "human" : fallback;
    const help = el("small", { class: "muted seat-help" });
    const explain = () => { help.textContent = bots.find((b) => b.name === select.value)?.help ?? ""; };
    select.addEventListener("change", explain);
    explain();
    box.append(el("label", {}, `Seat ${i}${i === 0 ? " (you)" : ""} `, select, help));
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

// The server's content packs for the chosen game; the packaged content (the default)
// sends no "content" option at all.
function drawContent() {
  const packs = (catalogue.content_packs ?? []).filter((p) => p.game === $("game").value);
  const select = $("content");
  const before = select.value;
  select.replaceChildren(el("option", { value: "" }, "packaged content"),
    ...packs.map((p) => el("option", { value: p.name, title: p.help || undefined }, p.help ? `${p.name}: ${p.help}` : p.name)));
  select.value = packs.some((p) => p.name === before) ? before : "";
  $("content-box").hidden = packs.length === 0;
}

function drawPlayers() {
  const g = selectedGame();
  const players = $("players");
  players.replaceChildren();
  for (let n = g.min_players; n <= g.max_players; n += 1) players.append(el("option", { value: n }, n));
  players.value = String(Math.min(g.max_players, Math.max(g.min_players, 4)));
  $("game-summary").textContent = g.summary;
  drawContent();
  drawSeats();
  const decks = deckPicker({ id: "create-deck" });
  $("create-deck").replaceWith(decks);
  $("create-deck-box").hidden = decks.options.length < 2;
}

function chosenOptions() {
  const g = selectedGame();
  const out = {};
  for (const input of $("options").querySelectorAll("[data-option]")) {
    const spec = g.options.find((o) => o.name === input.dataset.option);
    const value = input.type === "checkbox" ? input.checked : input.value;
    if (value !== spec.default && String(value) !== String(spec.default)) out[spec.name] = value;
  }
  if ($("content").value) out.content = $("content").value;
  return out;
}

// The display name typed; an Error when there is none.
function displayName() {
  const name = $("name").value.trim();
  if (!name) throw new Error("type your name first (it is shown to the other players)");
  return name;
}

// Take a seat: as the logged-in account (the seat is then its own, named after it, and
// counts for its profile and ratings), or as a guest with the typed name.
async function takeSeat(id, seat, setup = "") {
  const { account } = await me();
  if (account) return send("POST", `/api/games/${encodeURIComponent(id)}/join`, { name: account.name, seat, setup });
  const name = displayName();
  checkName(name);
  return api.join(id, name, seat, setup);
}

// The clock settings of the create form: minutes per decision or per player for the
// whole game (with an increment), what running out does, and whether the game is rated.
function clockSettings() {
  const seconds = Number($("clock").value) * 60;
  const kind = $("clock-kind").value;
  const settings = { clock_seconds: seconds, clock_kind: seconds > 0 ? kind : "move", rated: $("rated").checked };
  if (seconds > 0 && kind === "game") settings.clock_increment = Number($("clock-increment").value) || 0;
  if (seconds > 0) settings.timeout = $("timeout").value;
  return settings;
}

// Before a game is created for its creator: an Error when the server would refuse the
// creator's name (the game would be left with its seat open).
function checkName(name) {
  const folded = name.split(/\s+/).join(" ");
  if ([...folded].length > NAME_LIMIT) throw new Error(`a display name has at most ${NAME_LIMIT} characters, this one ${[...folded].length}`);
  if (CONTROL.test(name.replace(/[\t\n\r]/g, " "))) throw new Error("a display name may not hold control characters");
}

// Keep the seat's token here and open the table by its plain address (the token never
// enters the address bar or the history); with no storage, by the seat link.
function openSeat(id, joined) {
  try {
    rememberSeat(id, joined.token, joined.seat);
    location.href = `/games/${encodeURIComponent(id)}`;
  } catch {
    location.href = joined.link;
  }
}

async function create(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  const seats = [...$("seats").querySelectorAll("select")].map((s) => s.value);
  let created = null;
  try {
    if (!seats.includes("human")) throw new Error("make at least one seat human (or watch bots from the list)");
    const { account } = await me();
    if (!account) checkName(displayName());
    const settings = {
      game: $("game").value,
      players: Number($("players").value),
      seats,
      options: chosenOptions(),
      ...clockSettings(),
    };
    // a logged-in player's game counts for the account's quota (its CSRF token says so)
    const game = await (account ? send("POST", "/api/games", settings) : api.create(settings));
    created = game.id;
    let setup = "";
    if ($("create-deck").value) {
      const entry = (await api.lobby()).games.find((x) => x.id === game.id);
      if (entry?.setup === "deck") setup = $("create-deck").value;
    }
    const joined = await takeSeat(game.id, seats.indexOf("human"), setup);
    openSeat(game.id, joined);
  } catch (e) {
    $("create-error").textContent = created
      ? `${e.message} (the game was created: join its open seat from the list)`
      : e.message;
    if (created) drawGames();
  }
}

async function join(id, seat, setup = "") {
  $("games-error").textContent = "";
  try {
    const joined = await takeSeat(id, seat, setup);
    openSeat(id, joined);
  } catch (e) {
    $("games-error").textContent = `Seat ${seat}: ${e.message}`;
    if (!$("name").value.trim()) $("name").focus();
  }
}

async function drawGames() {
  let games;
  try {
    ({ games } = await api.lobby());
  } catch (e) {
    $("games-error").textContent = e.message;
    return;
  }
  const body = $("games").querySelector("tbody");
  body.replaceChildren();
  $("no-games").hidden = games.length > 0;
  for (const g of games) {
    const seats = g.seats.map((s) => (s.bot ? s.bot : s.open ? "open" : s.name)).join(", ");
    const actions = el("td");
    const open = g.seats.find((s) => s.open);
    if (open && g.status !== "finished") {
      const picker = g.setup === "deck" ? deckPicker({ class: "deck-pick", "data-game": g.id, onchange: (e) => { picked.set(g.id, e.target.value); } }) : null;
      if (picker && picked.has(g.id)) picker.value = picked.get(g.id); // kept across refreshes
      actions.append(el("button", { class: "small", type: "button", onclick: () => join(g.id, open.seat, picker?.value ?? "") }, `join seat ${open.seat}`));
      if (picker) actions.append(" with ", picker, " ");
    }
    const id = encodeURIComponent(g.id);
    // The table finds this browser's token for the game in localStorage by itself.
    const mine = localStorage.getItem(`starlanes:${g.id}`);
    actions.append(el("a", { class: "button small", href: `/games/${id}` }, mine ? "your seat" : "watch"));
    actions.append(el("a", { class: "button small", href: `/replay?game=${id}` }, "replay"));
    const title = catalogue.games.find((c) => c.id === g.game)?.title ?? g.game;
    const name = el("td", {}, title);
    if (g.seeded) name.append(" ", seededBadge());
    body.append(el("tr", { "data-game": g.id }, name, el("td", {}, seats), el("td", {}, g.status), el("td", {}, g.moves), actions));
  }
}

async function main() {
  // The saved name goes in before anything is fetched, and never over one already typed:
  // a player who types while the page loads keeps what they typed.
  if (!$("name").value) $("name").value = localStorage.getItem("starlanes:name") ?? "";
  $("name").addEventListener("change", () => localStorage.setItem("starlanes:name", $("name").value));
  try {
    catalogue = await api.catalogue();
  } catch (e) {
    $("create-error").textContent = e.message;
    return;
  }
  if (catalogue.rated?.rule) $("rated-rule").textContent = catalogue.rated.rule;
  const select = $("game");
  for (const g of catalogue.games) select.append(el("option", { value: g.id }, g.title));
  select.value = catalogue.games.some((g) => g.id === "rift-domination") ? "rift-domination" : catalogue.games[0].id;
  select.addEventListener("change", drawPlayers);
  $("players").addEventListener("change", drawSeats);
  $("create-form").addEventListener("submit", create);
  $("refresh").addEventListener("click", drawGames);
  const clockShown = () => {
    $("clock-more").hidden = !(Number($("clock").value) > 0);
    $("increment-box").hidden = $("clock-kind").value !== "game";
  };
  $("clock").addEventListener("input", clockShown);
  $("clock-kind").addEventListener("change", clockShown);
  clockShown();
  // logged in: seats are taken as the account, so the name field is not needed
  const accountShown = (account) => { $("name-box").hidden = Boolean(account); };
  document.addEventListener("starlanes:account", (e) => accountShown(e.detail.account));
  me().then(({ account }) => accountShown(account));
  drawPlayers();
  await drawGames();
  setInterval(drawGames, 10000);
}

main();
