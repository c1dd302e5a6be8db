// The Galactic Empires table: each seat's fleet (Sector HQ with its damage, ships, bases,
// crew and equipment under the card they are attached to, terrain with its points), your
// hand and reserve fleet, the point pool; every card as a clean frame (name, empire, type,
// strength, shields, weapons, full text). Weapons fire is drawn as an arrow from the firer
// to the target; an open reaction or counter window is shown as a banner to the seat that
// may answer, with its pass button.
// Every card shows the number the notation and the banners use (#34), its type's symbol
// and its weapons' symbols; the fire arrow runs in the gaps between cards, never over text.
import { svg } from "../dom.js";
import { seatMark, seatWords } from "../seats.js";
import { explainWithSymbols, icon } from "../symbols.js";

const SHEET = "galactic-empires";

// "Scout #34" for a unit number or card word; "P1's Sector HQ" for HQ1.
function cardName(ctx, target) {
  const t = String(target);
  if (/^HQ\d+$/.test(t)) return `${seatWords(Number(t.slice(2)))}'s Sector HQ`;
  const unit = ctx.view.observation.units.find((u) => String(u.id) === t);
  if (unit) return `${cardOf(ctx, unit.card).name} #${unit.id}`;
  const [id, num] = t.split("#");
  return num ? `${cardOf(ctx, id).name} #${num}` : cardOf(ctx, id).name;
}

export function actionSymbol(item, ctx) {
  for (const w of item.notation.split(/\s+/)) {
    const id = w.split("#")[0];
    const c = ctx.layout.cards[id];
    if (c?.type) return [SHEET, `type-${c.type}`];
  }
  return null;
}

function cardOf(ctx, name) {
  const id = String(name).split("#")[0];
  return ctx.layout.cards[id] ?? { name: id, type_name: "", text: "", empire: "", weapons: "" };
}

function cardFrame(ctx, word, extra = {}) {
  const { el } = ctx;
  const c = cardOf(ctx, word);
  const weapons = [...(c.weapons || "")].map((w) => ctx.layout.weapons[w] ?? w).join(", ");
  const stats = [c.strength ? `strength ${c.strength}` : "", c.shields ? `shields ${c.shields}` : ""].filter(Boolean).join(" \u00b7 ");
  const weaponIcons = [...(c.weapons || "")].map((w) => icon(SHEET, `weapon-${w}`, { size: 14, label: ctx.layout.weapons[w] ?? w }));
  const number = String(word).includes("#") ? `#${String(word).split("#")[1]}` : "";
  const pts = (p, label) => (Object.keys(p || {}).length ? `${label} ${Object.entries(p).map(([k, v]) => `${v} ${k}`).join(", ")}` : "");
  const live = ctx.view.legal.some((a) => a.notation.split(/\s+/).includes(word));
  const frame = el("div", { class: `ge-card type-${c.type}${live && ctx.view.your_turn ? " live" : ""}${ctx.selected === word ? " selected" : ""}`, "data-card": word,
    onclick: (e) => { e.stopPropagation(); ctx.select(word, c.name); } },
  el("div", { class: "ge-head" }, c.type ? icon(SHEET, `type-${c.type}`, { size: 16 }) : "", " ", el("strong", {}, c.name), number ? el("span", { class: "ge-num" }, ` ${number}`) : "",
    el("span", { class: "muted" }, ` ${c.type_name}${c.empire && c.empire !== "generic" ? ` \u00b7 ${c.empire}` : ""}`)),
  stats || weapons ? el("div", { class: "ge-stats" }, stats, weapons ? el("span", { class: "ge-weapons" }, stats ? " \u00b7 weapons " : "weapons ", ...weaponIcons, ` ${weapons}`) : "") : "",
  extra.state ? el("div", { class: "ge-state" }, extra.state) : "",
  el("div", { class: "ge-text" }, [pts(c.requires, "needs"), pts(c.generates, "gives")].filter(Boolean).join("; ")),
  el("div", { class: "ge-text" }, c.text || ""));
  ctx.tip(frame, `${c.name} (${word}). ${c.text || ""}`);
  return frame;
}

function unitState(u) {
  const bits = [];
  if (u.damage) bits.push(`${u.damage} damage`);
  if (u.shield_damage) bits.push(`${u.shield_damage} shield damage`);
  if (u.permanent) bits.push(`${u.permanent} permanent`);
  if (u.ammo) bits.push(`${u.ammo} ammo`);
  if (u.charge) bits.push(`charged ${u.charge}`);
  if (u.engaged) bits.push("engaged");
  if (u.against >= 0) bits.push(`against P${u.against}'s fleet`);
  return bits.join(", ");
}

const TYPES = { S: "ship", O: "occurrence", T: "terrain", E: "equipment", C: "crew", B: "base", H: "hazard", M: "monster", D: "space dragon", Q: "Sector HQ" };

