// The guided first game: a table opened with ?guide=1 follows the game's guide
// (/static/guides/<game>.json: a fixed seed, bots, and steps). Each step names the kinds of
// action it teaches ("kinds": the first word of their notation), one sentence of hint, the
// rule it comes from, and optionally the situation it waits for ("when": kinds of action of
// which one must be legal, default its own kinds) and whether it may be passed over
// ("optional": a lesson whose situation may never arise).
// The lessons come in order: on the seat's turn the guide shows the first lesson not yet
// learnt when its situation is here (an optional one whose situation is not here is passed
// over), outlines its actions in the list and the board objects the first of them names;
// otherwise it says the next lesson comes when its actions are possible. A lesson is learnt
// when one of its actions is played while it is shown. Progress is kept for the page's
// session.
import { el } from "./dom.js";
import { OBJECT_ATTRS } from "./boardkeys.js";

export async function loadGuide(game) {
  const response = await fetch(`/static/guides/${encodeURIComponent(game)}.json`);
  if (!response.ok) return null;
  return response.json();
}

const kindOf = (notation) => notation.split(/\s+/)[0];

export class Guide {
  constructor(data, gameId, box) {
    this.data = data;
    this.box = box;
    this.key = `starlanes:guide:${gameId}`;
    this.pos = Number(sessionStorage.getItem(this.key) ?? 0) || 0; // the first lesson not learnt
    this.current = null; // the lesson shown with its actions, or null
  }

  // done once every lesson left is optional
  get done() {
    return this.data.steps.slice(this.pos).every((s) => s.optional);
  }

  kindOf(notation) {
    return kindOf(notation);
  }

  // The lesson due in this view and the legal actions it teaches: { index, picks } (no
  // picks while its situation is not here), or null when only optional lessons are left
  // and none of them can be played now.
  due(view) {
    const steps = this.data.steps;
    const kinds = new Set(view.your_turn ? view.legal.map((a) => kindOf(a.notation)) : []);
    for (let i = this.pos; i < steps.length; i += 1) {
      const step = steps[i];
      const here = (step.when ?? step.kinds).some((k) => kinds.has(k));
      const picks = here ? view.legal.filter((a) => step.kinds.includes(kindOf(a.notation))) : [];
      if (picks.length) return { index: i, picks };
      if (!step.optional) return { index: i, picks: [] };
    }
    return null;
  }

  update(view, board) {
    for (const n of document.querySelectorAll(".guide-pick, .guide-spot")) n.classList.remove("guide-pick", "guide-spot");
    const steps = this.data.steps;
    const due = this.done ? null : this.due(view);
    this.current = due?.picks.length ? due.index : null;
    document.body.dataset.guide = this.done ? "done" : `step-${due?.index ?? this.pos}`;
    document.body.dataset.guideShown = this.current === null ? "" : String(this.current);
    const number = (due?.index ?? this.pos) + 1;
    const head = el("h2", {}, this.done ? "Guided game: done" : `Guided game: step ${Math.min(number, steps.length)} of ${steps.length}`);
    this.box.hidden = false;
    if (this.done) {
      this.box.replaceChildren(head, el("p", {}, this.data.done));
      return;
    }
    if (this.current === null) {
      const waiting = view.your_turn ? "Play any action for now: the next lesson comes when its actions are possible." : `The other seats are playing (waiting for ${view.waiting_label ?? "..."}).`;
      this.box.replaceChildren(head, el("p", { class: "muted" }, waiting));
      return;
    }
    const step = steps[this.current];
    this.box.replaceChildren(head, el("p", { class: "guide-hint" }, step.hint), el("p", {}, el("small", { class: "rule-id" }, `rule ${step.rule}`)));
    const wanted = new Set(due.picks.map((a) => a.notation));
    for (const b of document.querySelectorAll("#groups button.action")) if (wanted.has(b.dataset.notation)) b.classList.add("guide-pick");
    // the board objects the first action names: by the word its notation uses, or (a cell
    // of an action track, "0:colonise") by this seat and the word
    const selectors = [];
    for (const word of due.picks[0].notation.split(/[\s@:]+/).slice(1).map((w) => w.replace(/^#/, ""))) {
      if (!word) continue;
      for (const attr of OBJECT_ATTRS) selectors.push(`[${attr}="${CSS.escape(word)}"]`);
      if (view.you !== null && view.you !== undefined) selectors.push(`[data-track="${CSS.escape(`${view.you}:${word}`)}"]`);
    }
    if (selectors.length) for (const n of board.querySelectorAll(selectors.join(","))) n.classList.add("guide-spot");
  }

  // An action of this seat was played while step was shown (the next view may have come
  // in since): that step is learnt when the action was one of its kinds, and with it the
  // optional steps before it.
  played(notation, step) {
    if (step === null || step === undefined || this.done) return;
    if (this.data.steps[step].kinds.includes(kindOf(notation))) {
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
