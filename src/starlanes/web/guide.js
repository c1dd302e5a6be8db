// The guided first game: a table opened with ?guide=1 follows the game's guide
// (/static/guides/<game>.json: a fixed seed, bots, and steps). Each step names the kinds of
// action it teaches (the first word of their notation), one sentence of hint and the rule
// it comes from. On the seat's turn the guide shows the step whose actions are legal now,
// outlines those actions in the list and the board objects the first of them names; the
// step is learnt when one of its actions is played. Progress is kept for the page's session.
import { el } from "./dom.js";
import { OBJECT_ATTRS } from "./boardkeys.js";

export async function loadGuide(game) {
  const response = await fetch(`/static/guides/${encodeURIComponent(game)}.json`);
  if (!response.ok) return null;
  return response.json();
}

export class Guide {
  constructor(data, gameId, box) {
    this.data = data;
    this.box = box;
    this.key = `starlanes:guide:${gameId}`;
    this.pos = Number(sessionStorage.getItem(this.key) ?? 0) || 0;
    this.current = null;
  }

  get done() {
    return this.pos >= this.data.steps.length;
  }

  kindOf(notation) {
    return notation.split(/\s+/)[0];
  }

  // The step to show for this view: the first not yet learnt whose actions are legal.
  update(view, board) {
    for (const n of document.querySelectorAll(".guide-pick, .guide-spot")) n.classList.remove("guide-pick", "guide-spot");
    document.body.dataset.guide = this.done ? "done" : `step-${this.pos}`;
    const steps = this.data.steps;
    const head = el("h2", {}, this.done ? "Guided game: done" : `Guided game: step ${Math.min(this.pos + 1, steps.length)} of ${steps.length}`);
    if (this.done) {
      this.box.replaceChildren(head, el("p", {}, this.data.done));
      this.box.hidden = false;
      return;
    }
    this.current = null;
    let picks = [];
    if (view.your_turn) {
      for (let i = this.pos; i < steps.length; i += 1) {
        picks = view.legal.filter((a) => steps[i].kinds.includes(this.kindOf(a.notation)));
        if (picks.length) {
          this.current = i;
          break;
        }
      }
    }
    if (this.current === null) {
      const waiting = view.your_turn ? "Play any action for now: the next lesson comes when its actions are possible." : `The other seats are playing (waiting for ${view.waiting_label ?? "..."}).`;
      this.box.replaceChildren(head, el("p", { class: "muted" }, waiting));
      this.box.hidden = false;
      return;
    }
    const step = steps[this.current];
    this.box.replaceChildren(head, el("p", { class: "guide-hint" }, step.hint), el("p", {}, el("small", { class: "rule-id" }, `rule ${step.rule}`)));
    this.box.hidden = false;
    const wanted = new Set(picks.map((a) => a.notation));
    for (const b of document.querySelectorAll("#groups button.action")) if (wanted.has(b.dataset.notation)) b.classList.add("guide-pick");
    for (const word of picks[0].notation.split(/[\s@]+/).slice(1)) {
      for (const attr of OBJECT_ATTRS) {
        for (const n of board.querySelectorAll(`[${attr}="${CSS.escape(word.replace(/^#/, ""))}"]`)) n.classList.add("guide-spot");
      }
    }
  }

  // An action of this seat was played while step was shown (the next view may have come
  // in since): that step is learnt when the action was one of its kinds.
  played(notation, step) {
    if (step === null || step === undefined || this.done) return;
    if (this.data.steps[step].kinds.includes(this.kindOf(notation))) {
      this.pos = Math.max(this.pos, step + 1);
      try { sessionStorage.setItem(this.key, String(this.pos)); } catch { /* no storage */ }
    }
  }
}

// The lobby's "guided first game": the game is created with the guide's seed, options and
// bots, this browser takes seat 0, and the table opens with the guide.
export async function startGuidedGame(api, game, name) {
  const data = await loadGuide(game);
  if (!data) throw new Error("this game has no guided first game");
  const created = await api.create({
    game, players: data.players, seats: ["human", ...Array(data.players - 1).fill(data.bot)],
    seed: data.seed, options: data.options,
  });
  const joined = await api.join(created.id, name, 0);
  localStorage.setItem(`starlanes:${created.id}`, JSON.stringify({ token: joined.token, seat: 0 }));
  location.href = `/games/${encodeURIComponent(created.id)}?guide=1`;
}
