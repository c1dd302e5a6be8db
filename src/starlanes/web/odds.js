// The battle calculator (/odds): pick a game, click units into each fleet (with damage and
// carried units), set the game's techs, cards, rule options and policies, and the odds are
// asked for at once (POST /api/odds). The page knows no game: the units and settings come
// from the game's form (GET /api/odds/form/GAME).
//
// The set-up lives in the address's hash (#game=..&a=..&d=..&s=JSON), so the address shares
// it. /odds?from=GAME_ID opens the battle the player's seat is in at that table: the seat's
// token is read from this browser's storage (where the table keeps it), never from the
// address, and the server answers from that seat's own knowledge; &action=NOTATION opens the
// battle that legal action of the seat would start.
import { call } from "./api.js";
import { el } from "./dom.js";

const $ = (id) => document.getElementById(id);
const SIDES = ["attacker", "defender"];
const LABELS = {
  attacker_wins: "attacker wins (destroys the defender)",
  defender_retreats: "defender retreats (attacker wins)",
  defender_wins: "defender wins (destroys the attacker)",
  attacker_retreats: "attacker retreats (defender wins)",
  mutual_destruction: "both destroyed",
};

const page = {
  games: [],
  game: "",
  form: null,
  fleets: { attacker: [], defender: [] }, // [{id, damage, count}] in the order clicked
  refused: { attacker: [], defender: [] }, // fleet entries a link held that were left out, with why
  settings: {},
  asked: 0,
  report: null,
  timer: null,
  retry: null, // the timer that asks again after a busy refusal
};

// ------------------------------------------------------------------ fleets as text
const label = (e) => (e.damage ? `${e.id}/${e.damage}` : e.id);
const fleetText = (side) => page.fleets[side].map((e) => (e.count > 1 ? `${e.count} ${label(e)}` : label(e))).join(", ");

// A fleet from a shared link or a table: every entry it cannot take is kept in
// page.refused[side] with the reason, and named beside that fleet (drawFleets), never
// dropped without a word.
function readFleet(text, side) {
  const out = [];
  const refused = [];
  const title = page.games.find((g) => g.id === page.game)?.title ?? page.game;
  for (const part of (text || "").split(",").map((p) => p.trim()).filter(Boolean)) {
    const m = part.match(/^(?:([-+]?\d+)\s*x?\s+)?([a-z_][a-z0-9_]*)(?:\/([-+]?\d+))?$/i);
    if (!m) {
      refused.push(`"${part}" cannot be read (write e.g. "3 fighter", or "2 carrier/1" for two carriers with 1 damage)`);
      continue;
    }
    const count = Number(m[1] ?? 1);
    const id = m[2].toLowerCase();
    const damage = Number(m[3] || 0);
    const unit = page.form?.units.find((u) => u.id === id);
    if (count < 0) refused.push(`"${part}" has a negative count: a count is a whole number of at least 1`);
    else if (count === 0) refused.push(`"${part}" has no units: a count is a whole number of at least 1`);
    else if (!unit) refused.push(`"${part}": ${title} has no unit "${id}"`);
    else if (damage < 0 || damage > unit.max_damage) refused.push(`"${part}": a ${unit.name} takes from 0 to ${unit.max_damage} damage`);
    else {
      const same = out.find((e) => e.id === id && e.damage === damage);
      if (same) same.count += count;
      else out.push({ id, damage, count });
      continue;
    }
  }
  page.refused[side] = refused;
  return out;
}

// ------------------------------------------------------------------ address
function saveAddress() {
  const params = new URLSearchParams({ game: page.game, a: fleetText("attacker"), d: fleetText("defender"), s: JSON.stringify(page.settings) });
  history.replaceState(null, "", `/odds#${params}`);
  $("share").value = location.href;
}

function readAddress() {
  const params = new URLSearchParams(location.hash.slice(1));
  let settings = {};
  try { settings = JSON.parse(params.get("s") || "{}"); } catch { settings = {}; }
  return { game: params.get("game"), a: params.get("a") || "", d: params.get("d") || "", settings };
}

