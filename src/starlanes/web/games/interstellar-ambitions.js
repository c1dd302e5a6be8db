// The Interstellar Ambitions table: the action track (each seat's tokens by action and
// planning level, and its pool), the face-up research, planet and mercenary rows, every
// seat's tableau (planets with development level, techs, ships with damage, medals,
// resources), your Shadow hand, the ambitions and their claims; the fight in progress step
// by step with the secret combat order chosen by ordering your ships; the last shadow check
// with its dice.
// Seats are drawn in the colour of their Home World (seat 0 owns the Blue Home World...)
// and with their shape; cards and actions carry their symbols; dice are drawn as dice.
import { seatMark, seatWords } from "../seats.js";
import { explainWithSymbols, icon } from "../symbols.js";

const SHEET = "interstellar-ambitions";
const ACTIONS = ["colonise", "develop", "build", "research", "shadow", "fleet"];
const LEVELS = ["basic", "moderate", "strong", "ultimate"];
const HOME_COLOURS = ["blue", "red", "green", "yellow", "purple", "orange"];

export function seatColours() {
  return HOME_COLOURS;
}

function die(ctx, n) {
  return n >= 1 && n <= 6 ? icon("common", `die-${n}`, { size: 22, label: `die showing ${n}`, cls: "die" }) : ctx.el("span", {}, String(n));
}

// The symbol of a card by the table it comes from.
function symbolOf(ctx, table, id) {
  if (table === "planets") return ctx.layout.planets[id]?.type ?? "home";
  if (table === "ships") {
    const ship = ctx.layout.ships[id];
    return ship?.deck === "merc" ? "mercenary" : `ship-${ship?.class === "heavy" ? "heavy" : "light"}`;
  }
  return { techs: "tech", shadow: "shadow-card", ambitions: "ambition" }[table] ?? null;
}

// An action's symbol: the action of the track it names, else the card it names.
export function actionSymbol(item, ctx) {
  const words = item.notation.split(/[\s:.]+/);
  const act = words.find((w) => ACTIONS.includes(w));
  if (act) return [SHEET, act];
  for (const table of ["planets", "ships", "techs"]) {
    const id = words.find((w) => ctx.layout[table]?.[w]);
    if (id) return [SHEET, symbolOf(ctx, table, id)];
  }
  return null;
}

function named(ctx, table, id) {
  const entry = ctx.layout[table]?.[id];
  return entry?.name ?? id;
}

function chip(ctx, table, id, extra = "") {
  const { el } = ctx;
  const entry = ctx.layout[table]?.[id];
  const live = ctx.view.your_turn && ctx.view.legal.some((a) => a.notation.split(/[\s.]+/).includes(id));
  const sym = symbolOf(ctx, table, id);
  const c = el("span", { class: `ia-chip${live ? " live" : ""}`, "data-card": id, onclick: (e) => { e.stopPropagation(); ctx.select(id, entry?.name ?? id); } },
    sym ? icon(SHEET, sym, { size: 16 }) : "", `${entry?.name ?? id}${extra}`);
  if (entry) {
    const facts = [entry.vp ? `${entry.vp} VP` : "", entry.cost !== undefined && typeof entry.cost !== "object" ? `cost ${entry.cost}` : "",
      entry.combat !== undefined ? `combat ${entry.combat}, bombard ${entry.bombard}` : ""].filter(Boolean).join(", ");
    ctx.tip(c, `${entry.name}${facts ? ` (${facts})` : ""}. ${entry.text ?? ""}`);
  }
  return c;
}

