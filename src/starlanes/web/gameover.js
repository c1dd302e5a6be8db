// The game-over dialog: who won and why in plain words (a result the server decided says
// what it was: "P2 (Bob) resigned", "drawn by agreement", "aborted by ... before they
// moved"), the scores (scoreNodes: each seat's total and result - won, lost, draw,
// resigned, lost on time - and the score by source when the game reports one: the
// result's "breakdown", one {source: points} per seat; a table on wide screens, a card per
// seat on a phone; the replay viewer shows the same), the key moments in words, and the
// replay and rematch buttons.
import { el } from "./dom.js";
import { seatMark } from "./seats.js";

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
  // a replay's result has no words per seat: won or lost, by the winners
  const seatResult = (seat) => r.results?.[seat] ?? (r.winners.includes(seat) ? "won" : r.winners.length ? "lost" : "");
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
