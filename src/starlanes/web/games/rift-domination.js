// The Rift Domination table: the board as SVG (systems on their grid, planets with owner,
// upgrades and condition tile, units per seat at every point), and the game's panels
// (empires, your OCC-cards with their text, the faction offer, the battle in progress).
// It draws the seat's view only; every legal action comes from the server.
import { svg } from "../dom.js";

const CELL_W = 230;
const CELL_H = 180;
const COLOURS = ["#d9534f", "#3b82c4", "#3fa45b", "#d4a017", "#a35cc4", "#2bb3b3"];
const PLANET_SPOTS = [[0.3, 0.45], [0.72, 0.45], [0.3, 0.78], [0.72, 0.78]];

export function colour(seat) {
  return seat === null || seat === undefined || seat < 0 ? "#8a8f98" : COLOURS[seat % COLOURS.length];
}

// Short unit codes for the chips, made from the content's unit names: the first letter,
// or the first letter and one more where two units would share it.
function unitCodes(units) {
  const codes = {};
  const taken = new Set();
  const ids = Object.keys(units);
  const firsts = {};
  for (const id of ids) {
    const f = units[id].name[0].toUpperCase();
    firsts[f] = (firsts[f] ?? 0) + 1;
  }
  for (const id of ids) {
    const name = units[id].name.replace(/[^A-Za-z]/g, "");
    let code = name[0].toUpperCase();
    for (let i = 1; (firsts[code[0]] > 1 || taken.has(code)) && i < name.length; i += 1) {
      code = name[0].toUpperCase() + name[i].toLowerCase();
      if (!taken.has(code)) break;
    }
    taken.add(code);
    codes[id] = code;
  }
  return codes;
}

// Where each point of the board sits in SVG coordinates.
function positions(layout) {
  const pos = {};
  const { x0, y0 } = layout.grid;
  for (const s of layout.systems) {
    const left = (s.x - x0) * CELL_W;
    const top = (s.y - y0) * CELL_H;
    pos[s.id] = { x: left + CELL_W / 2, y: top + 22, left, top };
    s.planets.forEach((p, i) => {
      const [fx, fy] = PLANET_SPOTS[i % PLANET_SPOTS.length];
      pos[p.id] = { x: left + fx * CELL_W, y: top + fy * CELL_H };
    });
  }
  for (const b of layout.borders) {
    const [a, c] = b.systems.map((id) => pos[id]);
    pos[b.id] = { x: (a.left + c.left) / 2 + CELL_W / 2, y: (a.top + c.top) / 2 + CELL_H / 2 };
  }
  layout.wormholes.forEach((w, i) => {
    const s = pos[w.system];
    pos[w.id] = { x: s.left + 18, y: s.top + CELL_H - 16 - i * 2 };
  });
  return pos;
}

// The destinations of the legal moves from a point, to highlight them.
function moveTargets(view, from) {
  const out = new Set();
  for (const a of view.legal) {
    const w = a.notation.split(" ");
    if (w[0] === "move" && w[1] === from) out.add(w[2]);
  }
  return out;
}

function unitChips(units, at, p, ctx) {
  const groups = new Map();
  for (const u of units) {
    if (u.at !== at) continue;
    const key = `${u.owner}:${u.kind}:${u.landed ? "l" : ""}`;
    const g = groups.get(key) ?? { owner: u.owner, kind: u.kind, landed: u.landed, n: 0, wounds: 0 };
    g.n += 1;
    g.wounds += u.wounds;
    groups.set(key, g);
  }
  const chips = [];
  let i = 0;
  for (const g of [...groups.values()].sort((a, b) => a.owner - b.owner || a.kind.localeCompare(b.kind))) {
    const x = p.x - 34 + (i % 3) * 26;
    const y = p.y + 16 + Math.floor(i / 3) * 15;
    const label = `${g.n}${ctx.unitCodes[g.kind] ?? g.kind}`;
    const chip = svg("g", { class: `unit${g.landed ? " landed" : ""}`, "data-unit": g.kind, "data-at": at, onclick: (e) => { e.stopPropagation(); ctx.select(at); } },
      svg("rect", { x: x - 12, y: y - 10, width: 25, height: 13, rx: 3, fill: colour(g.owner) }),
      svg("text", { x, y: y, "text-anchor": "middle", class: "chip-text" }, label));
    const wounds = g.wounds ? `, ${g.wounds} wound(s)` : "";
    chip.append(svg("title", {}, `P${g.owner}: ${g.n} ${ctx.layout.units[g.kind]?.name ?? g.kind}${g.landed ? " landed" : ""}${wounds}`));
    chips.push(chip);
    i += 1;
  }
  return chips;
}

