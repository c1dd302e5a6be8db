// The pages that links in mails open, without logging in: /reset?token= sets a new
// password with a one-time link (without a token it asks for a link by mail), and
// /unsubscribe?token= stops the notification mails. The token is read from the address
// and sent in the request's body.
import { call } from "./api.js";

const token = new URLSearchParams(location.search).get("token") || "";
const $ = (id) => document.getElementById(id);

function say(id, text, error = false) {
  const node = $(id);
  node.textContent = text;
  node.className = error ? "error" : "";
}

const resetForm = $("reset-form");
if (resetForm) {
  if (!token) {
    resetForm.hidden = true;
    $("reset-ask").hidden = false;
  }
  resetForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const answer = await call("POST", "/api/account/reset/confirm", { token, password: $("reset-password").value });
      say("reset-result", `The password of ${answer.account.name} is set: log in with it in the lobby.`);
      resetForm.querySelector("button").disabled = true;
    } catch (e) {
      say("reset-result", e.message, true);
    }
  });
  $("reset-ask").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const answer = await call("POST", "/api/account/reset", { name: $("reset-name").value });
      say("reset-ask-result", answer.message);
    } catch (e) {
      say("reset-ask-result", e.message, true);
    }
  });
}

const unsubscribeForm = $("unsubscribe-form");
if (unsubscribeForm) {
  unsubscribeForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const answer = await call("POST", "/api/unsubscribe", { token });
      say("unsubscribe-result", `Done: ${answer.account} gets no more notification mails.`);
      unsubscribeForm.querySelector("button").disabled = true;
    } catch (e) {
      say("unsubscribe-result", e.message, true);
    }
  });
}
