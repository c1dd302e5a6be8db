// Challenges and rematch offers as the logged-in player's pages show them ("my games",
// the lobby's challenges panel, a profile's challenge): one line per offer in words, its
// accept / decline / withdraw buttons, and opening the game once everyone accepted.
import { call } from "./api.js";
import { el } from "./dom.js";
import { send } from "./session.js";

// "5 minutes for each turn", "10 minutes a player for the game + 5 s a turn", "no clock"
export function clockWords(clock) {
  if (!clock || !clock.seconds) return "no clock";
  const s = clock.seconds;
  const span = s % 86400 === 0 ? `${s / 86400} day${s === 86400 ? "" : "s"}`
    : s % 3600 === 0 ? `${s / 3600} hour${s === 3600 ? "" : "s"}`
      : s % 60 === 0 ? `${s / 60} minute${s === 60 ? "" : "s"}` : `${s} seconds`;
  const increment = clock.increment ? ` + ${clock.increment} s a turn` : "";
  return clock.kind === "game" ? `${span} a player for the game${increment}` : `${span} for each turn`;
}

// An offer in one line of words, as the player reading it sees it.
export function offerText(offer) {
  const line = offerLine(offer);
  return offer.status === "started" ? `${line}: everyone accepted, the game is on` : line;
}

function offerLine(offer) {
  const others = offer.seats.filter((s) => s.seat !== offer.you && !s.bot).map((s) => s.name);
  const what = `${offer.title}${offer.rated ? ", rated" : ""}, ${clockWords(offer.clock)}`;
  if (offer.kind === "rematch") {
    return offer.your_answer === "open"
      ? `${offer.from} offers a rematch (${what})`
      : `your rematch offer to ${others.join(" and ")} (${what})`;
  }
  if (offer.mine) return `your challenge to ${others.join(" and ")} (${what})`;
  return `${offer.from} challenges you${others.length > 1 ? ` with ${others.filter((n) => n !== offer.from).join(" and ")}` : ""} (${what})`;
}

// The seat token of the finished game a rematch comes from, if this browser holds it.
function oldToken(offer) {
  if (offer.kind !== "rematch" || !offer.source_game) return null;
  try {
    return JSON.parse(localStorage.getItem(`starlanes:${offer.source_game}`) ?? "null")?.token ?? null;
  } catch {
    return null;
  }
}

// Open the started game of an offer with this player's seat: a rematch's new seat from
// the old seat's token when this browser holds it (every page holding it gets the same
// one), else the account's seat ("my-seat", a fresh link).
export async function openStarted(offer) {
  let seat = null;
  const old = oldToken(offer);
  if (old) {
    const fresh = await call("GET", `/api/games/${encodeURIComponent(offer.source_game)}/rematch`, undefined, old).catch(() => null);
    if (fresh?.token && fresh.game_id === offer.game_id) seat = { token: fresh.token, seat: fresh.you };
  }
  if (!seat) {
    const mine = await send("POST", `/api/games/${encodeURIComponent(offer.game_id)}/my-seat`, { seat: offer.you });
    seat = { token: mine.token, seat: mine.seat };
  }
  localStorage.setItem(`starlanes:${offer.game_id}`, JSON.stringify(seat));
  location.assign(`/games/${encodeURIComponent(offer.game_id)}`);
}

const base = (offer) => (offer.kind === "rematch" ? "/api/rematches" : "/api/challenges");

// One offer as a list item: its words and what the reader may do with it. after(offer):
// called with the answer (to redraw the list); error: where a refusal is said.
export function offerItem(offer, after, error) {
  const act = async (method, path) => {
    error.textContent = "";
    try {
      const answer = await send(method, path);
      if (answer.status === "started" && answer.game_id) {
        await openStarted(answer);
        return;
      }
      after(answer);
    } catch (e) {
      error.textContent = e.message;
    }
  };
  const url = `${base(offer)}/${offer.id}`;
  const buttons = [];
  if (offer.status === "started" && offer.game_id) {
    buttons.push(el("button", { type: "button", class: "small", onclick: () => openStarted(offer).catch((e) => { error.textContent = e.message; }) }, "open the game"));
  } else if (offer.status === "open" && offer.your_answer === "open") {
    buttons.push(el("button", { type: "button", class: "small offer-accept", onclick: () => act("POST", `${url}/accept`) }, "accept"),
      el("button", { type: "button", class: "small offer-decline", onclick: () => act("POST", `${url}/decline`) }, "decline"));
  } else if (offer.status === "open" && offer.mine) {
    const waiting = offer.seats.filter((s) => s.answer === "open").map((s) => s.name);
    buttons.push(el("span", { class: "muted" }, `waiting for ${waiting.join(" and ")}`),
      el("button", { type: "button", class: "small offer-withdraw", onclick: () => act("DELETE", url) }, "withdraw"));
  }
  return el("li", { class: `offer offer-${offer.kind}`, "data-offer": String(offer.id) },
    el("span", {}, offerText(offer)), ...buttons);
}

// The reader's open offers and those started a moment ago: rematch offers and challenges
// (received first, then sent), or [] for a guest.
export async function myOffers() {
  const [rematches, challenges] = await Promise.all([
    call("GET", "/api/rematches").catch(() => ({ offers: [] })),
    call("GET", "/api/challenges").catch(() => ({ received: [], sent: [] })),
  ]);
  return [...rematches.offers, ...challenges.received, ...challenges.sent];
}