// How far a seat is towards an ambition's condition, as [have, need], from its public
// tableau (the conditions are the content's; the engine decides who may claim).
const PLANET_TYPES = ["food", "ore", "science", "coin"];
function progress(ctx, p, amb) {
  const { planets, ships } = ctx.layout;
  const n = amb.n;
  const typeOf = (id) => planets[id]?.type;
  const measures = {
    planets: () => p.planets.length,
    max_planets: () => p.planets.filter((pl) => typeOf(pl.id) !== "home" && pl.level === pl.max).length,
    techs: () => p.techs.length,
    owned_techs: () => p.owned_techs.length,
    ships: () => p.ships.length,
    resources: () => Object.values(p.resources).reduce((a, b) => a + b, 0),
    all_types: () => PLANET_TYPES.filter((t) => p.planets.some((pl) => typeOf(pl.id) === t)).length,
    fleet_power: () => p.ships.reduce((a, s) => a + Math.max(0, (ships[s.id]?.combat ?? 0) - s.damage), 0),
    fleet_medals: () => p.medals.fleet,
    shadow_medals: () => p.medals.shadow,
    medals: () => p.medals.fleet + p.medals.shadow,
    raids_won: () => p.stats.raids_won,
    captures: () => p.stats.captures,
    techs_taken: () => p.stats.techs_taken,
    home_level: () => Math.max(0, ...p.planets.filter((pl) => typeOf(pl.id) === "home").map((pl) => pl.level)),
  };
  const f = measures[amb.condition];
  if (!f) return null;
  return [f(), amb.condition === "all_types" ? PLANET_TYPES.length : n];
}

// The resources, ship classes and ships with their symbols, as explanations name them
// ("3 FOOD", "a heavy ship", "hire 1 merc", "Strike Craft").
function terms(ctx) {
  const out = ["food", "ore", "science", "coin"].map((r) => ({ sheet: SHEET, id: r, words: [r] }));
  out.push({ sheet: SHEET, id: "ship-light", words: ["light ship"] }, { sheet: SHEET, id: "ship-heavy", words: ["heavy ship"] },
    { sheet: SHEET, id: "mercenary", words: ["mercenary", "merc"] });
  for (const [id, ship] of Object.entries(ctx.layout.ships ?? {})) if (ship.name) out.push({ sheet: SHEET, id: symbolOf(ctx, "ships", id), words: [ship.name] });
  return out;
}

export function setup(ctx) {
  ctx.orderPlan = [];
  explainWithSymbols(terms(ctx));
  ctx.legend.replaceChildren(
    "The action track shows, for every seat, the planning tokens it holds on each action (b/m/s/u: basic, moderate, strong, ultimate) and the empty tokens in its pool. ",
    "Every seat has its Home World's colour and a shape. Names with a gold edge appear in your legal actions: tap one, or a cell of the action track, to see them.",
  );
  ctx.legend.append(ctx.el("ul", { class: "symbol-list" }, ...[...ACTIONS.map((a) => [a, `${a} (action)`]), ["food", "food planet"], ["ore", "ore planet"], ["science", "science planet"],
    ["coin", "coin planet"], ["home", "home world"], ["ship-light", "light ship"], ["ship-heavy", "heavy ship"], ["mercenary", "mercenary"], ["tech", "tech"],
    ["shadow-card", "shadow card"], ["ambition", "ambition"], ["medal", "medal"]].map(([id, name]) => ctx.el("li", {}, icon(SHEET, id, { size: 20 }), ` ${name}`))));
}

