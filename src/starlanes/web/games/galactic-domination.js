// The Galactic Domination table: the five zones by three sectors as SVG with each sector's
// capacity, both fleets (hull, shields, action points), miners on planets, black holes,
// the deep space box with its explorers, and the minerals and dark matter of each seat.
// Clicking a ship lists its actions and highlights the sectors and ships they aim at.
// Seats are drawn in the colour the game calls them by (its start zone's: red, purple) and
// with their shape (circle, square); ships carry the symbol of their type.
// On a phone the board is drawn at its screen size (PHONE_W units across, about a pixel a
// unit): a zone's three sectors side by side, each ship on a row of its own at least 44 px
// tall, every text at least 11 px; its rows grow with the ships in them.
import { svg } from "../dom.js";
import { seatColourName, seatMark, seatShape } from "../seats.js";
import { explainWithSymbols, icon, place } from "../symbols.js";

const CW = 200;
const CH = 150;
const TOP = 30;
const SHEET = "galactic-domination";
const PHONE_W = 380;
const PHONE_HEAD = 46; // a sector's strip above its ships: where a tap picks the sector
const PHONE_SHIP = 50;
const ZONE_FILLS = { red: "#3a1f22", orange: "#3a2c1a", green: "#1d3322", blue: "#1b2a3d", purple: "#2d2140" };

// Where each sector sits: zones side by side (landscape), or one under the other on a
// narrow screen (portrait), so that a phone shows the board large enough to tap.
function sectorPos(layout, portrait) {
  const pos = {};
  layout.zones.forEach((z, zi) => z.sectors.forEach((s, ri) => {
    pos[s] = portrait ? { x: ri * CW, y: TOP + zi * (CH + TOP) } : { x: zi * CW, y: TOP + ri * CH };
  }));
  return pos;
}

function zoneLabelAt(zi, portrait) {
  return portrait ? { x: 8, y: zi * (CH + TOP) + 20 } : { x: zi * CW + 8, y: 20 };
}

// The phone's board: each zone's label, then its sectors side by side, as tall as the most
// ships one of them holds. Returns { pos: {sector: {x, y, w, h}}, labels: [{x, y}], height }.
function phonePlan(layout, obs) {
  const pos = {};
  const labels = [];
  let y = 0;
  for (const z of layout.zones) {
    labels.push({ x: 6, y: y + 19 });
    y += TOP - 4;
    const w = PHONE_W / z.sectors.length;
    const most = Math.max(1, ...z.sectors.map((s) => obs.ships.filter((x) => x.at === s).length));
    const h = PHONE_HEAD + most * PHONE_SHIP + 8;
    z.sectors.forEach((s, i) => { pos[s] = { x: i * w, y, w, h }; });
    y += h + 4;
  }
  return { pos, labels, height: y };
}

// The sectors and ships named by the legal actions of the selected ship.
function targetsOf(view, ship) {
  const sectors = new Set();
  const ships = new Set();
  for (const a of view.legal) {
    const w = a.notation.split(" ");
    if (w[1] !== String(ship)) continue;
    for (const x of w.slice(2)) {
      if (/^[A-Z]\d$/.test(x)) sectors.add(x);
      else if (/^\d+$/.test(x)) ships.add(Number(x));
    }
  }
  return { sectors, ships };
}