export function setup(ctx) {
  ctx.positions = positions(ctx.layout);
  ctx.unitCodes = unitCodes(ctx.layout.units);
  const codes = Object.entries(ctx.unitCodes).map(([id, code]) => `${code} ${ctx.layout.units[id].name.toLowerCase()}`).join(", ");
  ctx.legend.replaceChildren(
    "Planets are coloured by owner (grey: neutral); a star marks a huge planet; ",
    "? is a face-down condition tile, kind=value a revealed one; letters under a planet are its upgrades. ",
    `Unit chips show count and kind (${codes}); a dashed chip is landed. `,
    "Small diamonds are the borders between systems. Click a planet, point or unit to see the actions that involve it; after clicking a fleet, highlighted points are where it can move.",
  );
}

export function draw(view, ctx) {
  if (!view) return;
  const obs = view.observation;
  const { layout } = ctx;
  const pos = ctx.positions;
  const cols = layout.grid.x1 - layout.grid.x0 + 1;
  const rows = layout.grid.y1 - layout.grid.y0 + 1;
  const targets = ctx.selected ? moveTargets(view, ctx.selected) : new Set();
  const involved = new Set();
  for (const a of view.legal) for (const w of a.notation.split(/[\s@]+/)) involved.add(w);
  const root = svg("svg", { viewBox: `-4 -4 ${cols * CELL_W + 8} ${rows * CELL_H + 8}`, class: "rd-board", role: "img", "aria-label": "Rift Domination board" });
  const planets = Object.fromEntries(obs.planets.map((p) => [p.id, p]));
  const clickPoint = (id) => (e) => {
    e.stopPropagation();
    if (ctx.selected && targets.has(id)) {
      const from = ctx.selected;
      ctx.select(`${from} ${id}`, `move ${from} to ${id}`);
      return;
    }
    ctx.select(id);
  };
  for (const s of layout.systems) {
    const p = pos[s.id];
    root.append(svg("rect", { x: p.left + 3, y: p.top + 3, width: CELL_W - 6, height: CELL_H - 6, rx: 12, class: `system${s.central ? " central" : ""}` }));
  }
  for (const s of layout.systems) {
    const p = pos[s.id];
    const hot = targets.has(s.id) ? " target" : ctx.selected === s.id ? " selected" : "";
    root.append(svg("circle", { cx: p.x, cy: p.y, r: 8, class: `point${hot}`, "data-point": s.id, onclick: clickPoint(s.id) }, svg("title", {}, `system ${s.id} (space)`)));
    root.append(svg("text", { x: p.left + 12, y: p.top + 24, class: "system-id" }, s.id));
    root.append(...unitChips(obs.units, s.id, { x: p.x + 40, y: p.y - 12 }, ctx));
    for (const pl of s.planets) {
      const q = pos[pl.id];
      const state = planets[pl.id] ?? {};
      const r = pl.huge ? 22 : 15;
      const cls = `planet${targets.has(pl.id) ? " target" : ""}${ctx.selected === pl.id ? " selected" : ""}${involved.has(pl.id) && view.your_turn ? " live" : ""}`;
      const g = svg("g", { class: cls, "data-planet": pl.id, onclick: clickPoint(pl.id) },
        svg("circle", { cx: q.x, cy: q.y, r, fill: colour(state.owner) }),
        svg("text", { x: q.x, y: q.y + 4, "text-anchor": "middle", class: "planet-id" }, pl.huge ? `${pl.id}*` : pl.id),
        svg("title", {}, `${pl.name} (${pl.id})${pl.huge ? ", huge planet" : ""}${state.owner >= 0 ? `, held by P${state.owner}` : ", neutral"}`));
      if (state.tile) {
        const face = state.value === null ? "?" : `${state.tile}=${state.value}`;
        g.append(svg("text", { x: q.x + r + 3, y: q.y - r + 6, class: `tile${state.value === null ? " hidden" : ""}` }, face));
      }
      if (state.upgrades?.length) {
        const ups = state.upgrades.map((u) => (layout.upgrades[u]?.name ?? u).split(/[\s_]/).map((w) => w[0]).join("").toUpperCase()).join(" ");
        g.append(svg("text", { x: q.x, y: q.y + r + 11, "text-anchor": "middle", class: "upgrades" }, ups,
          svg("title", {}, state.upgrades.map((u) => layout.upgrades[u]?.name ?? u).join(", "))));
      }
      root.append(g, ...unitChips(obs.units, pl.id, { x: q.x + 6, y: q.y + r + 6 }, ctx));
    }
  }
  for (const b of layout.borders) {
    const p = pos[b.id];
    const hot = targets.has(b.id) ? " target" : ctx.selected === b.id ? " selected" : "";
    root.append(svg("rect", { x: p.x - 6, y: p.y - 6, width: 12, height: 12, transform: `rotate(45 ${p.x} ${p.y})`, class: `border${hot}`, "data-point": b.id, onclick: clickPoint(b.id) }, svg("title", {}, `border ${b.id}`)));
    root.append(...unitChips(obs.units, b.id, { x: p.x + 20, y: p.y - 20 }, ctx));
  }
  for (const w of layout.wormholes) {
    const p = pos[w.id];
    root.append(svg("circle", { cx: p.x, cy: p.y, r: 7, class: "wormhole", "data-point": w.id, onclick: clickPoint(w.id) }, svg("title", {}, `wormhole ${w.id}`)));
  }
  root.addEventListener("click", () => ctx.select(null));
  ctx.board.replaceChildren(root);
  drawPanels(view, ctx);
}