function track(view, ctx) {
  const { el } = ctx;
  const obs = view.observation;
  const head = el("tr", {}, el("th", { scope: "col" }, "seat"), ...ACTIONS.map((a) => el("th", { scope: "col" }, icon(SHEET, a, { size: 16 }), ` ${a}`)), el("th", { scope: "col" }, "pool"));
  const live = new Set();
  if (view.your_turn) for (const x of view.legal) for (const w of x.notation.split(/[\s:]+/)) if (ACTIONS.includes(w)) live.add(w);
  const rows = obs.players.map((p) => {
    const cells = ACTIONS.map((a) => {
      const held = p.tokens.filter((t) => t.startsWith(`${a}:`)).map((t) => t.split(":")[1]);
      const words = held.length ? held.join(", ") : "no token";
      // every cell is a button: it shows the legal actions of that action of the track
      const mine = live.has(a) && p.seat === view.you;
      return el("td", {}, el("button", { type: "button", class: `ia-cell${mine ? " live" : ""}`, "data-track": `${p.seat}:${a}`,
        "aria-label": `${seatWords(p.seat)}, ${a}: ${words}${mine ? " (you may act here)" : ""}`,
        onclick: (e) => { e.stopPropagation(); ctx.select(a, `${a} on the action track`); } }, held.map((h) => h[0]).join(" ") || "\u00b7"));
    });
    return el("tr", { class: obs.current_player === p.seat ? "waiting" : "" },
      el("th", { scope: "row" }, seatMark(p.seat), ` P${p.seat}`), ...cells, el("td", {}, p.pool));
  });
  // whose decision it is, as the status says (at set-up the seat deciding is not the
  // seat whose turn the round is on)
  const deciding = view.waiting_label ? `waiting for ${view.waiting_for === view.you ? "you" : view.waiting_label}` : "game over";
  return el("section", { class: "ia-box" }, el("h3", {}, `Action track \u00b7 round ${obs.round}, step ${obs.step} \u00b7 ${deciding}`),
    el("div", { class: "scroll-x" }, el("table", { class: "ia-track" }, head, ...rows)));
}

function rows(view, ctx) {
  const { el } = ctx;
  const obs = view.observation;
  return el("section", { class: "ia-box" }, el("h3", {}, "Face-up rows"),
    el("p", {}, el("strong", {}, "Research: "), ...obs.tech_slots.map((t) => (t ? chip(ctx, "techs", t) : el("span", { class: "muted" }, "empty ")))),
    el("p", {}, el("strong", {}, "Planets: "), ...obs.planet_slots.map((slot, i) => el("span", { class: "ia-stack" }, `${i + 1}: `, ...slot.map((p) => (p ? chip(ctx, "planets", p) : el("span", { class: "muted" }, "empty ")))))),
    el("p", {}, el("strong", {}, "Mercenaries: "), ...obs.merc_slots.map((m) => (m ? chip(ctx, "ships", m) : el("span", { class: "muted" }, "empty ")))),
    el("p", { class: "muted" }, `Decks: shadow ${obs.deck_sizes.shadow}, tech ${obs.deck_sizes.tech}, merc ${obs.deck_sizes.merc}, colony ${obs.deck_sizes.colony}`));
}

function tableau(view, ctx, p) {
  const { el } = ctx;
  const obs = view.observation;
  const res = Object.entries(p.resources).map(([k, v]) => `${v} ${k}`).join(", ");
  const claims = obs.ambitions.filter((a) => a.claims.includes(p.seat)).map((a) => named(ctx, "ambitions", a.id));
  return el("section", { class: `ia-tableau${obs.current_player === p.seat ? " waiting" : ""}`, "data-seat": p.seat },
    el("h3", {}, seatMark(p.seat, 16), ` P${p.seat}${view.you === p.seat ? " (you)" : ""} \u00b7 ${view.scores[p.seat]} VP`),
    el("p", {}, res, ` \u00b7 medals: fleet ${p.medals.fleet}, shadow ${p.medals.shadow} \u00b7 shadow hand ${p.hand_size}`),
    el("p", {}, el("strong", {}, "Planets: "), ...p.planets.map((pl) => chip(ctx, "planets", pl.id, ` ${pl.level}/${pl.max}${pl.markers.length ? ` [${pl.markers.map((m) => named(ctx, "events", m)).join(", ")}]` : ""}`))),
    el("p", {}, el("strong", {}, "Techs: "), ...p.techs.map((t) => chip(ctx, "techs", t))),
    el("p", {}, el("strong", {}, "Ships: "), ...p.ships.map((s) => chip(ctx, "ships", s.id, s.damage ? ` (${s.damage} damage)` : ""))),
    claims.length ? el("p", {}, el("strong", {}, "Ambitions claimed: "), claims.join(", ")) : "");
}

