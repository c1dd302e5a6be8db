// The table's account panel (#seat-account), for a logged-in player: keep a seat taken as a
// guest in the account (it then counts for the profile and ratings), and invite an account
// by name to an open seat of a game one plays. Hidden for guests and spectators.
import { el, setChildren } from "./dom.js";
import { me, send } from "./session.js";
import { call } from "./api.js";

const box = document.getElementById("seat-account");
let shown = ""; // what the panel was last drawn for (redrawn only when that changes)
let note = ""; // what the last change made here was (kept across redraws)
let last = null; // the last view event's detail

function claimLine(gameId, token, error) {
  return el("p", {}, "You play this seat as a guest. ",
    el("button", { type: "button", class: "small", id: "claim-seat", onclick: async () => {
      error.textContent = "";
      try {
        // the seat's token proves the seat, the session's CSRF token the account
        const { csrf } = await me();
        await call("POST", `/api/games/${encodeURIComponent(gameId)}/claim`, {}, token, { "X-CSRF-Token": csrf });
        note = "This seat is now in your account: it shows on your profile.";
        shown = "";
        if (last) update({ ...last, view: { ...last.view, seats: last.view.seats.map((x) => (x.seat === last.view.you ? { ...x, account: true } : x)) } });
      } catch (e) {
        error.textContent = e.message;
      }
    } }, "keep it in my account"));
}

function inviteForm(gameId, open, error) {
  const seat = el("select", { "aria-label": "open seat" }, ...open.map((s) => el("option", { value: String(s.seat) }, s.label)));
  const name = el("input", { "aria-label": "account name", placeholder: "account name", maxlength: "32", required: "" });
  const done = el("p", { role: "status", class: "muted" });
  return el("form", { class: "invite-form", id: "invite-form", onsubmit: async (e) => {
    e.preventDefault();
    error.textContent = "";
    done.textContent = "";
    try {
      await send("POST", `/api/games/${encodeURIComponent(gameId)}/invite`, { seat: Number(seat.value), name: name.value.trim() });
      done.textContent = `${name.value.trim()} is invited: the invitation waits in their lobby.`;
      name.value = "";
    } catch (err) {
      error.textContent = err.message;
    }
  } }, el("label", {}, "Invite a player to ", seat), " ", name, " ", el("button", { type: "submit", class: "small" }, "invite"), done);
}

async function update({ view, gameId, token }) {
  if (!box) return;
  const { account } = await me();
  const mine = view.you === null || view.you === undefined ? null : view.seats[view.you];
  const open = view.result ? [] : view.seats.filter((s) => s.open);
  const claim = Boolean(account && mine && token && !mine.account);
  const invite = Boolean(account && mine?.account && open.length);
  const key = JSON.stringify([claim, invite, open.map((s) => s.seat), note]);
  if (key === shown) return;
  shown = key;
  box.hidden = !(claim || invite || note);
  if (box.hidden) return;
  const error = el("p", { class: "error", role: "alert" });
  setChildren(box, el("h2", {}, "Your account"), note ? el("p", { role: "status" }, note) : null,
    claim ? claimLine(gameId, token, error) : null,
    invite ? inviteForm(gameId, open, error) : null, error);
}

document.addEventListener("starlanes:view", (e) => {
  last = e.detail;
  update(e.detail);
});