function panel(ctx, title, ...body) {
  const { el } = ctx;
  return el("section", { class: "card" }, el("h2", {}, title), ...body);
}

function drawPanels(view, ctx) {
  const { el, layout } = ctx;
  const obs = view.observation;
  const out = [];
  const empires = el("table", { class: "empires" }, el("tr", {}, ...["", "faction", "res.", "income", "VP", "cards"].map((h) => el("th", {}, h))));
  for (const p of obs.players) {
    const faction = layout.factions[p.faction];
    const name = el("td", {}, faction?.name ?? "-");
    if (faction) ctx.tip(name, faction.text);
    empires.append(el("tr", { class: obs.current_player === p.seat ? "waiting" : "" },
      el("td", {}, el("span", { class: `swatch seat-${p.seat % 6}` }), `P${p.seat}`),
      name, el("td", {}, p.resources), el("td", {}, p.income), el("td", {}, `${p.vp}/${obs.target_vp}`), el("td", {}, p.hand_size)));
  }
  out.push(panel(ctx, `Round ${obs.round}: ${obs.phase}`, empires, el("p", { class: "muted" }, `OCC deck ${obs.deck_size} cards, discard ${obs.discard.length}`)));
  if (obs.faction_offer) {
    const f = layout.factions[obs.faction_offer];
    out.push(panel(ctx, "Faction offered", el("p", {}, el("strong", {}, f?.name ?? obs.faction_offer)), el("p", {}, f?.text ?? "")));
  }
  const me = view.you !== null ? obs.players[view.you] : null;
  if (me?.hand) {
    const cards = me.hand.map((id) => {
      const c = layout.cards[id];
      const card = el("li", { class: "occ", "data-card": id, onclick: () => ctx.select(id, c?.name ?? id) },
        el("strong", {}, c?.name ?? id), el("small", { class: "muted" }, ` ${c?.timing ?? ""} (${id})`), el("p", {}, c?.text ?? ""));
      return card;
    });
    out.push(panel(ctx, `Your OCC-cards (${me.hand.length})`, cards.length ? el("ul", { class: "cards" }, ...cards) : el("p", { class: "muted" }, "none")));
  }
  if (obs.battle) {
    const b = obs.battle;
    const rows = b.combatants.map((f) => el("tr", {},
      el("td", {}, f.side === 0 ? "attacker" : "defender"),
      el("td", {}, layout.units[f.kind]?.name ?? layout.upgrades[f.kind]?.name ?? f.kind),
      el("td", {}, `${f.lp}/${f.lp_max} LP`), el("td", {}, `${f.shields}/${f.shields_max} sh`),
      el("td", {}, f.weapons.join("/"))));
    out.push(panel(ctx, `Battle at ${b.at} (${b.kind})`,
      el("p", {}, `P${b.attacker} attacks P${b.defender}; phase: ${b.phase}`),
      b.pending ? el("p", {}, `waiting: ${b.pending.join(" ")}`) : "",
      el("table", { class: "battle" }, el("tr", {}, ...["side", "unit", "life", "shields", "close/mid/long"].map((h) => el("th", {}, h))), ...rows)));
  }
  ctx.panels.replaceChildren(...out);
}