// ------------------------------------------------------------------ the form
async function chooseGame(game, preset = null) {
  page.game = game;
  $("game").value = game;
  page.form = await call("GET", `/api/odds/form/${encodeURIComponent(game)}`);
  $("form-help").textContent = page.form.help || "";
  page.settings = {};
  for (const s of page.form.settings) page.settings[s.name] = s.default;
  if (preset) {
    for (const [k, v] of Object.entries(preset.settings || {})) if (k in page.settings) page.settings[k] = v;
    page.fleets.attacker = readFleet(preset.a, "attacker");
    page.fleets.defender = readFleet(preset.d, "defender");
  } else {
    page.fleets = { attacker: [], defender: [] };
    page.refused = { attacker: [], defender: [] };
  }
  drawForm();
  changed();
}

function drawForm() {
  for (const side of SIDES) {
    const palette = $(`palette-${side}`);
    palette.replaceChildren();
    const groups = [...new Set(page.form.units.map((u) => u.group))];
    for (const group of groups) {
      palette.append(el("span", { class: "group-label" }, group === "ground" ? "ground units (carried in a space battle)" : `${group}s`));
      for (const u of page.form.units.filter((x) => x.group === group)) {
        palette.append(el("button", { type: "button", "data-side": side, "data-unit": u.id, title: u.stats, onclick: () => add(side, u.id) }, u.name));
      }
    }
    const box = $(`settings-${side}`);
    box.replaceChildren(...page.form.settings.filter((s) => s.side === side).map(settingNode));
  }
  $("settings-both").replaceChildren(...page.form.settings.filter((s) => !s.side).map(settingNode));
  drawFleets();
  document.body.dataset.game = page.game;
}

function settingNode(s) {
  const id = `setting-${s.name}`;
  const tag = s.group && s.group !== "battle" ? el("span", { class: "tag" }, s.group) : "";
  let input;
  if (s.kind === "choice") {
    input = el("select", { id, "data-setting": s.name, onchange: (ev) => {
      const c = s.choices[ev.target.selectedIndex];
      page.settings[s.name] = c.value;
      changed();
    } }, ...s.choices.map((c) => el("option", { value: String(c.value) }, c.label)));
    input.selectedIndex = Math.max(0, s.choices.findIndex((c) => c.value === page.settings[s.name]));
  } else if (s.kind === "int") {
    input = el("input", { id, type: "number", min: s.minimum, max: s.maximum, step: 1, value: page.settings[s.name], "data-setting": s.name, oninput: (ev) => {
      const v = Number(ev.target.value);
      if (Number.isInteger(v)) { page.settings[s.name] = v; changed(); }
    } });
  } else {
    const chosen = new Set(page.settings[s.name] || []);
    input = el("span", { class: "many", id, "data-setting": s.name }, ...s.choices.map((c) => {
      const box = el("input", { type: "checkbox", value: c.value, "data-choice": c.value, onchange: (ev) => {
        const now = new Set(page.settings[s.name] || []);
        if (ev.target.checked) now.add(c.value); else now.delete(c.value);
        page.settings[s.name] = [...now];
        changed();
      } });
      box.checked = chosen.has(c.value);
      return el("label", {}, box, ` ${c.label}`);
    }));
  }
  return el("div", { class: "setting", title: s.help || "" }, tag, el("label", { for: id }, s.label), input);
}

function add(side, id, damage = 0) {
  const same = page.fleets[side].find((e) => e.id === id && e.damage === damage);
  if (same) same.count += 1;
  else page.fleets[side].push({ id, damage, count: 1 });
  drawFleets();
  changed();
}

