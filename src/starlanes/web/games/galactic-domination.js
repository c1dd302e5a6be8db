// The Galactic Domination table: the five zones by three sectors as SVG with each sector's
// capacity, both fleets (hull, shields, action points), miners on planets, black holes,
// the deep space box with its explorers, and the minerals and dark matter of each seat.
// Clicking a ship lists its actions and highlights the sectors and ships they aim at.
import { svg } from "../dom.js";

const CW = 200;
const CH = 150;
const TOP = 30;
const SEAT_COLOURS = ["#d9534f", "#3b82c4"];
const SEAT_SHAPES = ["circle", "square"];
const ZONE_FILLS = { red: "#3a1f22", orange: "#3a2c1a", green: "#1d3322", blue: "#1b2a3d", purple: "#2d2140" };

function sectorPos(layout) {
  const pos = {};
  layout.zones.forEach((z, zi) => z.sectors.forEach((s, ri) => {
    pos[s] = { x: zi * CW, y: TOP + ri * CH };
  }));
  return pos;
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

function shipBadge(ship, x, y, ctx, hot) {
  const u = ctx.layout.units[ship.kind] ?? { letter: "?", name: ship.kind };
  const colour = SEAT_COLOURS[ship.owner] ?? "#888";
  const sel = ctx.selected === String(ship.id);
  const cls = `gd-ship${sel ? " selected" : ""}${hot ? " target" : ""}${ship.attached ? " attached" : ""}`;
  const shape = SEAT_SHAPES[ship.owner] === "circle"
    ? svg("circle", { cx: x + 14, cy: y + 14, r: 14, fill: colour })
    : svg("rect", { x, y, width: 28, height: 28, rx: 3, fill: colour });
  const g = svg("g", { class: cls, "data-ship": ship.id, onclick: (e) => { e.stopPropagation(); onShip(ship, ctx); } },
    svg("rect", { x: x - 2, y: y - 2, width: 92, height: 32, rx: 4, class: "gd-hit" }),
    shape,
    svg("text", { x: x + 14, y: y + 19, "text-anchor": "middle", class: "gd-letter" }, u.letter),
    svg("text", { x: x + 32, y: y + 10, class: "gd-stat" }, `#${ship.id} H${ship.hull} S${ship.shields}`),
    svg("text", { x: x + 32, y: y + 24, class: "gd-stat" }, `AP ${ship.ap}${ship.attached ? " mining" : ""}${ship.charge ? ` charge ${ship.charge}` : ""}`),
    svg("title", {}, `P${ship.owner}'s ${u.name} #${ship.id}: hull ${ship.hull}, shields ${ship.shields}, ${ship.ap} AP left${ship.attached ? ", attached to the planet (mining)" : ""}. ${u.text ?? ""}`));
  return g;
}

function onShip(ship, ctx) {
  const view = ctx.view;
  if (ctx.selected && ctx.selected !== String(ship.id) && targetsOf(view, ctx.selected).ships.has(ship.id)) {
    ctx.select(`${ctx.selected} ${ship.id}`, `#${ctx.selected} at #${ship.id}`);
    return;
  }
  const u = ctx.layout.units[ship.kind];
  ctx.select(String(ship.id), `${u?.name ?? ship.kind} #${ship.id}`);
}

export function setup(ctx) {
  ctx.pos = sectorPos(ctx.layout);
  const kinds = Object.values(ctx.layout.units).map((u) => `${u.letter} ${u.name.toLowerCase()}`).join(", ");
  ctx.legend.replaceChildren(
    `Ships show their type letter (${kinds}), number, hull (H), shields (S) and action points. `,
    "P0's ships are red circles, P1's blue squares. A sector holds at most ", `${ctx.layout.capacity}`,
    " ships (miners do not count); the corner shows how many are in it. A dark disc is a black hole. ",
    "Click a ship to see its moves, attacks and specials: the sectors and ships they aim at light up; click one of them to narrow the list.",
  );
}

export function draw(view, ctx) {
  if (!view) return;
  const obs = view.observation;
  const { layout } = ctx;
  const pos = ctx.pos;
  const width = layout.zones.length * CW;
  const deepY = TOP + 3 * CH + 10;
  const root = svg("svg", { viewBox: `-4 -4 ${width + 8} ${deepY + 120}`, class: "gd-board", role: "img", "aria-label": "Galactic Domination board" });
  const t = ctx.selected && /^\d+$/.test(ctx.selected) ? targetsOf(view, ctx.selected) : { sectors: new Set(), ships: new Set() };
  const holes = new Set(obs.black_holes ?? []);
  for (const [a, b] of layout.links) {
    root.append(svg("line", { x1: pos[a].x + CW / 2, y1: pos[a].y + CH / 2, x2: pos[b].x + CW / 2, y2: pos[b].y + CH / 2, class: "gd-link" }));
  }
  layout.zones.forEach((z, zi) => {
    const start = obs.start_zone?.indexOf(z.colour);
    root.append(svg("text", { x: zi * CW + 8, y: 20, class: "gd-zone" }, `${z.colour} zone${start >= 0 ? ` (P${start}'s start)` : ""}`));
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
        if (ctx.selected && hot) ctx.select(`${ctx.selected} ${s}`, `#${ctx.selected} to ${s}`);
        else ctx.select(s, `sector ${s}`);
      } },
      svg("rect", { x: p.x + 3, y: p.y + 3, width: CW - 6, height: CH - 6, rx: 10, fill: ZONE_FILLS[z.colour] ?? "#222" }),
      svg("text", { x: p.x + 12, y: p.y + 22, class: "system-id" }, s),
      svg("text", { x: p.x + CW - 12, y: p.y + 22, "text-anchor": "end", class: `gd-load${load >= layout.capacity ? " full" : ""}` }, `${load}/${layout.capacity}`,
        svg("title", {}, `${load} of ${layout.capacity} places taken (miners do not count)`)),
      svg("circle", { cx: p.x + CW - 26, cy: p.y + CH - 24, r: 12, class: "gd-planet" }, svg("title", {}, `the planet of ${s}: attached miners gather minerals`)));
      if (holes.has(s)) cell.append(svg("circle", { cx: p.x + CW / 2, cy: p.y + CH / 2, r: 30, class: "gd-hole" }, svg("title", {}, `a black hole: no ship may enter ${s}`)));
      root.append(cell);
      ships.forEach((ship, i) => {
        const x = p.x + 10 + (i % 2) * 95;
        const y = p.y + 30 + Math.floor(i / 2) * 30;
        shipLayer.push(shipBadge(ship, x, y, ctx, t.ships.has(ship.id)));
      });
    }
  }
  root.append(...shipLayer);
  root.append(svg("rect", { x: 3, y: deepY, width: width - 6, height: 110, rx: 10, class: "gd-deep" }),
    svg("text", { x: 14, y: deepY + 20, class: "gd-zone" }, "deep space (explorers away; they spin for minerals and dark matter when they return)"));
  obs.ships.filter((x) => x.at === "deep_space").forEach((ship, i) => {
    root.append(shipBadge(ship, 14 + i * 120, deepY + 34, ctx, t.ships.has(ship.id)));
  });
  root.addEventListener("click", () => ctx.select(null));
  ctx.board.replaceChildren(root);
  drawPanels(view, ctx);
}

function drawPanels(view, ctx) {
  const { el } = ctx;
  const obs = view.observation;
  const table = el("table", { class: "empires" }, el("tr", {}, ...["", "zone", "minerals", "dark matter", "ships"].map((h) => el("th", {}, h))));
  for (const seat of [0, 1]) {
    table.append(el("tr", { class: obs.current_player === seat ? "waiting" : "" },
      el("td", {}, el("span", { class: `swatch seat-${seat}` }), `P${seat} ${seat ? "(squares)" : "(circles)"}`),
      el("td", {}, obs.start_zone?.[seat] ?? ""), el("td", {}, obs.minerals[seat]), el("td", {}, obs.dark_matter[seat]),
      el("td", {}, obs.ships.filter((s) => s.owner === seat).length)));
  }
  const out = [el("section", { class: "card" }, el("h2", {}, `Round ${obs.round}: ${obs.phase}`), table,
    obs.active_ship >= 0 ? el("p", { class: "muted" }, `Ship acting now: #${obs.active_ship}`) : "")];
  const spins = view.log.filter((line) => / spins /.test(line));
  if (spins.length) {
    const last = spins[spins.length - 1];
    const seg = Object.entries(ctx.layout.spinner).find(([id]) => last.includes(` spins ${id}`));
    out.push(el("section", { class: "card spinner" }, el("h2", {}, "Spinner"), el("p", {}, el("strong", {}, last)),
      seg?.[1].text ? el("p", { class: "muted" }, seg[1].text) : ""));
  }
  ctx.panels.replaceChildren(...out);
}
