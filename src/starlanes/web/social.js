// Friends and challenges: the challenge form (a player by name, the game, its options, a
// time control, rated or not), the list of followed players (online, playing and where to
// watch, or offline) and the lobby's two panels (#friends-box, #challenges-box) for a
// logged-in player. profile.js uses the form and the list on a player's profile.
import { call } from "./api.js";
import { el } from "./dom.js";
import { me, send } from "./session.js";
import { myOffers, offerItem, openStarted } from "./offers.js";

// Time controls a challenge offers (the rated ones meet the server's least rated clocks:
// 5 minutes a player for the game, or 30 seconds a turn, by default).
export const CLOCKS = [
  { id: "none", words: "no clock", clock_seconds: 0, clock_kind: "move", clock_increment: 0, timeout: "bot" },
  { id: "rapid", words: "10 minutes a player, +5 s a turn (the loser on time loses)", clock_seconds: 600, clock_kind: "game", clock_increment: 5, timeout: "lose" },
  { id: "blitz", words: "5 minutes a player (the loser on time loses)", clock_seconds: 300, clock_kind: "game", clock_increment: 0, timeout: "lose" },
  { id: "turn", words: "1 minute a turn (a bot decides when it runs out)", clock_seconds: 60, clock_kind: "move", clock_increment: 0, timeout: "bot" },
  { id: "daily", words: "1 day a turn, correspondence (a bot decides when it runs out)", clock_seconds: 86400, clock_kind: "move", clock_increment: 0, timeout: "bot" },
];

let catalogue = null;
async function games() {
  if (!catalogue) catalogue = await call("GET", "/api/catalogue");
  return catalogue.games;
}

function optionInput(spec) {
  const attrs = { "data-option": spec.name, title: spec.help || undefined };
  if (spec.kind === "bool") return el("input", { type: "checkbox", ...attrs, checked: spec.default ? "" : undefined });
  if (spec.choices?.length) {
    const select = el("select", attrs, ...spec.choices.map((c) => el("option", { value: String(c) }, String(c))));
    select.value = String(spec.default);
    return select;
  }
  if (spec.kind === "int" || spec.kind === "float") {
    return el("input", { type: "number", ...attrs, value: String(spec.default ?? ""), min: spec.minimum ?? undefined, max: spec.maximum ?? undefined, step: spec.kind === "int" ? "1" : "any" });
  }
  return el("input", { ...attrs, value: String(spec.default ?? "") });
}

function chosen(spec, input) {
  if (input.type === "checkbox") return input.checked;
  if (spec.kind === "int") return Number.parseInt(input.value, 10);
  if (spec.kind === "float") return Number(input.value);
  return input.value;
}

// The challenge form. name: the player challenged (a fixed name on a profile), or null
// for a name field (the lobby); onSent(challenge) once the server took it.
export async function challengeForm(name, onSent) {
  const list = await games();
  const who = name === null
    ? el("input", { id: "challenge-name", required: "", maxlength: "32", placeholder: "a player's name", autocomplete: "off" })
    : null;
  const more = el("input", { id: "challenge-more", maxlength: "300", placeholder: "more players' names, with commas (optional)", autocomplete: "off" });
  const game = el("select", { id: "challenge-game" }, ...list.map((g) => el("option", { value: g.id }, g.title)));
  game.value = list.some((g) => g.id === "rift-domination") ? "rift-domination" : list[0]?.id;
  const options = el("div", { class: "challenge-options" });
  const drawOptions = () => {
    const g = list.find((x) => x.id === game.value);
    options.replaceChildren(...(g?.options ?? []).map((o) => el("label", {}, `${o.name.replace(/_/g, " ")} `, optionInput(o))));
  };
  game.addEventListener("change", drawOptions);
  drawOptions();
  const clock = el("select", { id: "challenge-clock" }, ...CLOCKS.map((c) => el("option", { value: c.id }, c.words)));
  clock.value = "rapid";
  const rated = el("input", { id: "challenge-rated", type: "checkbox" });
  const error = el("p", { class: "error", role: "alert", id: "challenge-error" });
  const done = el("p", { role: "status", id: "challenge-result" });
  const form = el("form", { class: "challenge-form account-form", id: "challenge-form", onsubmit: async (event) => {
    event.preventDefault();
    error.textContent = "";
    done.textContent = "";
    const g = list.find((x) => x.id === game.value);
    const opts = {};
    for (const input of options.querySelectorAll("[data-option]")) {
      const spec = g.options.find((o) => o.name === input.dataset.option);
      const value = chosen(spec, input);
      if (String(value) !== String(spec.default)) opts[spec.name] = value;
    }
    const names = [name ?? who.value.trim(), ...more.value.split(",").map((n) => n.trim()).filter(Boolean)];
    const c = CLOCKS.find((x) => x.id === clock.value);
    try {
      const challenge = await send("POST", "/api/challenges", {
        names, game: game.value, options: opts, rated: rated.checked,
        clock_seconds: c.clock_seconds, clock_kind: c.clock_kind, clock_increment: c.clock_increment, timeout: c.timeout,
      });
      done.textContent = `Challenge sent to ${names.join(" and ")}: it waits for the answer.`;
      onSent?.(challenge);
    } catch (e) {
      error.textContent = e.message;
    }
  } },
  who ? el("label", {}, "Player ", who) : null,
  el("label", {}, "Game ", game),
  el("details", { class: "challenge-more" }, el("summary", {}, "more players and options"), el("label", {}, "More players ", more), options),
  el("label", {}, "Time control ", clock),
  el("label", { class: "check" }, rated, " Rated"),
  el("button", { type: "submit", class: "small", id: "challenge-send" }, name ? `challenge ${name}` : "send the challenge"),
  done, error);
  return form;
}