function drawFleets() {
  for (const side of SIDES) {
    const list = $(`fleet-${side}`);
    const units = Object.fromEntries(page.form.units.map((u) => [u.id, u]));
    list.replaceChildren(...page.fleets[side].map((e, i) => {
      const u = units[e.id];
      const more = el("button", { type: "button", "aria-label": `one more ${u.name}`, "data-more": label(e), onclick: () => { e.count += 1; drawFleets(); changed(); } }, "+");
      const less = el("button", { type: "button", "aria-label": `one ${u.name} less`, "data-less": label(e), onclick: () => {
        e.count -= 1;
        if (e.count <= 0) page.fleets[side].splice(i, 1);
        drawFleets();
        changed();
      } }, "−");
      let damage = "";
      if (u.max_damage > 0) {
        damage = el("select", { "aria-label": `damage of ${u.name}`, "data-damage": label(e), onchange: (ev) => {
          e.damage = Number(ev.target.value);
          const twin = page.fleets[side].find((o) => o !== e && o.id === e.id && o.damage === e.damage);
          if (twin) { twin.count += e.count; page.fleets[side].splice(page.fleets[side].indexOf(e), 1); }
          drawFleets();
          changed();
        } }, ...Array.from({ length: u.max_damage + 1 }, (_, d) => el("option", { value: d }, d ? `${d} damage` : "undamaged")));
        damage.value = String(e.damage);
      }
      return el("li", { "data-entry": label(e) }, el("span", { class: "count" }, String(e.count)), el("span", { class: "name", title: u.stats }, `${u.name}${u.group === "ground" ? " (carried in space)" : ""}`), damage, less, more);
    }));
    $(`empty-${side}`).hidden = page.fleets[side].length > 0;
    const refused = page.refused[side] ?? [];
    $(`refused-${side}`).textContent = refused.length ? `Left out of the ${side}'s fleet: ${refused.join("; ")}.` : "";
  }
}

// ------------------------------------------------------------------ odds
function changed() {
  saveAddress();
  clearTimeout(page.timer);
  page.timer = setTimeout(ask, 120);
}

// A refusal because the calculator is busy (429 with Retry-After) is asked again by itself
// after the seconds the server names, a few times, while the set-up is still the latest.
const BUSY_TRIES = 4;
const BUSY_LONGEST = 30;

async function ask(again = 0) {
  clearTimeout(page.retry);
  const asked = again ? page.asked : ++page.asked;
  $("error").textContent = "";
  if (!page.fleets.attacker.length) {
    showReport(null);
    $("status").textContent = "Add units to the attacker to see the odds.";
    return;
  }
  $("status").textContent = "computing...";
  try {
    const report = await call("POST", "/api/odds", { game: page.game, attacker: fleetText("attacker"), defender: fleetText("defender"), settings: page.settings });
    if (asked !== page.asked) return; // a newer set-up was asked since
    $("status").textContent = "";
    showReport(report);
  } catch (e) {
    if (asked !== page.asked) return;
    if (e.retryAfter > 0 && e.retryAfter <= BUSY_LONGEST && again < BUSY_TRIES) {
      $("status").textContent = `The calculator is busy with other players' battles: asking again in ${e.retryAfter} s.`;
      document.body.dataset.odds = "waiting";
      page.retry = setTimeout(() => { if (asked === page.asked) ask(again + 1); }, e.retryAfter * 1000);
      return;
    }
    $("status").textContent = "";
    showReport(null);
    $("error").textContent = e.message;
  }
}

const pct = (p) => `${(100 * p).toFixed(2)}%`;

function showReport(r) {
  page.report = r;
  const body = $("outcomes").tBodies[0];
  $("least").hidden = !r;
  if (!r) {
    body.replaceChildren();
    $("method").textContent = "";
    $("survivors").replaceChildren();
    document.body.dataset.odds = "none";
    return;
  }
  const mc = r.method !== "exact";
  const row = (key, name, p, se, cls = "") => el("tr", { class: cls }, el("td", {}, name),
    el("td", { class: "p", "data-p": key }, pct(p)), el("td", { class: "p muted" }, mc ? `± ${pct(se)}` : ""));
  const se = (p) => (r.trials ? Math.sqrt(p * (1 - p) / r.trials) : 0);
  body.replaceChildren(
    row("attacker_total", "attacker wins (total)", r.attacker_win_total, se(r.attacker_win_total), "total"),
    row("defender_total", "defender wins (total)", r.defender_win_total, se(r.defender_win_total), "total"),
    ...Object.entries(LABELS).map(([k, name]) => row(k, name, r.outcomes[k] ?? 0, r.stderr?.[k] ?? 0)));
  $("method").textContent = (mc ? `Monte Carlo estimate from ${r.trials} battles (± one standard error)` : `exact${r.states ? ` (${r.states} battle states)` : ""}`)
    + `; ${Object.entries(r.policies || {}).map(([k, v]) => `${k.replace("_", " ")}: ${v}`).join("; ")}` + (r.note ? `. ${r.note}` : "");
  $("survivors").replaceChildren(...SIDES.map((side, i) => {
    const counts = Object.entries(r.survivor_counts[i]).map(([n, p]) => [Number(n), p]).sort((a, b) => a[0] - b[0]);
    return el("div", { class: side, "data-survivors": side }, el("h3", {}, `${side} units left`),
      ...counts.map(([n, p]) => el("div", { class: "bar-row" }, el("span", {}, `${n} left`),
        el("span", { class: "bar-track" }, el("span", { class: "bar-fill", style: { width: `${(100 * p).toFixed(1)}%`, display: "block" } })),
        el("span", { class: "p", "data-count": `${side}-${n}` }, pct(p)))));
  }));
  showLeast();
  document.body.dataset.odds = "ready";
}

