// The game-over dialog: who won and why in plain words (a result the server decided says
// what it was: "P2 (Bob) resigned", "drawn by agreement", "aborted by ... before they
// moved"), the scores (scoreNodes: each seat's total and result - won, lost, draw,
// resigned, lost on time - and the score by source when the game reports one: the
// result's "breakdown", one {source: points} per seat; a table on wide screens, a card per
// seat on a phone; the replay viewer shows the same), the key moments in words, and the
// replay and rematch buttons.
// A rematch is an offer to the same players (rematchOffers below): the other seats accept
// or decline it here or in "my games", and once all accepted every table moves to the new
// game with its new seat.
import { call } from "./api.js";
import { el } from "./dom.js";
import { seatMark } from "./seats.js";
import { me, send } from "./session.js";

// "fleet_destroyed" -> "a fleet was destroyed"-like plain words: the game's own words
// where its module gives them, else the reason with its underscores as spaces.
export function plainReason(reason, words = {}) {
  if (words[reason]) return words[reason];
  const text = String(reason || "finished").replace(/[_-]+/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// The first line when nobody won: a draw, a game that counts for nobody, or neither.
function nobodyWon(r) {
  const reason = r.outcome?.reason;
  if (reason === "draw") return "A draw: nobody won.";
  if (r.outcome && !r.outcome.ranks) return "Nobody won or lost: the game counts for nobody.";
  return "Nobody won.";
}

export function resultNodes(view, words) {
  const r = view.result;
  const winners = r.winners.map((w) => view.seats[w]);
  const head = winners.length
    ? el("p", { class: "winners" }, winners.length > 1 ? "Winners: " : "Winner: ", ...winners.flatMap((s, i) => [i ? " and " : "", seatMark(s.seat, 18), " ", el("strong", {}, s.label)]))
    : el("p", { class: "winners" }, nobodyWon(r));
  // a result the server decided (resigned, aborted, drawn, out of time) is already in
  // words, with the players' names as they are; the rules' reasons are the game's words
  const reason = r.outcome ? r.end_reason.charAt(0).toUpperCase() + r.end_reason.slice(1) : plainReason(r.end_reason, words);
  const why = el("p", { class: "end-reason" }, `How it ended: ${reason}.`);
  return [head, why, ...scoreNodes(view), ...momentNodes(view)];
}

// What each game's scores count, and its sources of points in plain words (the keys of
// the result's "breakdown"; a key not named here is read with its underscores as spaces).
const SCORE_WORDS = {
  "galactic-domination": {
    caption: "Fleet value: what the ships still in play cost, in minerals, by ship type",
    sources: { command: "Command Ships", explorer: "Explorers", miner: "Miner Ships", destroyer: "Destroyers", raider: "Raider Ships" },
  },
  "galactic-empires": {
    caption: "Sector HQ points: 25 at the start, less the damage each player did to it",
    sources: { "Sector HQ": "Sector HQ at the start", repairs: "repaired", "damage past the last point": "damage beyond zero (not counted)", eliminated: "lost when knocked out" },
  },
  "interstellar-ambitions": {
    caption: "Victory points, by where they came from",
    sources: { set_bonus: "all four planet types", medals: "fleet and shadow medals" },
  },
  "rift-domination": {
    caption: "Victory points, by where they came from",
    sources: { "huge planets": "central planets", "OCC cards": "OCC-cards" },
  },
};

// A source of points in words: the game's words for it, with a seat it names ("damage
// from P1") followed by that seat's label.
export function sourceWords(game, key, view) {
  const words = SCORE_WORDS[game]?.sources?.[key] ?? String(key).replace(/_/g, " ");
  return words.replace(/\bP(\d+)\b/g, (all, n) => view.seats[Number(n)]?.label ?? all);
}

// The scores: a table with a column per source of points (a row per seat, the best
// first); at phone widths the stylesheet lays each row out as a card of "source: points"
// lines (each cell carries its column's name in data-label; sources at 0 are left out
// there), so no column is cut.
export function scoreNodes(view) {
  const r = view.result;
  // a replay's result has no words per seat: won or lost by the winners (first place
  // shared by several is a draw for them, as the table says)
  const seatResult = (seat) => r.results?.[seat] ?? (r.winners.includes(seat)
    ? (r.winners.length > 1 ? "draw" : "won") : r.winners.length ? "lost" : "");
  const sources = r.breakdown ? [...new Set(r.breakdown.flatMap((b) => Object.keys(b ?? {})))] : [];
  const names = sources.map((k) => sourceWords(view.game, k, view));
  const order = view.seats.map((s) => s.seat).sort((a, b) => r.scores[b] - r.scores[a]);
  const cell = (label, text, extra = {}) => el("td", { "data-label": label, ...extra }, text);
  const table = el("table", { class: `scores${sources.length ? " by-source" : ""}` },
    el("caption", {}, sources.length ? (SCORE_WORDS[view.game]?.caption ?? "Scores, by where the points came from") : "Scores"),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "player"), ...names.map((name) => el("th", { scope: "col" }, name)),
      el("th", { scope: "col" }, "total"), el("th", { scope: "col" }, "result"))),
    el("tbody", {}, ...order.map((seat) => el("tr", { class: r.winners.includes(seat) ? "winner" : "" },
      el("th", { scope: "row" }, seatMark(seat), " ", view.seats[seat].label),
      ...sources.map((k, i) => {
        const points = r.breakdown[seat]?.[k] ?? 0;
        return cell(names[i], String(points), points ? {} : { class: "zero" });
      }),
      cell("total", String(r.scores[seat]), { class: "total" }), cell("result", seatResult(seat), { class: "result" })))));
  return [el("div", { class: "scroll-x scores-box", tabindex: "0", "aria-label": "scores" }, table)];
}