// A ship at (x, y): its owner's shape with its type's symbol, number, hull, shields and
// action points; on a phone (wide: the badge's width) a taller badge with larger text.
function shipBadge(ship, x, y, ctx, hot, wide = 0) {
  const u = ctx.layout.units[ship.kind] ?? { letter: "?", name: ship.kind };
  const sel = ctx.selected === String(ship.id);
  const cls = `gd-ship${sel ? " selected" : ""}${hot ? " target" : ""}${ship.attached ? " attached" : ""}${wide ? " big" : ""}`;
  const who = `${seatColourName(ship.owner)} (P${ship.owner})`;
  const [w, h, mark, line] = wide ? [wide, PHONE_SHIP - 4, 30, 17] : [92, 32, 30, 14];
  // a phone's badge is narrow: a charged ship says its charge, not that it mines
  const state = wide ? (ship.charge ? ` charge ${ship.charge}` : ship.attached ? " mining" : "") : `${ship.attached ? " mining" : ""}${ship.charge ? ` charge ${ship.charge}` : ""}`;
  const g = svg("g", { class: cls, "data-ship": ship.id, onclick: (e) => { e.stopPropagation(); onShip(ship, ctx); } },
    svg("rect", { x: x - 2, y: y - 2, width: w, height: h, rx: 4, class: "gd-hit" }),
    place("common", `seat-${seatShape(ship.owner)}`, x - 1, y - 1 + (h - 32 - mark + 30) / 2, mark, `seat-c-${ship.owner}`),
    place(SHEET, ship.kind, x + 6 + (mark - 30) / 2, y + 6 + (h - 32) / 2 + (mark - 30) / 2, 17 + (mark - 30) / 2, "gd-glyph"),
    svg("text", { x: x + mark + 2, y: y + 10 + (wide ? 6 : 0), class: "gd-stat" }, `#${ship.id} H${ship.hull} S${ship.shields}`),
    svg("text", { x: x + mark + 2, y: y + 10 + line + (wide ? 6 : 0), class: "gd-stat" }, `AP ${ship.ap}${state}`),
    svg("title", {}, `${who}'s ${u.name} #${ship.id}${sel ? " (selected)" : ""}${hot ? " (a target of the selected ship)" : ""}: hull ${ship.hull}, shields ${ship.shields}, ${ship.ap} AP left${ship.attached ? ", attached to the planet (mining)" : ""}. ${u.text ?? ""}`));
  return g;
}

function onShip(ship, ctx) {
  const view = ctx.view;
  if (ctx.selected && ctx.selected !== String(ship.id) && targetsOf(view, ctx.selected).ships.has(ship.id)) {
    // a target of the chosen ship: its one action is made at once, several are listed
    ctx.select(`${ctx.selected} ${ship.id}`, `#${ctx.selected} at #${ship.id}`, { go: true });
    return;
  }
  const u = ctx.layout.units[ship.kind];
  ctx.select(String(ship.id), `${u?.name ?? ship.kind} #${ship.id}`);
}

// Seats are called by the colour of their start zone (GD-MAP-03: red moves first).
export function seatColours(view) {
  return view.observation.start_zone ?? ["red", "purple"];
}

// The symbol of the ship an action names (its second word is the ship's number).
export function actionSymbol(item, ctx) {
  const id = Number(item.notation.split(" ")[1]);
  const ship = ctx.view?.observation.ships.find((x) => x.id === id);
  return ship ? [SHEET, ship.kind] : null;
}

export const endReasons = {};

// The ship types and the two resources with their symbols, as explanations name them
// ("Miner Ship", "1 more command", "14 minerals", "dark matter"): minerals are drawn as the
// spinner's ore, dark matter as its dark matter.
function terms(layout) {
  return [...Object.entries(layout.units).map(([id, u]) => ({ sheet: SHEET, id, words: [u.name, id] })),
    { sheet: SHEET, id: "spin-ore", words: ["mineral"] }, { sheet: SHEET, id: "spin-dark_matter", words: ["dark matter"] }];
}

export function setup(ctx) {
  explainWithSymbols(terms(ctx.layout));
  ctx.portrait = window.matchMedia("(max-width: 700px)").matches;
  ctx.pos = sectorPos(ctx.layout, ctx.portrait);
  const { el } = ctx;
  const kinds = Object.entries(ctx.layout.units).map(([id, u]) => el("li", {}, icon(SHEET, id, { size: 20 }), ` ${u.name} (${u.letter})`));
  ctx.legend.replaceChildren(
    el("ul", { class: "symbol-list" }, ...kinds,
      el("li", {}, icon(SHEET, "planet", { size: 20 }), " planet (miners attach to it)"),
      el("li", {}, icon(SHEET, "black-hole", { size: 20 }), " black hole: no ship may enter")),
    el("p", {}, "Each ship shows its owner's shape and colour (", seatMark(0), ` ${seatColourName(0)} circles for P0, `, seatMark(1),
      ` ${seatColourName(1)} squares for P1), its number, hull (H), shields (S) and action points. A sector holds at most ${ctx.layout.capacity}`,
    " ships (miners do not count); its corner shows how many are in it."),
    el("p", {}, "Tap a ship to see its moves, attacks and specials: the sectors and ships they aim at light up; tap one of them to narrow the list. A dashed ring marks each seat's last move."),
  );
}