function showLeast() {
  const r = page.report;
  if (!r) return;
  const side = Number($("least-side").value);
  const typed = $("least-n").value.trim();
  // only a whole number of 0 or more is a number of units; anything else is named
  if (!/^\d+$/.test(typed)) {
    $("least-n").setAttribute("aria-invalid", "true");
    $("least-p").textContent = "-";
    $("least-error").textContent = typed ? `"${typed}" is not a number of units: type a whole number of 0 or more.` : "Type a number of units: a whole number of 0 or more.";
    return;
  }
  $("least-n").removeAttribute("aria-invalid");
  $("least-error").textContent = "";
  const table = r.survivors_at_least[side];
  $("least-p").textContent = pct(table[String(Number(typed))] ?? 0);
}

// ------------------------------------------------------------------ start
async function fromTable(gameId, action) {
  let token = null;
  try { token = JSON.parse(localStorage.getItem(`starlanes:${gameId}`) ?? "null")?.token ?? null; } catch { token = null; }
  const origin = $("origin");
  origin.hidden = false;
  if (!token) {
    origin.textContent = "This browser holds no seat at that game, so its battle cannot be read: open the calculator from your seat's table.";
    return null;
  }
  const query = action ? `?${new URLSearchParams({ action })}` : "";
  const answer = await call("GET", `/api/odds/position/${encodeURIComponent(gameId)}${query}`, undefined, token);
  if (!answer.position) {
    origin.textContent = action ? `"${action}" starts no battle for your seat now; set one up below.` : `Your seat is in no battle at game ${gameId} right now; set one up below.`;
    return { game: answer.game, preset: null };
  }
  origin.textContent = (action ? `The battle "${action}" would start at game ${gameId}` : `The battle your seat is in at game ${gameId}`) + ", as your seat sees it. Change anything to explore.";
  const p = answer.position;
  return { game: answer.game, preset: { a: p.attacker, d: p.defender, settings: p.settings } };
}

async function start() {
  const answer = await call("GET", "/api/odds/games");
  page.games = answer.games;
  $("game").replaceChildren(...page.games.map((g) => el("option", { value: g.id }, g.title)));
  $("game").addEventListener("change", (ev) => chooseGame(ev.target.value));
  $("least-n").addEventListener("input", showLeast);
  $("least-side").addEventListener("change", showLeast);
  $("copy").addEventListener("click", () => navigator.clipboard?.writeText($("share").value));
  $("clear").addEventListener("click", () => { page.fleets = { attacker: [], defender: [] }; page.refused = { attacker: [], defender: [] }; drawFleets(); changed(); });
  const query = new URLSearchParams(location.search);
  const from = query.get("from");
  if (from) {
    const got = await fromTable(from, query.get("action") || "").catch((e) => { $("error").textContent = e.message; return null; });
    if (got && page.games.some((g) => g.id === got.game)) {
      await chooseGame(got.game, got.preset);
      return;
    }
  }
  const saved = readAddress();
  const game = page.games.some((g) => g.id === saved.game) ? saved.game : page.games.find((g) => g.id === "rift-domination")?.id ?? page.games[0]?.id;
  if (game) await chooseGame(game, saved.game === game ? saved : null);
}

start().catch((e) => { $("error").textContent = e.message; });