// The followed players: each with its status and, when playing, where to watch.
export function friendItems(following) {
  if (!following.length) return [el("li", { class: "muted" }, "You follow nobody yet: follow players from their profile.")];
  return following.map((f) => el("li", { class: `friend friend-${f.status}`, "data-name": f.name },
    el("span", { class: `presence presence-${f.status}`, "aria-hidden": "true" }),
    el("a", { href: `/players/${encodeURIComponent(f.name)}` }, f.name), " ",
    el("span", { class: "muted" }, f.status),
    ...f.games.flatMap((g) => [" · ", el("a", { href: g.url, class: "watch" }, `watch ${g.title}`)])));
}

// Following a started challenge this page sent: once everyone accepted, go to the game.
export function followSent(challenge, error) {
  const every = setInterval(async () => {
    try {
      const fresh = await call("GET", `/api/challenges/${challenge.id}`);
      if (fresh.status === "started" && fresh.game_id) {
        clearInterval(every);
        await openStarted(fresh);
      } else if (fresh.status !== "open") {
        clearInterval(every);
        if (error) error.textContent = `Your challenge is ${fresh.status}${fresh.reason ? `: ${fresh.reason}` : ""}.`;
      }
    } catch { /* offline a moment: ask again */ }
  }, 3000);
  return every;
}

// ------------------------------------------------------------------ the lobby's panels
async function lobby() {
  const friendsBox = document.getElementById("friends-box");
  const challengesBox = document.getElementById("challenges-box");
  if (!friendsBox || !challengesBox) return;
  let timer = null;
  let built = null; // the challenges panel's list and error line, made once
  const draw = async () => {
    clearTimeout(timer);
    const { account } = await me();
    if (!account) {
      friendsBox.hidden = challengesBox.hidden = true;
      built = null;
      return;
    }
    const list = el("ul", { class: "friends", id: "friends-list" });
    try {
      const { following } = await call("GET", "/api/follows");
      list.replaceChildren(...friendItems(following));
    } catch (e) {
      list.replaceChildren(el("li", { class: "error" }, e.message));
    }
    friendsBox.replaceChildren(el("h2", { id: "friends-title" }, "Friends"), list);
    if (!built) {
      built = { list: el("ul", { class: "offers", id: "challenge-list" }), error: el("p", { class: "error", role: "alert" }) };
      const form = await challengeForm(null, (c) => { followSent(c, built.error); draw(); });
      if (!built) return;
      challengesBox.replaceChildren(el("h2", { id: "challenges-title" }, "Challenges"), built.list, built.error,
        el("details", { class: "challenge-new" }, el("summary", {}, "challenge a player"), form));
    }
    const found = (await myOffers()).filter((o) => o.kind === "challenge");
    if (!built) return; // logged out (or in as another) meanwhile: that draw takes over
    built.list.replaceChildren(...(found.length ? found.map((o) => offerItem(o, draw, built.error))
      : [el("li", { class: "muted" }, "No challenges waiting.")]));
    // shown once each panel has its heading (a region needs the name it points at)
    friendsBox.hidden = challengesBox.hidden = false;
    timer = setTimeout(draw, document.visibilityState === "hidden" ? 60000 : 20000);
  };
  document.addEventListener("starlanes:account", () => {
    built = null;
    draw();
  });
  await draw();
}

lobby();
