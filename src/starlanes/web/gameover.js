// The game-over dialog: who won and why in plain words (a result the server decided says
// what it was: "P2 (Bob) resigned", "drawn by agreement", "aborted by ... before they
// moved"), a table of the scores with headers and each seat's result (won, lost, draw,
// resigned, lost on time; the score by source when the game reports one: the result's
// "breakdown", one {source: points} per seat), and the replay and rematch buttons.
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
  const seatResult = (seat) => r.results?.[seat] ?? (r.winners.includes(seat) ? "won" : "");
  const sources = r.breakdown ? [...new Set(r.breakdown.flatMap((b) => Object.keys(b ?? {})))] : [];
  const order = view.seats.map((s) => s.seat).sort((a, b) => r.scores[b] - r.scores[a]);
  const table = el("table", { class: "scores" },
    el("caption", {}, sources.length ? "Scores, by where the points came from" : "Scores"),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "player"), ...sources.map((k) => el("th", { scope: "col" }, k.replace(/_/g, " "))),
      el("th", { scope: "col" }, "total"), el("th", { scope: "col" }, "result"))),
    el("tbody", {}, ...order.map((seat) => el("tr", { class: r.winners.includes(seat) ? "winner" : "" },
      el("th", { scope: "row" }, seatMark(seat), " ", view.seats[seat].label),
      ...sources.map((k) => el("td", {}, String(r.breakdown[seat]?.[k] ?? 0))),
      el("td", {}, String(r.scores[seat])), el("td", {}, seatResult(seat))))));
  return [head, why, el("div", { class: "scroll-x", tabindex: "0", "aria-label": "scores" }, table), ...momentNodes(view)];
}

// The key moments (the result's "moments"): how often the lead changed hands, who took it
// last and when, and the heaviest blow (or, where no score ever dropped, the largest gain)
// in one decision.
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
    const points = swing.points > 0 ? `+${swing.points}` : `\u2212${-swing.points}`;
    const what = swing.points < 0 ? "Heaviest blow" : "Largest gain";
    items.push(el("li", {}, `${what}: ${label(swing.seat)} ${points} at move ${swing.move} (`, el("code", {}, swing.action), ")."));
  }
  return items.length ? [el("h3", {}, "Key moments"), el("ul", { class: "moments" }, ...items)] : [];
}
