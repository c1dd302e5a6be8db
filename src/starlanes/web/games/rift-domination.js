// The Rift Domination table: the board as SVG (systems on their grid, planets with owner,
// upgrades and condition tile, units per seat at every point), and the game's panels
// (empires, your OCC-cards with their text, the faction offer, the battle in progress).
// It draws the seat's view only; every legal action comes from the server.
// Units are symbols with their counts on chips edged in the owner's colour and marked with
// its shape; a planet's full facts (condition tile, upgrades, units) go to the facts card
// on hover, focus or tap, so no label crowds its neighbours; a battle is marked on the map.
// On a phone the map is drawn for fingers: larger planet discs, every planet, space point,
// border and wormhole with a tap area of at least 44 px at the playing scale (PLAY_SCALE),
// the unit chips part of their place's tap area; the table opens it at that scale where the
// seat can act, and marks the places out of sight at the edges (boardplay.js).
import { svg } from "../dom.js";
import { words } from "../boardplay.js";
import { seatMark, seatShape, seatWords } from "../seats.js";
import { explainWithSymbols, icon, place } from "../symbols.js";

const SHEET = "rift-domination";
const CELL_W = 230;
const CELL_H = 222;
const PLANET_SPOTS = [[0.3, 0.4], [0.72, 0.4], [0.3, 0.74], [0.72, 0.74]];
const CHIP_W = 40;
const CHIP_H = 18;
const CHIPS_SHOWN = 4;
// On a phone: screen pixels per board unit when playing (the smallest label, 12 units, is
// then 11.4 px), the height of a system's space strip and the size of a border's tap area.
const PLAY_SCALE = 0.95;
const STRIP_H = 50;
const HIT = 50;

const owned = (seat) => seat !== null && seat !== undefined && seat >= 0;

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