function combat(view, ctx) {
  const { el } = ctx;
  const cb = view.observation.combat;
  if (!cb) return null;
  const side = (seat) => (seat === cb.attacker ? 0 : 1);
  const lines = [cb.attacker, cb.defender].map((seat) => {
    const order = cb.orders[String(seat)] ?? [];
    const chosen = cb.committed[String(seat)] ? "order chosen" : "choosing an order";
    return el("p", {}, el("strong", {}, `${seat === cb.attacker ? "Attacker" : "Defender"} P${seat}: `),
      cb.ships[side(seat)].map((s) => `${named(ctx, "ships", s.ship)}${s.damage ? ` (${s.damage} dmg)` : ""}${s.status ? " (out)" : ""}`).join(", "),
      el("br"), `${chosen}: ${order.length ? order.map((o) => (o === "face-down" ? "\u25a0 face down" : named(ctx, "ships", o))).join(" \u2192 ") : "-"}`);
  });
  const rolls = cb.rolls.length ? el("p", { class: "ia-dice" }, "Dice: ", ...cb.rolls.flatMap((r, i) => [i ? " | " : "", ...r.map((d) => die(ctx, d))]), ` \u00b7 totals ${cb.totals.join(" : ")}`) : "";
  const box = el("section", { class: "ia-box ia-combat" }, el("h3", {}, `${cb.kind} at level ${cb.level}: stage ${cb.stage}`), ...lines, rolls,
    location.pathname.startsWith("/games/") ? el("p", {}, el("a", { class: "odds-link", href: `/odds?from=${encodeURIComponent(location.pathname.split("/").pop())}`, target: "_blank", rel: "noopener" }, "open in the battle calculator")) : "");
  const pending = view.observation.pending;
  if (view.your_turn && pending?.kind === "order") {
    box.append(ctx.orderPlan.length ? el("p", {}, "placing your ships in the chosen order...") : orderPicker(view, ctx));
  }
  return box;
}

// The secret combat order: the seat orders its ships with up/down buttons, then the table
// plays the engine's "order <ship>" decisions one by one in that order.
function orderPicker(view, ctx) {
  const { el } = ctx;
  // every ship still to place, one line each (two alike ships are two lines)
  const cb = view.observation.combat;
  const mine = cb.ships[view.you === cb.attacker ? 0 : 1].filter((s) => s.status === 0);
  const placed = (cb.orders[String(view.you)] ?? []).length;
  const labels = mine.map((s) => (s.damage ? `${s.ship}/${s.damage}` : s.ship));
  const key = [...labels].sort().join(",");
  if (!ctx.orderDraft || ctx.orderKey !== key || placed) {
    const rest = [...labels];
    for (const id of cb.orders[String(view.you)] ?? []) {
      const i = rest.findIndex((l) => l.split("/")[0] === id);
      if (i >= 0) rest.splice(i, 1);
    }
    ctx.orderDraft = rest;
    ctx.orderKey = key;
  }
  const list = el("ol", { class: "ia-order" });
  const redraw = () => ctx.redraw();
  ctx.orderDraft.forEach((label, i) => {
    const move = (d) => () => {
      const j = i + d;
      if (j < 0 || j >= ctx.orderDraft.length) return;
      [ctx.orderDraft[i], ctx.orderDraft[j]] = [ctx.orderDraft[j], ctx.orderDraft[i]];
      redraw();
    };
    const [ship, dmg] = label.split("/");
    list.append(el("li", { "data-order": label }, `${named(ctx, "ships", ship)}${dmg ? ` (${dmg} damage)` : ""} `,
      el("button", { type: "button", class: "small", "aria-label": "earlier", "data-object": `earlier:${i}`, onclick: move(-1) }, "\u2191"),
      el("button", { type: "button", class: "small", "aria-label": "later", "data-object": `later:${i}`, onclick: move(1) }, "\u2193")));
  });
  return el("div", { class: "ia-order-box" }, el("p", {}, el("strong", {}, "Your secret combat order"), " (first fights first; the other side sees it once both have chosen):"), list,
    el("button", { type: "button", id: "confirm-order", onclick: () => { ctx.orderPlan = [...ctx.orderDraft]; ctx.orderDraft = null; advancePlan(ctx); } }, "confirm this order"));
}