export function draw(view, ctx) {
  if (!view) return;
  const obs = view.observation;
  const { layout } = ctx;
  const phone = Boolean(ctx.phone?.());
  const portrait = ctx.portrait;
  const rowsOf = Math.max(...layout.zones.map((z) => z.sectors.length));
  const plan = phone ? phonePlan(layout, obs) : null;
  // every sector's box: {x, y, w, h}
  const pos = plan ? plan.pos : Object.fromEntries(Object.entries(ctx.pos).map(([k, p]) => [k, { ...p, w: CW, h: CH }]));
  const width = phone ? PHONE_W : (portrait ? rowsOf : layout.zones.length) * CW;
  const deepY = phone ? plan.height + 6 : portrait ? layout.zones.length * (CH + TOP) + 10 : TOP + rowsOf * CH + 10;
  const deepShips = obs.ships.filter((x) => x.at === "deep_space");
  const perRow = phone ? 3 : Math.max(1, Math.floor((width - 20) / 120));
  const deepH = phone ? 36 + Math.max(1, Math.ceil(deepShips.length / perRow)) * PHONE_SHIP : 110;
  // a phone's board is drawn at its screen size: the page scrolls, no zoom
  const root = svg("svg", { viewBox: `-4 -4 ${width + 8} ${deepY + deepH + 10}`, class: `gd-board${phone ? " phone" : " zoomable"}`, role: "group", "aria-label": "Galactic Domination board: sectors and ships" });
  const t = ctx.selected && /^\d+$/.test(ctx.selected) ? targetsOf(view, ctx.selected) : { sectors: new Set(), ships: new Set() };
  const holes = new Set(obs.black_holes ?? []);
  for (const [a, b] of layout.links) {
    root.append(svg("line", { x1: pos[a].x + pos[a].w / 2, y1: pos[a].y + pos[a].h / 2, x2: pos[b].x + pos[b].w / 2, y2: pos[b].y + pos[b].h / 2, class: "gd-link" }));
  }
  layout.zones.forEach((z, zi) => {
    const start = obs.start_zone?.indexOf(z.colour);
    root.append(svg("text", { ...(plan ? plan.labels[zi] : zoneLabelAt(zi, portrait)), class: "gd-zone" }, `${z.colour} zone${start >= 0 ? ` (P${start} starts here)` : ""}`));
  });
  const shipLayer = [];
  for (const z of layout.zones) {
    for (const s of z.sectors) {
      const p = pos[s];
      const ships = obs.ships.filter((x) => x.at === s);
      const load = ships.filter((x) => x.kind !== "miner").length;
      const hot = t.sectors.has(s);
      const cell = svg("g", { class: `gd-sector${hot ? " target" : ""}`, "data-sector": s, onclick: (e) => {
        e.stopPropagation();
        if (ctx.selected && hot) ctx.select(`${ctx.selected} ${s}`, `#${ctx.selected} to ${s}`, { go: true });
        else ctx.select(s, `sector ${s}`);
      } },
      svg("rect", { x: p.x + 3, y: p.y + 3, width: p.w - 6, height: p.h - 6, rx: 10, fill: ZONE_FILLS[z.colour] ?? "#222" }),
      svg("text", { x: p.x + 12, y: p.y + (phone ? 28 : 22), class: "system-id" }, s),
      svg("text", { x: p.x + p.w - 12, y: p.y + (phone ? 28 : 22), "text-anchor": "end", class: `gd-load${load >= layout.capacity ? " full" : ""}` }, `${load}/${layout.capacity}`,
        svg("title", {}, `${load} of ${layout.capacity} places taken (miners do not count)`)),
      place(SHEET, "planet", p.x + p.w - (phone ? 26 : 40), p.y + p.h - (phone ? 24 : 38), phone ? 18 : 28),
      svg("title", {}, `sector ${s}, ${z.colour} zone: ${load} of ${layout.capacity} places taken${holes.has(s) ? ", a black hole: no ship may enter" : ""}${hot ? " (a destination of the selected ship)" : ""}`));
      const hole = Math.min(60, p.w - 20, p.h - 30);
      if (holes.has(s)) cell.append(place(SHEET, "black-hole", p.x + p.w / 2 - hole / 2, p.y + p.h / 2 - hole / 2 + (phone ? 10 : 0), hole));
      root.append(cell);
      ships.forEach((ship, i) => {
        const x = phone ? p.x + 6 : p.x + 10 + (i % 2) * 95;
        const y = phone ? p.y + PHONE_HEAD + 2 + i * PHONE_SHIP : p.y + 30 + Math.floor(i / 2) * 30;
        shipLayer.push(shipBadge(ship, x, y, ctx, t.ships.has(ship.id), phone ? p.w - 10 : 0));
      });
    }
  }
  root.append(...shipLayer);
  root.append(svg("rect", { x: 3, y: deepY, width: width - 6, height: deepH, rx: 10, class: "gd-deep" }),
    svg("text", { x: 14, y: deepY + 20, class: "gd-zone" }, portrait ? "deep space (explorers away)" : "deep space (explorers away; they spin for minerals and dark matter when they return)"));
  deepShips.forEach((ship, i) => {
    if (phone) root.append(shipBadge(ship, 8 + (i % perRow) * (width / perRow), deepY + 32 + Math.floor(i / perRow) * PHONE_SHIP, ctx, t.ships.has(ship.id), width / perRow - 12));
    else root.append(shipBadge(ship, 14 + (i % perRow) * 120, deepY + 34 + Math.floor(i / perRow) * 34, ctx, t.ships.has(ship.id)));
  });
  root.addEventListener("click", () => ctx.select(null));
  ctx.board.replaceChildren(root);
  drawPanels(view, ctx);
}