// The card types and weapons with their symbols, as explanations name them ("terrain",
// "a ship or base", "phaser").
function terms(layout) {
  return [...Object.entries(TYPES).map(([k, name]) => ({ sheet: SHEET, id: `type-${k}`, words: [name] })),
    ...Object.entries(layout.weapons ?? {}).map(([k, name]) => ({ sheet: SHEET, id: `weapon-${k}`, words: [name] }))];
}

export function setup(ctx) {
  explainWithSymbols(terms(ctx.layout));
  ctx.legend.replaceChildren(
    "Each row is a seat's fleet: its Sector HQ (damage against the limit), then its cards in play; crew and equipment sit inside the card they are attached to. ",
    "Every seat has a colour and a shape. Cards with a gold edge can act now: tap a card to see its actions. Each card shows its number (#34), the one actions and banners name. ",
    "An orange arrow shows weapons fire from the firer to its target; the target shows the damage coming.",
  );
  ctx.legend.append(ctx.el("ul", { class: "symbol-list" },
    ...Object.entries(TYPES).map(([k, n]) => ctx.el("li", {}, icon(SHEET, `type-${k}`, { size: 20 }), ` ${n} card`)),
    ...Object.entries(ctx.layout.weapons).map(([k, n]) => ctx.el("li", {}, icon(SHEET, `weapon-${k}`, { size: 20 }), ` ${n} (weapon)`))));
}

export function draw(view, ctx) {
  if (!view) return;
  const { el } = ctx;
  const obs = view.observation;
  const wrap = el("div", { class: "ge-table" });
  const banner = windowBanner(view, ctx);
  if (banner) wrap.append(banner);
  const byHost = new Map();
  for (const u of obs.units) if (u.host >= 0) byHost.set(u.host, [...(byHost.get(u.host) ?? []), u]);
  for (const p of obs.players) {
    const row = el("section", { class: `ge-fleet seat-${p.seat}${obs.current_player === p.seat ? " waiting" : ""}`, "data-seat": p.seat });
    const share = Math.min(1, p.hq_damage / (ctx.layout.hq_limit || 1));
    const hq = el("div", { class: "ge-card ge-hq", "data-card": `HQ${p.seat}`, onclick: (e) => { e.stopPropagation(); ctx.select(`HQ${p.seat}`, `P${p.seat}'s Sector HQ`); } },
      el("div", { class: "ge-head" }, seatMark(p.seat, 16), " ", icon(SHEET, "type-Q", { size: 16 }), el("strong", {}, ` P${p.seat} Sector HQ`)),
      el("div", { class: "ge-stats" }, `damage ${p.hq_damage} of ${ctx.layout.hq_limit}`),
      el("div", { class: `ge-damage${share >= 0.75 ? " severe" : ""}`, role: "img", "aria-label": `damage ${p.hq_damage} of ${ctx.layout.hq_limit}` },
        el("span", { style: { width: `${Math.round(share * 100)}%` } })),
      el("div", { class: "ge-text" }, `${p.alive ? "" : "destroyed \u00b7 "}hand ${p.hand_size}, reserve ${p.reserve_size}${p.major ? ` \u00b7 ${ctx.layout.empires[p.major]?.name ?? p.major}` : ""}`));
    const cards = el("div", { class: "ge-row" }, hq);
    for (const u of obs.units.filter((x) => x.owner === p.seat && x.host < 0)) {
      const word = `${u.card}#${u.id}`;
      const frame = cardFrame(ctx, word, { state: unitState(u) });
      frame.dataset.unit = u.id;
      // crew and equipment under the card they are attached to (siblings in one stack, so
      // that each card is its own button)
      const stack = el("div", { class: "ge-stack" }, frame);
      for (const a of byHost.get(u.id) ?? []) {
        const sub = cardFrame(ctx, `${a.card}#${a.id}`, { state: unitState(a) });
        sub.classList.add("attached");
        sub.dataset.unit = a.id;
        stack.append(sub);
      }
      cards.append(stack);
    }
    row.append(cards);
    wrap.append(row);
  }
  const me = view.you !== null ? obs.players[view.you] : null;
  if (me?.hand) {
    wrap.append(el("h3", {}, `Your hand (${me.hand.length})`), el("div", { class: "ge-row" }, deckPile(view, ctx, me), ...me.hand.map((w) => cardFrame(ctx, w))));
    wrap.append(el("h3", {}, `Your reserve fleet (${me.reserve.length})`), el("div", { class: "ge-row" }, ...me.reserve.map((w) => cardFrame(ctx, w))));
  }
  wrap.addEventListener("click", () => ctx.select(null));
  ctx.board.replaceChildren(wrap);
  requestAnimationFrame(() => drawFire(obs, ctx, wrap));
  drawPanels(view, ctx);
}