function advancePlan(ctx) {
  const view = ctx.view;
  if (!ctx.orderPlan.length || !view.your_turn || view.observation.pending?.kind !== "order") return;
  if (ctx.planSeq === view.seq) return; // this view's decision is already on its way
  const next = ctx.orderPlan[0];
  if (!view.legal.some((a) => a.notation === `order ${next}`)) { ctx.orderPlan = []; return; }
  ctx.orderPlan = ctx.orderPlan.slice(1);
  ctx.planSeq = view.seq;
  const attempt = async () => {
    if (await ctx.play(`order ${next}`) === false) setTimeout(attempt, 50); // the last one is still on its way
  };
  setTimeout(attempt, 0);
}

function shadowCheck(view, ctx) {
  const { el } = ctx;
  const lines = view.log.filter((l) => /shadow check/.test(l));
  if (!lines.length) return null;
  const last = lines[lines.length - 1];
  const m = last.match(/rolled (\d)/);
  const dice = m ? die(ctx, Number(m[1])) : "";
  const discards = view.observation.discards.shadow.slice(-3).map((id) => named(ctx, "shadow", id));
  return el("section", { class: "ia-box" }, el("h3", {}, "Last shadow check"), el("p", { class: "ia-dice" }, dice, " ", last),
    el("p", { class: "muted" }, `Shadow discards (newest): ${discards.join(", ") || "none"}`));
}

export function draw(view, ctx) {
  if (!view) return;
  const { el } = ctx;
  ctx.redraw = () => draw(ctx.view, ctx);
  const obs = view.observation;
  const wrap = el("div", { class: "ia-table" }, track(view, ctx));
  const fight = combat(view, ctx);
  if (fight) wrap.append(fight);
  wrap.append(rows(view, ctx));
  const tableaux = el("div", { class: "ia-tableaux" }, ...obs.players.map((p) => tableau(view, ctx, p)));
  wrap.append(tableaux);
  // your shadow hand lies on the table: tap a card for its actions (play, discard...)
  const mine = view.you !== null ? obs.players[view.you] : null;
  if (mine?.hand) {
    wrap.append(el("section", { class: "ia-box ia-hand" }, el("h3", {}, `Your shadow hand (${mine.hand.length})`),
      mine.hand.length ? el("p", {}, ...mine.hand.map((id) => chip(ctx, "shadow", id))) : el("p", { class: "muted" }, "none")));
  }
  wrap.addEventListener("click", (e) => { if (e.target === wrap) ctx.select(null); });
  ctx.board.replaceChildren(wrap);
  const panels = [];
  panels.push(el("section", { class: "card" }, el("h2", {}, "Ambitions"),
    el("ul", {}, ...obs.ambitions.map((a) => {
      const amb = ctx.layout.ambitions[a.id] ?? {};
      const near = obs.players.map((p) => {
        const pr = progress(ctx, p, amb);
        return pr ? [seatMark(p.seat), `${Math.min(pr[0], pr[1])}/${pr[1]} `] : null;
      }).filter(Boolean).flat();
      const li = el("li", {}, el("strong", {}, named(ctx, "ambitions", a.id)), a.claims.length ? el("span", {}, " claimed by ", ...a.claims.flatMap((s, i) => [i ? ", " : "", seatMark(s), ` P${s}`])) : " unclaimed",
        near.length ? el("div", { class: "muted" }, "progress: ", ...near) : "");
      ctx.tip(li, ctx.layout.ambitions[a.id]?.text ?? "");
      return li;
    }))));
  const check = shadowCheck(view, ctx);
  if (check) panels.push(check);
  ctx.panels.replaceChildren(...panels);
  advancePlan(ctx);
}
