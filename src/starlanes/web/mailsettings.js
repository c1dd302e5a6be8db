// The profile page's notification settings (in "Your account", shown on your own
// profile): an e-mail address (checked for its syntax only), and whether to get a mail
// when it becomes your turn in a correspondence game or when someone challenges you.
// Every mail has a link that stops them without logging in.
import { call } from "./api.js";
import { el } from "./dom.js";
import { me, send } from "./session.js";

const box = document.querySelector("#settings-box .settings-forms");

function form(settings) {
  const address = el("input", { id: "mail-address", type: "email", autocomplete: "email", maxlength: "254", value: settings.email || "" });
  const turns = el("input", { id: "mail-turns", type: "checkbox" });
  const challenges = el("input", { id: "mail-challenges", type: "checkbox" });
  turns.checked = settings.email_turns;
  challenges.checked = settings.email_challenges;
  const result = el("p", { id: "mail-result", role: "status" });
  const save = async (event) => {
    event.preventDefault();
    result.className = "";
    try {
      const now = await send("POST", "/api/account/settings", { email: address.value, email_turns: turns.checked, email_challenges: challenges.checked });
      result.textContent = now.email_turns || now.email_challenges ? `Saved: mails go to ${now.email}.` : "Saved: no notification mails.";
    } catch (e) {
      result.textContent = e.message;
      result.className = "error";
    }
  };
  const off = settings.mail ? null : el("p", { class: "muted" }, "This server sends no mail: the settings are kept for when it does.");
  return el("form", { id: "mail-form", class: "account-form", onsubmit: save },
    el("h3", {}, "Notification mails"),
    off,
    el("label", {}, "E-mail address ", address),
    el("label", { class: "check" }, turns, " a mail when it becomes my turn in a game with a clock of an hour or more per move"),
    el("label", { class: "check" }, challenges, " a mail when someone challenges me"),
    el("button", { type: "submit", class: "small" }, "save"),
    el("p", { class: "muted" }, "Only the address's form is checked. Each mail has a link that stops them."),
    result);
}

async function start() {
  if (!box) return;
  const { account, csrf } = await me();
  if (!account) return;
  try {
    // the settings show the address: read with the session's CSRF header, like a change
    box.prepend(form(await call("GET", "/api/account/settings", undefined, null, { "X-CSRF-Token": csrf })));
  } catch {
    // logged out meanwhile: the page shows no settings
  }
}

start();
