// The Galactic Empires deck builder: the card pool in the table's card frames with filters
// (empire, type, cost, text), the deck with its copies, cost curve and point types,
// checked by the server against the construction rules after every change (the game's
// own check: the rule and the card of each problem), its deck code to copy, a code to
// import, and decks saved in this browser (localStorage) for the lobby's deck picker.
import { el, svg } from "./dom.js";

const GAME = "galactic-empires";
const SAVED_KEY = `starlanes:decks:${GAME}`;
const $ = (id) => document.getElementById(id);

let data = null; // the builder data: cards, empires, ready-made decks, rules, limits
let deck = { name: "My deck", major: "argonian", cards: {} };
let checked = null; // the server's last check of the deck
let timer = null;
let asked = 0;

async function call(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: { Accept: "application/json", ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const result = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(result.error || `${response.status} ${response.statusText}`);
  return result;
}

function savedDecks() {
  try {
    const list = JSON.parse(localStorage.getItem(SAVED_KEY) ?? "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

// A card's cost: the points it requires to be Engaged, all types summed (GE-PTS).
function costOf(card) {
  return Object.values(card.requires || {}).reduce((a, b) => a + b, 0);
}

function majorEmpires() {
  return Object.keys(data.empires).filter((e) => data.empires[e].major);
}

// Whether the deck may hold this card by its empire (ruling GE-OPEN-01): no ship, base or
// dragon of a major empire other than the deck's.
function allowed(card) {
  return !("SBD".includes(card.type) && majorEmpires().includes(card.empire) && card.empire !== deck.major);
}

function frame(id, card) {
  const weapons = [...(card.weapons || "")].join("");
  const pts = (p, label) => (Object.keys(p || {}).length ? `${label} ${Object.entries(p).map(([k, v]) => `${v} ${k}`).join(", ")}` : "");
  const stats = [card.strength ? `strength ${card.strength}` : "", card.shields ? `shields ${card.shields}` : "", weapons ? `weapons ${weapons}` : ""].filter(Boolean).join(" \u00b7 ");
  const copies = deck.cards[id] ?? 0;
  return el("div", {
    class: `ge-card type-${card.type}${copies ? " in-deck" : ""}${allowed(card) ? "" : " barred"}`,
    "data-card": id, role: "button", tabindex: "0", title: `${card.name}: click to add a copy`,
    onclick: () => add(id, 1),
    onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); add(id, 1); } },
  },
  copies ? el("span", { class: "copies", "aria-label": `${copies} in the deck` }, `\u00d7${copies}`) : "",
  el("div", { class: "ge-head" }, el("strong", {}, card.name), el("span", { class: "muted" }, ` ${card.type_name}${card.empire !== "generic" ? ` \u00b7 ${card.empire}` : ""}`)),
  stats ? el("div", { class: "ge-stats" }, stats) : "",
  el("div", { class: "ge-text" }, [pts(card.requires, "needs"), pts(card.generates, "gives")].filter(Boolean).join("; ")),
  el("div", { class: "ge-text" }, card.text || ""));
}

function drawPool() {
  const empire = $("f-empire").value;
  const type = $("f-type").value;
  const cost = $("f-cost").value;
  const text = $("f-text").value.trim().toLowerCase();
  const onlyAllowed = $("f-allowed").checked;
  const ids = Object.keys(data.cards).filter((id) => {
    const c = data.cards[id];
    return (!empire || c.empire === empire) && (!type || c.type === type)
      && (!cost || String(costOf(c)) === cost) && (!onlyAllowed || allowed(c))
      && (!text || `${id} ${c.name} ${c.text}`.toLowerCase().includes(text));
  }).sort((a, b) => {
    const x = data.cards[a], y = data.cards[b];
    return x.type.localeCompare(y.type) || x.empire.localeCompare(y.empire) || costOf(x) - costOf(y) || x.name.localeCompare(y.name);
  });
  $("pool").replaceChildren(...ids.map((id) => frame(id, data.cards[id])));
  $("pool-count").textContent = `${ids.length} of ${Object.keys(data.cards).length} cards`;
}

function drawDeck() {
  const body = $("deck-list").querySelector("tbody");
  const ids = Object.keys(deck.cards).sort((a, b) => {
    const x = data.cards[a] ?? {}, y = data.cards[b] ?? {};
    return (x.type ?? "").localeCompare(y.type ?? "") || (x.name ?? a).localeCompare(y.name ?? b);
  });
  body.replaceChildren(...ids.map((id) => {
    const c = data.cards[id] ?? { name: id, type_name: "?", requires: {} };
    return el("tr", { "data-card": id },
      el("td", { class: "ge-num" }, deck.cards[id]),
      el("td", {}, c.name),
      el("td", { class: "muted" }, c.type_name),
      el("td", {}, c.type === "T" ? "" : costOf(c)),
      el("td", {},
        el("button", { type: "button", class: "small", "aria-label": `one copy less of ${c.name}`, onclick: () => add(id, -1) }, "\u2212"),
        " ",
        el("button", { type: "button", class: "small", "aria-label": `one copy more of ${c.name}`, onclick: () => add(id, 1) }, "+")));
  }));
  $("deck-name").value = deck.name;
  $("deck-major").value = deck.major;
}

function drawCheck() {
  const box = $("validation");
  const size = Object.values(deck.cards).reduce((a, b) => a + b, 0);
  if (!checked) {
    box.className = "validation";
    box.replaceChildren(`${size} cards: checking\u2026`);
    return;
  }
  if (checked.legal) {
    box.className = "validation ok";
    box.replaceChildren(el("strong", {}, `Legal: ${size} cards`), ", a Standard deck by every construction rule.");
  } else {
    box.className = "validation bad";
    box.replaceChildren(el("strong", {}, `${size} cards: not yet legal`),
      el("ul", {}, ...checked.problems.map((p) => el("li", { "data-rule": p.rule }, el("span", { class: "rule" }, p.rule), `: ${p.message}`))));
  }
  drawCurve(checked.summary.curve);
  const points = $("points").querySelector("tbody");
  const kinds = [...new Set([...Object.keys(checked.summary.requires), ...Object.keys(checked.summary.generates)])];
  points.replaceChildren(...kinds.map((k) => el("tr", {}, el("td", {}, k), el("td", {}, checked.summary.requires[k] ?? 0), el("td", {}, checked.summary.generates[k] ?? 0))));
  $("code").value = checked.code ?? "";
}

function drawCurve(curve) {
  const keys = Object.keys(curve).map(Number);
  const top = Math.max(1, ...Object.values(curve));
  const span = Math.max(6, ...keys);
  const w = 18, h = 80;
  const bars = [];
  for (let s = 0; s <= span; s += 1) {
    const n = curve[s] ?? 0;
    const bh = Math.round((n / top) * h);
    const x = s * (w + 4);
    bars.push(svg("rect", { x, y: h - bh + 12, width: w, height: bh }),
      svg("text", { x: x + w / 2, y: 10, "text-anchor": "middle", class: "n" }, n || ""),
      svg("text", { x: x + w / 2, y: h + 24, "text-anchor": "middle" }, s));
  }
  $("curve").replaceChildren(svg("svg", { class: "curve", viewBox: `0 0 ${(span + 1) * (w + 4)} ${h + 28}`, width: "100%", role: "img", "aria-label": "cards by cost" }, ...bars));
}

function changed() {
  checked = null;
  drawPool();
  drawDeck();
  drawCheck();
  clearTimeout(timer);
  timer = setTimeout(check, 150);
}

async function check() {
  const ask = ++asked;
  try {
    const result = await call("POST", `/api/setups/${GAME}/check`, { deck });
    if (ask !== asked) return; // a newer change is being checked
    checked = result;
    $("deck-error").textContent = "";
    drawCheck();
  } catch (e) {
    $("deck-error").textContent = e.message;
  }
}

function add(id, n) {
  const k = (deck.cards[id] ?? 0) + n;
  const cards = { ...deck.cards };
  if (k > 0) cards[id] = Math.min(k, 255); else delete cards[id];
  deck = { ...deck, cards };
  changed();
}

function setDeck(list) {
  deck = { name: list.name, major: list.major, cards: { ...list.cards } };
  changed();
}

// A refused input is named beside the field it was typed in: the note under the field says
// what was refused and why, and the field is marked invalid until a good value is read.
function refuse(field, note, message) {
  $(note).textContent = message;
  if (message) $(field).setAttribute("aria-invalid", "true");
  else $(field).removeAttribute("aria-invalid");
}

async function importCode(code, field = "import-code", note = "import-error") {
  const typed = code.trim();
  if (!typed) {
    refuse(field, note, "Paste a deck code first (it starts with GE1-).");
    return;
  }
  refuse(field, note, "");
  try {
    const read = await call("POST", `/api/setups/${GAME}/read`, { code: typed });
    setDeck(read.deck);
  } catch (e) {
    const shown = typed.length > 40 ? `${typed.slice(0, 40)}...` : typed;
    refuse(field, note, `The deck code "${shown}" was refused: ${e.message}`);
  }
}

function save() {
  if (!checked || !checked.code) {
    $("deck-error").textContent = "wait for the check to finish, then save";
    return;
  }
  const list = savedDecks().filter((d) => d.name !== deck.name);
  list.unshift({ name: deck.name, major: deck.major, code: checked.code, legal: checked.legal, size: checked.summary.size });
  try {
    localStorage.setItem(SAVED_KEY, JSON.stringify(list.slice(0, 50)));
  } catch {
    $("deck-error").textContent = "this browser does not keep data for this page";
  }
  drawSaved();
}

function drawSaved() {
  const list = savedDecks();
  $("saved").replaceChildren(...(list.length ? list.map((d) => el("li", { "data-deck": d.name },
    el("span", { class: d.legal ? "ok" : "bad" }, d.legal ? "\u2714" : "\u2716"),
    `${d.name} (${d.major}, ${d.size} cards)`,
    el("button", { type: "button", class: "small", onclick: () => importCode(d.code) }, "open"),
    el("button", { type: "button", class: "small", onclick: () => {
      localStorage.setItem(SAVED_KEY, JSON.stringify(savedDecks().filter((x) => x.name !== d.name)));
      drawSaved();
    } }, "delete"))) : [el("li", { class: "muted" }, "none yet")]));
}

async function copy() {
  const code = $("code").value;
  if (!code) return;
  $("code").select();
  try {
    await navigator.clipboard.writeText(code);
    $("deck-error").textContent = "";
    $("copy").textContent = "Copied";
  } catch {
    $("copy").textContent = "Selected: press Ctrl+C";
  }
  setTimeout(() => { $("copy").textContent = "Copy deck code"; }, 2000);
}

async function main() {
  try {
    data = await call("GET", `/api/setups/${GAME}`);
  } catch (e) {
    $("deck-error").textContent = e.message;
    return;
  }
  const empires = Object.entries(data.empires);
  for (const [id, e] of empires) {
    $("f-empire").append(el("option", { value: id }, e.name));
    $("deck-major").append(el("option", { value: id, title: e.text }, `${e.name}${e.major ? "" : " (minor)"}`));
  }
  $("f-empire").append(el("option", { value: "generic" }, "generic"));
  const types = [...new Map(Object.values(data.cards).map((c) => [c.type, c.type_name])).entries()].sort();
  for (const [t, name] of types) $("f-type").append(el("option", { value: t }, `${name} (${t})`));
  const costs = [...new Set(Object.values(data.cards).map(costOf))].sort((a, b) => a - b);
  for (const s of costs) $("f-cost").append(el("option", { value: s }, s));
  for (const d of data.decks) $("deck-start").append(el("option", { value: d.code }, d.name));
  for (const id of ["f-empire", "f-type", "f-cost", "f-allowed"]) $(id).addEventListener("change", drawPool);
  $("f-text").addEventListener("input", drawPool);
  $("filters").addEventListener("submit", (e) => e.preventDefault());
  $("deck-name").addEventListener("input", () => { deck = { ...deck, name: $("deck-name").value }; clearTimeout(timer); timer = setTimeout(check, 250); });
  $("deck-major").addEventListener("change", () => { deck = { ...deck, major: $("deck-major").value }; changed(); });
  $("deck-start").addEventListener("change", () => { if ($("deck-start").value) importCode($("deck-start").value, "deck-start", "deck-error"); });
  $("save").addEventListener("click", save);
  $("copy").addEventListener("click", copy);
  $("import").addEventListener("click", () => importCode($("import-code").value));
  drawSaved();
  changed();
}

main();