function drawPanels(view, ctx) {
  const { el } = ctx;
  const obs = view.observation;
  const table = el("table", { class: "empires" }, el("tr", {}, ...["seat", "zone", "minerals", "dark matter", "ships"].map((h) => el("th", { scope: "col" }, h))));
  for (const seat of [0, 1]) {
    table.append(el("tr", { class: obs.current_player === seat ? "waiting" : "" },
      el("th", { scope: "row" }, seatMark(seat), ` ${seatColourName(seat)} P${seat}`),
      el("td", {}, obs.start_zone?.[seat] ?? ""), el("td", {}, obs.minerals[seat]), el("td", {}, obs.dark_matter[seat]),
      el("td", {}, obs.ships.filter((s) => s.owner === seat).length)));
  }
  const out = [el("section", { class: "card" }, el("h2", {}, `Round ${obs.round}: ${obs.phase_words ?? obs.phase}`), table,
    obs.active_ship >= 0 ? el("p", { class: "muted" }, `Ship acting now: #${obs.active_ship}`) : "")];
  const spins = view.log.filter((line) => / spins /.test(line));
  if (spins.length) {
    const last = spins[spins.length - 1];
    const seg = Object.entries(ctx.layout.spinner).find(([id]) => last.includes(` spins ${id}`));
    out.push(el("section", { class: "card spinner" }, el("h2", {}, "Spinner"), el("p", {}, seg ? icon(SHEET, `spin-${seg[0]}`, { size: 22 }) : "", " ", el("strong", {}, last)),
      seg?.[1].text ? el("p", { class: "muted" }, seg[1].text) : ""));
  }
  ctx.panels.replaceChildren(...out);
}
