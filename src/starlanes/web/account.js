// The lobby's account box (#account-box): log in or register (a small form in a
// <details>), and once logged in "name · my profile · log out" with a "my games" menu
// (your turn marked) whose entries open the game with a fresh seat link of the account,
// and above them the rematch offers and challenges waiting for an answer (offers.js).
// After a log-in, registration or log-out it dispatches the document event
// "starlanes:account" with detail { account } (null when logged out) for the other panels.
import { ApiError, call } from "./api.js";
import { el } from "./dom.js";
import { get, me, send } from "./session.js";
import { myOffers, offerItem } from "./offers.js";

const box = document.getElementById("account-box");

function stylesheet() {
  if (document.querySelector('link[href="/static/community.css"]')) return;
  document.head.append(el("link", { rel: "stylesheet", href: "/static/community.css" }));
}

function message(error) {
  return error instanceof ApiError || error instanceof Error ? error.message : String(error);
}

function loginForm() {
  const name = el("input", { name: "name", autocomplete: "username", required: "", minlength: "3", maxlength: "32", pattern: "[A-Za-z0-9_\\-]{3,32}", title: "3 to 32 letters, digits, - or _" });
  const password = el("input", { name: "password", type: "password", autocomplete: "current-password", required: "", minlength: "8", maxlength: "200" });
  const error = el("p", { class: "error", role: "alert", id: "account-error" });
  const submit = async (path, event) => {
    event.preventDefault();
    if (!name.reportValidity() || !password.reportValidity()) return;
    error.textContent = "";
    try {
      await call("POST", path, { name: name.value, password: password.value });
      await me(true);
      render(true);
    } catch (e) {
      error.textContent = message(e);
    }
  };
  const form = el("form", { class: "account-form account-drop", id: "account-form", onsubmit: (e) => submit("/api/account/login", e) },
    el("label", {}, "Name ", name),
    el("label", {}, "Password ", password),
    el("div", { class: "account-actions" },
      el("button", { type: "submit", id: "account-login", class: "small" }, "log in"),
      el("button", { type: "button", id: "account-register", class: "small", onclick: (e) => {
        password.setAttribute("autocomplete", "new-password");
        submit("/api/account/register", e);
      } }, "register")),
    el("p", { class: "muted account-note" }, "An account keeps your games, rating and profile. Names: 3 to 32 letters, digits, - or _; passwords: at least 8 characters."),
    el("p", { class: "account-note" }, el("a", { href: "/reset", id: "account-forgot" }, "forgot your password?")),
    error);
  return el("details", { class: "account-login" }, el("summary", {}, "log in / register"), form);
}

async function openGame(game, error) {
  error.textContent = "";
  try {
    const seat = await send("POST", `/api/games/${game.id}/my-seat`, { seat: game.seat });
    location.assign(seat.link);
  } catch (e) {
    error.textContent = message(e);
  }
}

function gamesMenu() {
  const offers = el("ul", { class: "account-games account-offers", id: "account-offers" });
  const list = el("ul", { class: "account-games", id: "account-games" });
  const error = el("p", { class: "error", role: "alert" });
  const menu = el("details", { class: "account-menu" }, el("summary", { id: "my-games-summary" }, "my games"),
    el("div", { class: "account-drop" }, offers, list, error));
  let turns = 0;
  let waiting = 0;
  const summary = () => {
    const parts = [turns ? `${turns} your turn` : "", waiting ? `${waiting} offer${waiting > 1 ? "s" : ""}` : ""].filter(Boolean);
    menu.querySelector("summary").textContent = parts.length ? `my games (${parts.join(", ")})` : "my games";
  };
  const loadOffers = async () => {
    const found = await myOffers();
    waiting = found.filter((o) => o.status === "open" && o.your_answer === "open").length;
    summary();
    offers.replaceChildren(...found.map((o) => offerItem(o, loadOffers, error)));
    offers.hidden = !found.length;
  };
  const load = async () => {
    list.replaceChildren(el("li", { class: "muted" }, "loading…"));
    try {
      const { games } = await get("/api/account/games");
      turns = games.filter((g) => g.your_turn).length;
      summary();
      list.replaceChildren(...(games.length ? games.map((g) => el("li", {},
        el("button", { type: "button", class: "link-button", onclick: () => openGame(g, error) },
          `${g.title} · ${g.status}`),
        g.your_turn ? el("span", { class: "badge your-turn" }, "your turn") : null))
        : [el("li", { class: "muted" }, "no games yet")]));
    } catch (e) {
      list.replaceChildren();
      error.textContent = message(e);
    }
    await loadOffers();
  };
  menu.addEventListener("toggle", () => { if (menu.open) load(); });
  load();
  // offers waiting for an answer show in the summary without opening the menu
  const every = setInterval(() => {
    if (!menu.isConnected) clearInterval(every);
    else if (document.visibilityState !== "hidden" && !menu.open) loadOffers();
  }, 20000);
  return menu;
}

async function logOut() {
  try {
    await send("POST", "/api/account/logout");
  } catch { /* an ended session is logged out already */ }
  await me(true);
  render(true);
}

function announce(account) {
  document.dispatchEvent(new CustomEvent("starlanes:account", { detail: { account } }));
}

export async function render(changed = false) {
  if (!box) return;
  stylesheet();
  const { account } = await me();
  if (changed) announce(account);
  if (!account) {
    box.replaceChildren(loginForm());
    return;
  }
  const profile = `/players/${encodeURIComponent(account.name)}`;
  box.replaceChildren(el("div", { class: "account-line" },
    el("strong", { id: "account-name" }, account.name), " · ",
    el("a", { href: profile, id: "account-profile" }, "my profile"), " · ",
    el("button", { type: "button", class: "link-button", id: "account-logout", onclick: logOut }, "log out")),
  gamesMenu());
}

render();