// The seat's draw deck beside its hand: tapping it offers the draws of the turn's end.
const DRAWS = new Set(["draw", "celebrate"]);
function deckPile(view, ctx, me) {
  const { el } = ctx;
  const left = view.observation.deck_sizes?.[me.seat ?? view.you];
  const live = view.your_turn && view.legal.some((a) => DRAWS.has(a.notation.split(" ")[0]));
  return el("div", { class: `ge-card ge-deck${live ? " live" : ""}${ctx.selected === "deck" ? " selected" : ""}`, "data-object": "deck", "data-verbs": [...DRAWS].join(" "),
    onclick: (e) => { e.stopPropagation(); ctx.select("deck", "your draw deck"); } },
  el("div", { class: "ge-head" }, el("strong", {}, "Your draw deck")), el("div", { class: "ge-stats" }, left === undefined ? "" : `${left} cards left`),
  el("div", { class: "ge-text" }, live ? "Tap to draw and end your turn." : "Cards are drawn at the end of your turn."));
}

// The actions a tap on the deck offers: the draws.
export function boardActions(objectId, view) {
  if (objectId !== "deck") return null;
  return { items: view.legal.filter((a) => DRAWS.has(a.notation.split(" ")[0])), hint: "" };
}

// A reaction or counter window: who may answer, what they answer, and the pass.
function windowBanner(view, ctx) {
  const { el } = ctx;
  const obs = view.observation;
  const kinds = obs.decisions ?? [];
  const open = kinds.length && ["react", "counter"].includes(kinds[kinds.length - 1]);
  if (!open) return null;
  const what = obs.pending ? `${obs.pending.kind}${obs.pending.card ? ` of ${cardOf(ctx, obs.pending.card).name}` : ""} at ${cardName(ctx, obs.pending.target)}` : "the last play";
  const word = kinds[kinds.length - 1] === "react" ? "reaction" : "counter";
  if (!view.your_turn) return el("div", { class: "ge-window" }, `A ${word} window is open against ${what}: waiting for ${view.waiting_label}.`);
  const pass = view.legal.find((a) => !["react", "counter"].includes(a.notation.split(" ")[0]));
  return el("div", { class: "ge-window yours" }, el("strong", {}, `You may play a ${word} against ${what}. `),
    "Pick one of your cards with a gold edge, or ",
    pass ? el("button", { type: "button", class: "pass", "data-notation": pass.notation, onclick: (e) => { e.stopPropagation(); ctx.play(pass.notation); } }, pass.notation === "pass" ? "pass" : `pass (${pass.notation})`) : "");
}

function drawFire(obs, ctx, wrap) {
  // The fire being answered: from the firing fleet (its picked weapons' cards when the
  // observation names them) to the target.
  const p = obs.pending;
  if (!p || p.kind !== "fire") return;
  const firer = (obs.picks ?? []).map((pk) => wrap.querySelector(`[data-unit="${pk[0]}"]`)).find(Boolean);
  const from = firer ?? wrap.querySelector(`.ge-fleet[data-seat="${obs.turn}"] .ge-hq`);
  const to = /^HQ/.test(String(p.target)) ? wrap.querySelector(`[data-card="${p.target}"]`) : wrap.querySelector(`[data-unit="${p.target}"]`);
  if (!from || !to) return;
  const box = wrap.getBoundingClientRect();
  const a = from.getBoundingClientRect();
  const b = to.getBoundingClientRect();
  // The arrow runs in the gaps: up out of the firer's top edge into the gap above it, along
  // that gap to the left lane, along the lane to the gap above the target, along it and
  // down into the target's top edge; it crosses no card's text.
  const lane = 6;
  const x1 = a.left + a.width / 2 - box.left;
  const y1 = a.top - box.top;
  const x2 = b.left + b.width / 2 - box.left;
  const y2 = b.top - box.top;
  const g1 = y1 - 4;
  const g2 = y2 - 4;
  const d = Math.abs(g1 - g2) < 2 ? `M${x1},${y1} V${g1} H${x2} V${y2}` : `M${x1},${y1} V${g1} H${lane} V${g2} H${x2} V${y2}`;
  const layer = svg("svg", { class: "ge-arrows", width: box.width, height: box.height, "aria-hidden": "true" },
    svg("defs", {}, svg("marker", { id: "ge-head", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto" }, svg("path", { d: "M0,0 L10,5 L0,10 z", fill: "#ff9f1a" }))),
    svg("path", { d, class: "ge-fire", fill: "none", "marker-end": "url(#ge-head)" }));
  wrap.append(layer);
  to.classList.add("under-fire");
  to.prepend(ctx.el("div", { class: "ge-incoming" }, `incoming fire: ${p.damage} damage`));
}

function drawPanels(view, ctx) {
  const { el } = ctx;
  const obs = view.observation;
  const pool = Object.entries(obs.pool).map(([k, v]) => el("tr", {}, el("td", {}, k), el("td", {}, v)));
  ctx.panels.replaceChildren(el("section", { class: "card" },
    el("h2", {}, "Round ", `${obs.round}: `, seatMark(obs.turn), ` P${obs.turn}'s turn, ${obs.phase_words ?? obs.phase}`),
    el("p", {}, `Plays left: ${obs.plays}; deck ${obs.deck_sizes.join("/")} cards`),
    el("h3", {}, "Point pool"), el("table", { class: "empires" }, ...pool)));
}