// The key moments (the result's "moments"): how often the lead changed hands, who took it
// last and when, and the biggest loss (or, where no score ever dropped, the biggest gain)
// in one move, with who chose that move and what it was, in words.
function momentNodes(view) {
  const m = view.result.moments;
  if (!m) return [];
  const label = (seat) => view.seats[seat]?.label ?? `seat ${seat}`;
  const items = [];
  const last = m.leads[m.leads.length - 1];
  if (m.lead_changes > 0) {
    items.push(el("li", {}, `The lead changed hands ${m.lead_changes === 1 ? "once" : `${m.lead_changes} times`}; last, ${label(last.seat)} took it at move ${last.move}.`));
  } else if (last) {
    items.push(el("li", {}, `${label(last.seat)} led from move ${last.move} on and never lost the lead.`));
  }
  const swing = m.largest_swing;
  if (swing) {
    const size = Math.abs(swing.points);
    const points = `${size} point${size === 1 ? "" : "s"}`;
    const what = swing.points < 0 ? `Biggest loss in one move: ${label(swing.seat)} lost ${points}` : `Biggest gain in one move: ${label(swing.seat)} gained ${points}`;
    const words = swing.label || swing.action;
    const who = swing.by === undefined || swing.by === null ? "the move was" : swing.by === swing.seat ? "they chose" : `${label(swing.by)} chose`;
    items.push(el("li", {}, `${what} at move ${swing.move}, when ${who} \u201c${words}\u201d.`));
  }
  return items.length ? [el("h3", {}, "Key moments"), el("ul", { class: "moments" }, ...items)] : [];
}

// ------------------------------------------------------------------ rematch offers
// Words for a rematch offer's state, as the player of seat `you` of the new game reads it.
export function offerWords(offer) {
  const waiting = offer.seats.filter((s) => s.answer === "open").map((s) => s.name);
  const rated = offer.rated ? "rated, " : "";
  const settings = `${offer.title}, ${rated}seats moved round one place`;
  switch (offer.status) {
    case "open":
      if (offer.your_answer === "open") return `${offer.from} offers a rematch (${settings}).`;
      return `Rematch offered (${settings}): waiting for ${waiting.join(" and ") || "the others"} to answer.`;
    case "starting":
    case "started":
      return "Everyone accepted: the rematch starts.";
    case "declined":
      return `No rematch: ${offer.reason ?? "it was declined"}.`;
    case "withdrawn":
      return `No rematch: ${offer.reason ?? "it was withdrawn"}.`;
    case "expired":
      return "No rematch: nobody answered in time.";
    default:
      return `No rematch: ${offer.reason ?? offer.status}.`;
  }
}