// A place in words: "Kessar Prime (A1a)", "the space of system B2", "the border between
// D1 and E1", "the wormhole W1".
function placeName(layout, id) {
  for (const s of layout.systems) {
    if (s.id === id) return `the space of system ${id}`;
    const pl = s.planets.find((p) => p.id === id);
    if (pl) return `${pl.name} (${id})`;
  }
  const b = layout.borders.find((x) => x.id === id);
  if (b) return `the border between ${b.systems.join(" and ")}`;
  return layout.wormholes.some((w) => w.id === id) ? `the wormhole ${id}` : id;
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

function groupsAt(units, at) {
  const groups = new Map();
  for (const u of units) {
    if (u.at !== at) continue;
    const key = `${u.owner}:${u.kind}:${u.landed ? "l" : ""}`;
    const g = groups.get(key) ?? { owner: u.owner, kind: u.kind, landed: u.landed, n: 0, wounds: 0 };
    g.n += 1;
    g.wounds += u.wounds;
    groups.set(key, g);
  }
  return [...groups.values()].sort((a, b) => a.owner - b.owner || a.kind.localeCompare(b.kind));
}

function groupWords(ctx, g) {
  const name = ctx.layout.units[g.kind]?.name ?? g.kind;
  return `${seatWords(g.owner)}: ${g.n} ${name}${g.landed ? " landed" : ""}${g.wounds ? `, ${g.wounds} wound(s)` : ""}`;
}

// Chips of the units at a point, two per row from (p.x, p.y): the owner's shape, the
// unit's symbol and the count; more than CHIPS_SHOWN groups end with a "+n" chip (the
// facts card lists them all).
function unitChips(units, at, p, ctx, perRow = 2) {
  const groups = groupsAt(units, at);
  // on a phone a chip is part of its place's tap area (the place's actions are the same)
  const tap = (attrs) => (ctx.phone?.() ? { "pointer-events": "none" } : attrs);
  const shown = groups.length > CHIPS_SHOWN ? groups.slice(0, CHIPS_SHOWN - 1) : groups;
  const chips = shown.map((g, i) => {
    const x = p.x - (perRow * CHIP_W) / 2 + (i % perRow) * CHIP_W;
    const y = p.y + Math.floor(i / perRow) * (CHIP_H + 2);
    return svg("g", { class: `unit${g.landed ? " landed" : ""}`, ...tap({ "data-unit": g.kind, "data-at": at, onclick: (e) => { e.stopPropagation(); ctx.select(at); } }) },
      svg("rect", { x, y, width: CHIP_W - 3, height: CHIP_H, rx: 4, class: `chip seat-stroke-${g.owner % 6}` }),
      place("common", `seat-${seatShape(g.owner)}`, x + 2, y + 4, 10, `seat-c-${g.owner % 6}`),
      place(SHEET, g.kind, x + 12, y + 2, 14, "chip-sym"),
      svg("text", { x: x + 27, y: y + 13.5, class: "chip-text" }, String(g.n)),
      svg("title", {}, groupWords(ctx, g)));
  });
  if (shown.length < groups.length) {
    const i = shown.length;
    const x = p.x - (perRow * CHIP_W) / 2 + (i % perRow) * CHIP_W;
    const y = p.y + Math.floor(i / perRow) * (CHIP_H + 2);
    chips.push(svg("g", { class: "unit more", ...tap({ "data-object": `more@${at}`, onclick: (e) => { e.stopPropagation(); ctx.select(at); } }) },
      svg("rect", { x, y, width: CHIP_W - 3, height: CHIP_H, rx: 4, class: "chip" }),
      svg("text", { x: x + 6, y: y + 13.5, class: "chip-text" }, `+${groups.length - shown.length}`),
      svg("title", {}, groups.slice(shown.length).map((g) => groupWords(ctx, g)).join("; "))));
  }
  return chips;
}

// The facts of a planet for the facts card: name, owner, condition tile, upgrades, units.
function planetFacts(ctx, pl, state, obs) {
  const { el, layout } = ctx;
  const tile = state.tile ? (state.value === null ? "a face-down condition tile" : `${state.tile} (value ${state.value})`) : "no condition tile";
  const ups = (state.upgrades ?? []).map((u) => el("li", {}, icon(SHEET, u, { size: 16 }), ` ${layout.upgrades[u]?.name ?? u}`));
  const units = groupsAt(obs.units, pl.id).map((g) => el("li", {}, seatMark(g.owner), " ", icon(SHEET, g.kind, { size: 16 }), ` ${g.n} ${layout.units[g.kind]?.name ?? g.kind}${g.landed ? " (landed)" : ""}${g.wounds ? `, ${g.wounds} wound(s)` : ""}`));
  return [el("h3", {}, `${pl.name} (${pl.id})`),
    el("p", {}, owned(state.owner) ? seatMark(state.owner) : "", owned(state.owner) ? ` held by ${seatWords(state.owner)}` : "neutral", pl.huge ? " \u00b7 huge planet" : ""),
    el("p", {}, state.tile ? icon(SHEET, state.value === null ? "tile-hidden" : `tile-${state.tile}`, { size: 16 }) : "", ` ${tile}`),
    ups.length ? el("div", {}, el("strong", {}, "Upgrades"), el("ul", {}, ...ups)) : el("p", { class: "muted" }, "no upgrades"),
    units.length ? el("div", {}, el("strong", {}, "Units"), el("ul", {}, ...units)) : el("p", { class: "muted" }, "no units")];
}

// A unit's symbol in the action list: the first word of the notation naming a unit kind.
export function actionSymbol(item, ctx) {
  for (const w of item.notation.split(/[\s@]+/)) {
    if (ctx.layout.units[w]) return [SHEET, w];
    if (ctx.layout.upgrades[w]) return [SHEET, w];
  }
  return null;
}

// The unit kinds and upgrades with their symbols, as explanations name them ("Kamikaze
// Drone", "kamikaze drone", "2 destroyer").
function terms(layout) {
  return [...Object.entries(layout.units), ...Object.entries(layout.upgrades)]
    .map(([id, u]) => ({ sheet: SHEET, id, words: [u.name, id, id.replace(/_/g, " ")] }));
}

// Where a phone's map opens when the seat has nothing to act on: its units or planets, the
// battle being fought, else the middle of the map.
function home(view, ctx) {
  const obs = view?.observation;
  const pos = ctx.positions;
  if (!obs) return null;
  const mine = obs.units.find((u) => u.owner === view.you && pos[u.at]) ?? obs.planets.find((p) => p.owner === view.you && pos[p.id]);
  const at = obs.battle?.at ?? mine?.at ?? mine?.id;
  if (at && pos[at]) return pos[at];
  const { x1, x0, y1, y0 } = ctx.layout.grid;
  return { x: ((x1 - x0 + 1) * CELL_W) / 2, y: ((y1 - y0 + 1) * CELL_H) / 2 };
}

// The actions a tap on a place offers: those naming it and, where a battle is fought, its
// decisions (they name units, not places). The popover beside it leaves out its moves:
// their destinations light up on the map instead, and the hint says so.
export function boardActions(objectId, view, ctx) {
  const id = String(objectId);
  if (id.includes(" ") || !ctx.positions[id]) return null;
  const places = new Set(Object.keys(ctx.positions).map((k) => k.toLowerCase()));
  const origin = view.legal.filter((a) => {
    const t = a.notation.split(" ");
    return t[0] === "move" && t[1] === id;
  });
  const dests = new Set(origin.map((a) => a.notation.split(" ")[2]));
  const battle = view.observation.battle?.at === id;
  const items = view.legal.filter((a) => {
    const w = words(a.notation);
    return w.includes(id.toLowerCase()) || (battle && !w.some((x) => places.has(x)));
  });
  const hint = dests.size ? `Move: tap one of the ${dests.size} highlighted place${dests.size > 1 ? "s" : ""} on the map (${origin.length} move${origin.length > 1 ? "s" : ""} from here).` : "";
  return { items, popover: items.filter((a) => !origin.includes(a)), hint };
}

export function setup(ctx) {
  ctx.positions = positions(ctx.layout);
  ctx.playScale = PLAY_SCALE;
  ctx.home = (view) => home(view, ctx);
  const { el, layout } = ctx;
  explainWithSymbols(terms(layout));
  const list = (ids, names) => el("ul", { class: "symbol-list" }, ...ids.map((id) => el("li", {}, icon(SHEET, id, { size: 20 }), ` ${names[id]}`)));
  const unitNames = Object.fromEntries(Object.entries(layout.units).map(([k, u]) => [k, u.name]));
  const upNames = Object.fromEntries(Object.entries(layout.upgrades).map(([k, u]) => [k, `${u.name} (upgrade)`]));
  const tiles = { "tile-hidden": "face-down condition tile", "tile-civilized": "civilized", "tile-dangerous": "dangerous", "tile-anomaly": "anomaly", "tile-harvester": "harvester", huge: "huge planet" };
  ctx.legend.replaceChildren(
    el("p", {}, "Planets are filled with their owner's colour and carry the owner's shape (grey: neutral). A planet's condition tile and upgrades are small symbols beside it; hover, focus or tap it for all its facts. ",
      "Unit chips show the owner's shape, the unit's symbol and how many; a dashed chip is landed. Small diamonds are the borders between systems; ", icon("common", "battle", { size: 16 }), " marks a battle."),
    list(Object.keys(unitNames), unitNames), list(Object.keys(upNames), upNames), list(Object.keys(tiles), tiles),
    el("p", {}, "Tap a planet, point or unit: its actions appear beside it. Its units' destinations light up on the map: tap one to move there. Arrows at the map's edges point at places to act that are out of sight; tap one to go there."),
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
  const root = svg("svg", { viewBox: `-4 -4 ${cols * CELL_W + 8} ${rows * CELL_H + 8}`, class: "rd-board zoomable", role: "group", "aria-label": "Rift Domination board: systems, planets and units" });
  const battleAt = obs.battle?.at ?? null;
  const planets = Object.fromEntries(obs.planets.map((p) => [p.id, p]));
  const big = Boolean(ctx.phone?.());
  const clickPoint = (id, title) => (e) => {
    e.stopPropagation();
    if (ctx.selected && targets.has(id)) {
      // a destination of the chosen place: its one move is made at once, several are listed
      const from = ctx.selected;
      ctx.select(`${from} ${id}`, `Move from ${placeName(layout, from)} to ${placeName(layout, id)}`, { go: true });
      return;
    }
    ctx.select(id, title ?? placeName(layout, id));
  };
  // a transparent tap area (phone): the last child, so that the visible shape stays first
  const hit = (x, y, width, height) => svg("rect", { x, y, width, height, class: "hit" });
  for (const s of layout.systems) {
    const p = pos[s.id];
    root.append(svg("rect", { x: p.left + 3, y: p.top + 3, width: CELL_W - 6, height: CELL_H - 6, rx: 12, class: `system${s.central ? " central" : ""}` }));
  }
  for (const s of layout.systems) {
    const p = pos[s.id];
    const hot = targets.has(s.id) ? " target" : ctx.selected === s.id ? " selected" : "";
    const spaceUnits = groupsAt(obs.units, s.id).map((g) => groupWords(ctx, g)).join("; ");
    const spaceTitle = svg("title", {}, `space of system ${s.id}${spaceUnits ? `: ${spaceUnits}` : ", empty"}${battleAt === s.id ? ", a battle is being fought here" : ""}`);
    if (big) {
      // the whole strip at the top of the system is the space's tap area
      root.append(svg("g", { class: `place${hot}`, "data-point": s.id, onclick: clickPoint(s.id) },
        svg("circle", { cx: p.x, cy: p.y, r: 11, class: `point${hot}` }), hit(p.left + 4, p.top + 2, CELL_W - 8, STRIP_H), spaceTitle));
    } else {
      root.append(svg("circle", { cx: p.x, cy: p.y, r: 9, class: `point${hot}`, "data-point": s.id, onclick: clickPoint(s.id) }, spaceTitle));
    }
    root.append(svg("text", { x: p.left + 12, y: p.top + 24, class: "system-id" }, s.id));
    root.append(...unitChips(obs.units, s.id, { x: p.x + 52, y: p.y - 12 }, ctx));
    if (battleAt === s.id) root.append(battleMark(p.x - 34, p.y - 14));
    for (const pl of s.planets) {
      const q = pos[pl.id];
      const state = planets[pl.id] ?? {};
      const r = big ? (pl.huge ? 27 : 21) : pl.huge ? 24 : 17;
      const cls = `planet${targets.has(pl.id) ? " target" : ""}${ctx.selected === pl.id ? " selected" : ""}${involved.has(pl.id) && view.your_turn ? " live" : ""}`;
      const facts = () => planetFacts(ctx, pl, state, obs);
      const summary = [`${pl.name} (${pl.id})`, pl.huge ? "huge planet" : "", owned(state.owner) ? `held by ${seatWords(state.owner)}` : "neutral",
        state.tile ? (state.value === null ? "face-down condition tile" : `${state.tile} ${state.value}`) : "",
        state.upgrades?.length ? `upgrades: ${state.upgrades.map((u) => layout.upgrades[u]?.name ?? u).join(", ")}` : "",
        groupsAt(obs.units, pl.id).map((gr) => groupWords(ctx, gr)).join("; "), battleAt === pl.id ? "battle here" : ""].filter(Boolean).join(", ");
      const g = svg("g", { class: `${cls}${battleAt === pl.id ? " battle" : ""}`, "data-planet": pl.id,
        // on a phone the popover of actions opens beside the planet: the facts card stays
        // for hover and focus
        onclick: (e) => { if (!big) ctx.facts?.(facts(), true); clickPoint(pl.id)(e); },
        onmouseenter: () => big || ctx.facts?.(facts()), onmouseleave: () => ctx.facts?.(null), onfocus: () => big || ctx.facts?.(facts()) },
      svg("circle", { cx: q.x, cy: q.y, r, class: owned(state.owner) ? `seat-fill-${state.owner % 6}` : "neutral" }),
      svg("text", { x: q.x, y: q.y + 4, "text-anchor": "middle", class: `planet-id${owned(state.owner) ? " on-seat" : ""}` }, pl.id),
      svg("title", {}, summary));
      if (owned(state.owner)) g.append(place("common", `seat-${seatShape(state.owner)}`, q.x - r - 4, q.y - r - 6, 13, `seat-c-${state.owner % 6}`));
      if (pl.huge) g.append(place(SHEET, "huge", q.x + r - 6, q.y + r - 10, 12));
      if (state.tile) g.append(place(SHEET, state.value === null ? "tile-hidden" : `tile-${state.tile}`, q.x + r + 1, q.y - r - 3, 15));
      (state.upgrades ?? []).slice(0, 3).forEach((u, i) => g.append(place(SHEET, u, q.x - r - 15, q.y - r + 9 + i * 13, 12, "upgrade")));
      if (big) {
        // the planet's quarter of the system below the space strip is its tap area
        const i = s.planets.indexOf(pl);
        const right = PLANET_SPOTS[i % PLANET_SPOTS.length][0] > 0.5;
        const lower = PLANET_SPOTS[i % PLANET_SPOTS.length][1] > 0.5;
        const split = p.top + ((PLANET_SPOTS[0][1] + PLANET_SPOTS[2][1]) / 2) * CELL_H;
        const y0 = lower ? split : p.top + STRIP_H + 2;
        const y1 = lower ? p.top + CELL_H - 4 : split;
        g.append(hit(right ? p.left + CELL_W / 2 : p.left + 4, y0, CELL_W / 2 - 4, y1 - y0));
      }
      root.append(g, ...unitChips(obs.units, pl.id, { x: q.x, y: q.y + r + 4 }, ctx));
      if (battleAt === pl.id) root.append(battleMark(q.x - 11, q.y - r - 26));
    }
  }
  for (const b of layout.borders) {
    const p = pos[b.id];
    const hot = targets.has(b.id) ? " target" : ctx.selected === b.id ? " selected" : "";
    const diamond = { x: p.x - 6, y: p.y - 6, width: 12, height: 12, transform: `rotate(45 ${p.x} ${p.y})`, class: `border${hot}` };
    if (big) {
      root.append(svg("g", { class: `place${hot}`, "data-point": b.id, onclick: clickPoint(b.id) },
        svg("rect", { ...diamond, x: p.x - 9, y: p.y - 9, width: 18, height: 18 }), hit(p.x - HIT / 2, p.y - HIT / 2, HIT, HIT), svg("title", {}, `border ${b.id}`)));
    } else {
      root.append(svg("rect", { ...diamond, "data-point": b.id, onclick: clickPoint(b.id) }, svg("title", {}, `border ${b.id}`)));
    }
    root.append(...unitChips(obs.units, b.id, { x: p.x + 28, y: p.y - 20 }, ctx, 1));
    if (battleAt === b.id) root.append(battleMark(p.x - 11, p.y - 34));
  }
  for (const w of layout.wormholes) {
    const p = pos[w.id];
    const hot = targets.has(w.id) ? " target" : ctx.selected === w.id ? " selected" : "";
    if (big) {
      root.append(svg("g", { class: `place${hot}`, "data-point": w.id, onclick: clickPoint(w.id) },
        svg("circle", { cx: p.x, cy: p.y, r: 10, class: `wormhole${hot}` }), hit(p.x - HIT / 2, p.y - HIT / 2, HIT, HIT), svg("title", {}, `wormhole ${w.id}`)));
    } else {
      root.append(svg("circle", { cx: p.x, cy: p.y, r: 7, class: `wormhole${hot}`, "data-point": w.id, onclick: clickPoint(w.id) }, svg("title", {}, `wormhole ${w.id}`)));
    }
  }
  root.addEventListener("click", () => ctx.select(null));
  ctx.board.replaceChildren(root);
  drawPanels(view, ctx);
}

// The battle symbol on a red disc, at (x, y), 22 by 22.
function battleMark(x, y) {
  return svg("g", { class: "battle-mark" }, svg("circle", { cx: x + 11, cy: y + 11, r: 13 }), place("common", "battle", x, y, 22),
    svg("title", {}, "a battle is being fought here"));
}

function panel(ctx, title, ...body) {
  const { el } = ctx;
  return el("section", { class: "card" }, el("h2", {}, title), ...body);
}

function drawPanels(view, ctx) {
  const { el, layout } = ctx;
  const obs = view.observation;
  const out = [];
  const empires = el("table", { class: "empires" }, el("tr", {}, ...["seat", "faction", "res.", "income", "VP", "cards"].map((h) => el("th", {}, h))));
  for (const p of obs.players) {
    const faction = layout.factions[p.faction];
    const name = el("td", {}, faction?.name ?? "-");
    if (faction) ctx.tip(name, faction.text);
    empires.append(el("tr", { class: obs.current_player === p.seat ? "waiting" : "" },
      el("th", { scope: "row" }, seatMark(p.seat), ` P${p.seat}`),
      name, el("td", {}, p.resources), el("td", {}, p.income), el("td", {}, `${p.vp}/${obs.target_vp}`), el("td", {}, p.hand_size)));
  }
  out.push(panel(ctx, `Round ${obs.round}: ${obs.phase_words ?? obs.phase}`, empires, el("p", { class: "muted" }, `OCC deck ${obs.deck_size} cards, discard ${obs.discard.length}`)));
  if (obs.faction_offer) {
    const f = layout.factions[obs.faction_offer];
    out.push(panel(ctx, "Faction offered", el("p", {}, el("strong", {}, f?.name ?? obs.faction_offer)), el("p", {}, f?.text ?? "")));
  }
  const me = view.you !== null ? obs.players[view.you] : null;
  if (me?.hand) {
    const cards = me.hand.map((id) => {
      const c = layout.cards[id];
      // the card's name and when it is played, in words; its id only as a tooltip
      const card = el("li", { class: "occ", "data-card": id, title: id, onclick: () => ctx.select(id, c?.name ?? id) },
        el("strong", {}, c?.name ?? id), el("small", { class: "muted" }, c?.when ? ` ${c.when}` : ""), el("p", {}, c?.text ?? ""));
      return card;
    });
    out.push(panel(ctx, `Your OCC-cards (${me.hand.length})`, cards.length ? el("ul", { class: "cards" }, ...cards) : el("p", { class: "muted" }, "none")));
  }
  if (obs.battle) {
    const b = obs.battle;
    const rows = b.combatants.map((f) => el("tr", {},
      el("td", {}, f.side === 0 ? "attacker" : "defender"),
      el("td", {}, layout.units[f.kind] || layout.upgrades[f.kind] ? icon(SHEET, f.kind, { size: 16 }) : "", ` ${layout.units[f.kind]?.name ?? layout.upgrades[f.kind]?.name ?? f.kind}`),
      el("td", {}, `${f.lp}/${f.lp_max} LP`), el("td", {}, `${f.shields}/${f.shields_max} sh`),
      el("td", {}, f.weapons.join("/"))));
    const battle = panel(ctx, `Battle at ${b.at} (${b.kind})`,
      el("p", {}, icon("common", "battle", { size: 18 }), " ", seatMark(b.attacker), ` P${b.attacker} attacks `, seatMark(b.defender), ` P${b.defender}; ${b.phase} range phase`),
      b.pending ? el("p", {}, `waiting: ${b.pending.join(" ")}`) : "",
      location.pathname.startsWith("/games/") ? el("p", {}, el("a", { class: "odds-link", href: `/odds?from=${encodeURIComponent(location.pathname.split("/").pop())}`, target: "_blank", rel: "noopener" }, "open in the battle calculator")) : "",
      el("div", { class: "scroll-x" }, el("table", { class: "battle" }, el("tr", {}, ...["side", "unit", "life", "shields", "weapons (close/mid/long)"].map((h) => el("th", { scope: "col" }, h))), ...rows)));
    battle.classList.add("battle-panel");
    out.push(battle);
  }
  ctx.panels.replaceChildren(...out);
}
