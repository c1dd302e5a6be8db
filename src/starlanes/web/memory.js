// What changed: the last move of every seat (listed with the seat's mark and highlighted on
// the board where it names a drawn object), a summary of the log lines since this seat's
// last decision when the decision comes back to it, and the live region that announces
// whose turn it is and the newest move to screen readers.
import { el } from "./dom.js";
import { seatMark } from "./seats.js";
import { OBJECT_ATTRS } from "./boardkeys.js";

// Which seat a log line is about: a line starting with a seat's label or "P<n>", or naming
// "(P<n>)" in its first words; null for lines about nobody in particular.
export function seatOfLine(line, seats) {
  for (const s of seats) {
    if (s.label && line.startsWith(s.label)) return s.seat;
  }
  const m = line.match(/^P(\d+)\b/) ?? line.slice(0, 24).match(/\(P(\d+)\)/);
  return m ? Number(m[1]) : null;
}

// The newest log line of every seat: [{seat, line}] in seat order (seats without one left out).
export function lastMoves(view) {
  const out = new Map();
  for (let i = view.log.length - 1; i >= 0 && out.size < view.seats.length; i -= 1) {
    const seat = seatOfLine(view.log[i], view.seats);
    if (seat !== null && !out.has(seat)) out.set(seat, view.log[i]);
  }
  return [...out.entries()].sort((a, b) => a[0] - b[0]).map(([seat, line]) => ({ seat, line }));
}

// Board objects named by a line's words ("B2b", "#17", "card#37"): highlighted with the
// seat's colour. Returns how many were marked.
export function highlight(board, moves) {
  for (const n of board.querySelectorAll(".last-move")) n.classList.remove("last-move", ...[0, 1, 2, 3, 4, 5].map((i) => `last-seat-${i}`));
  let marked = 0;
  for (const { seat, line } of moves) {
    for (const raw of line.split(/[\s,;:()]+/)) {
      const word = raw.replace(/^#/, "").replace(/[.!]$/, "");
      if (!word || word.length > 40) continue;
      for (const attr of OBJECT_ATTRS) {
        for (const n of board.querySelectorAll(`[${attr}="${CSS.escape(word)}"]`)) {
          n.classList.add("last-move", `last-seat-${seat % 6}`);
          marked += 1;
        }
      }
    }
  }
  return marked;
}

export function drawLastMoves(list, view) {
  const moves = lastMoves(view);
  list.replaceChildren(...(moves.length ? moves.map(({ seat, line }) => el("li", { "data-seat": seat }, seatMark(seat), " ", line))
    : [el("li", { class: "muted" }, "no moves yet")]));
  return moves;
}

// The lines since this seat last decided: kept per game in sessionStorage as the log
// length when its decision was last taken.
export class Since {
  constructor(gameId) {
    this.key = `starlanes:since:${gameId}`;
    this.wasMine = null;
  }

  update(view, box) {
    const mine = Boolean(view.your_turn);
    let mark = null;
    try { mark = JSON.parse(sessionStorage.getItem(this.key) ?? "null"); } catch { mark = null; }
    if (!mine && this.wasMine) {
      try { sessionStorage.setItem(this.key, JSON.stringify(view.log_total)); } catch { /* no storage */ }
    }
    if (mine && mark !== null && view.log_total > mark) {
      const first = view.log.length - (view.log_total - mark);
      const lines = view.log.slice(Math.max(0, first)).filter((l) => seatOfLine(l, view.seats) !== view.you);
      if (lines.length && this.wasMine !== true) {
        box.replaceChildren(el("h2", {}, "Since your last turn"),
          el("ul", { class: "since-list" }, ...lines.slice(-8).map((l) => {
            const seat = seatOfLine(l, view.seats);
            return el("li", {}, seat !== null ? seatMark(seat) : "", " ", l);
          })),
          lines.length > 8 ? el("p", { class: "muted" }, `and ${lines.length - 8} earlier line(s) in the log`) : "");
        box.hidden = false;
      }
    }
    if (!mine) box.hidden = true;
    this.wasMine = mine;
  }
}

// The live region's text for a view: whose turn and the newest move.
export function announcement(view) {
  const turn = view.result ? "The game is over." : view.your_turn ? "Your turn." : `Waiting for ${view.waiting_label}.`;
  const last = view.log.length ? ` Last move: ${view.log[view.log.length - 1]}.` : "";
  return `${turn}${last}`;
}