// The new seat of a started rematch, from the old seat's token (the server derives it) or,
// for an account whose seat has another link already, from the account ("my-seat").
async function newSeat(offer, token) {
  if (offer.token) return { token: offer.token, seat: offer.you };
  const { account } = await me();
  if (!account) return null;
  const seat = await send("POST", `/api/games/${encodeURIComponent(offer.game_id)}/my-seat`, { seat: offer.you });
  return { token: seat.token, seat: seat.seat };
}

// Move this page to the started rematch: its seat token kept in this browser for it.
export async function goToRematch(offer, token) {
  const seat = await newSeat(offer, token).catch(() => null);
  if (seat) localStorage.setItem(`starlanes:${offer.game_id}`, JSON.stringify(seat));
  location.href = `/games/${encodeURIComponent(offer.game_id)}`;
}

// The game-over dialog's rematch: offer it (button #rematch), accept or decline another
// seat's offer, withdraw one's own, and follow the offer (asked every few seconds while
// the finished game is open, less often after a quarter of an hour) until everyone
// accepted, then move to the new game. gameId: the finished game; seatToken() its seat's
// token (null for a spectator); currentView() the table's view.
export function rematchOffers(gameId, seatToken, currentView) {
  const $ = (id) => document.getElementById(id);
  const button = $("rematch");
  const error = $("rematch-error");
  const status = el("p", { id: "rematch-status", role: "status", class: "rematch-status" });
  const answers = el("p", { class: "dialog-buttons rematch-answers", hidden: "" });
  error.before(status, answers);
  let offer = null;
  let timer = null;
  let moving = false;
  const since = Date.now();
  const path = `/api/games/${encodeURIComponent(gameId)}/rematch`;
  const ask = (method, url) => call(method, url, method === "GET" ? undefined : {}, seatToken());

  function draw() {
    const open = offer?.status === "open";
    button.hidden = currentView()?.you === null || currentView()?.you === undefined || open;
    status.textContent = offer && offer.status !== "none" ? offerWords(offer) : "";
    const buttons = [];
    if (open && offer.your_answer === "open") {
      buttons.push(el("button", { type: "button", id: "rematch-accept", onclick: () => act("POST", `/api/rematches/${offer.id}/accept`) }, "accept the rematch"),
        el("button", { type: "button", id: "rematch-decline", onclick: () => act("POST", `/api/rematches/${offer.id}/decline`) }, "decline"));
    } else if (open && offer.mine) {
      buttons.push(el("button", { type: "button", id: "rematch-withdraw", class: "small", onclick: () => act("DELETE", `/api/rematches/${offer.id}`) }, "withdraw the offer"));
    }
    answers.replaceChildren(...buttons);
    answers.hidden = !buttons.length;
  }

  async function take(fresh) {
    const before = offer;
    offer = fresh;
    draw();
    if (offer.status === "started" && offer.game_id && !moving) {
      moving = true;
      await goToRematch(offer, seatToken());
      return;
    }
    // an offer that just arrived opens the dialog where the answer is
    const arrived = offer.status === "open" && offer.your_answer === "open" && before?.id !== offer.id;
    const dialog = $("gameover");
    if (arrived && dialog && !dialog.open) dialog.showModal();
  }

  async function act(method, url) {
    error.textContent = "";
    try {
      await take(await ask(method, url));
    } catch (e) {
      error.textContent = e.message;
      poll(true);
    }
  }

  async function poll(now = false) {
    clearTimeout(timer);
    if (!now && document.visibilityState === "hidden") {
      timer = setTimeout(poll, 5000);
      return;
    }
    try {
      await take(await ask("GET", path));
    } catch { /* not a seat (any more), or offline: try again later */ }
    if (moving) return;
    const quiet = offer?.status !== "open" && Date.now() - since > 15 * 60 * 1000;
    timer = setTimeout(poll, quiet ? 30000 : 3000);
  }

  button.addEventListener("click", () => act("POST", path));
  let started = false;
  const onView = (view) => {
    draw(); // after the table's own drawing of the dialog's buttons
    if (started || !view?.result || view.you === null || !seatToken()) return;
    started = true;
    poll(true);
  };
  document.addEventListener("starlanes:view", (e) => onView(e.detail.view));
  onView(currentView());
}
