// The table's chat (#chat-box): the players' channel and the spectators' one, polled every
// 3 s while the tab is visible and right after sending. Every message is put on the page as
// text (el() makes text nodes): markup in a message stays the characters it is.
//
// Who writes where is the server's decision (GET .../chat answers "write" and "channels");
// a logged-in account mutes on the server, a guest in this browser (localStorage).
import { call } from "./api.js";
import { el } from "./dom.js";
import { me, send } from "./session.js";

const POLL_MS = 3000;
const LOCAL_MUTES = "starlanes:chat-muted";

const box = document.getElementById("chat-box");
const state = {
  gameId: null, token: null, seat: null, after: 0, messages: [], channels: ["players"],
  write: null, limit: 500, tab: "players", serverMuted: [], timer: null, busy: false,
  again: false, settings: null,
};

const list = el("ul", { class: "last-list chat-list", tabindex: "0",
  "aria-label": "chat messages",
  style: { maxHeight: "14rem", overflowY: "auto", overflowWrap: "anywhere" } });
const tabs = el("div", { class: "chat-tabs", role: "group", "aria-label": "chat channel" });
const input = el("textarea", { id: "chat-input", rows: "2", "aria-label": "chat message",
  placeholder: "message", style: { width: "100%", boxSizing: "border-box", resize: "vertical" } });
const counter = el("span", { class: "muted", "aria-live": "off" });
const target = el("span", { class: "muted" });
const sendButton = el("button", { id: "chat-send", type: "button", class: "small" }, "send");
const form = el("div", { class: "chat-form" }, input,
  el("p", { style: { display: "flex", gap: ".5rem", alignItems: "center", flexWrap: "wrap", margin: ".25rem 0" } },
    sendButton, target, counter));
const hint = el("p", { class: "muted" });
const mutedLine = el("p", { class: "muted" });
const error = el("p", { class: "error", role: "alert" });
const announcer = el("p", { class: "visually-hidden", "aria-live": "polite" });

function showError(text) {
  error.textContent = text;
  error.hidden = !text;
}

function localMutes() {
  try {
    return JSON.parse(localStorage.getItem(LOCAL_MUTES) || "[]");
  } catch {
    return [];
  }
}

function setLocalMutes(names) {
  try {
    localStorage.setItem(LOCAL_MUTES, JSON.stringify(names));
  } catch {
    // no storage (a private window): the mute lasts until the page reloads
  }
  localOnly = names;
}

let localOnly = localMutes();

function chars(text) {
  return [...text].length;
}

function isMine(m, account) {
  if (m.channel === "players") return state.seat !== null && m.seat === state.seat;
  return Boolean(account && m.account && m.name === account.name);
}

async function render() {
  const { account } = await me();
  const both = state.channels.length > 1;
  tabs.replaceChildren(...(both ? state.channels.map((c) => el("button", {
    type: "button", class: "small", "aria-pressed": String(c === state.tab),
    style: c === state.tab ? { outline: "2px solid currentColor", fontWeight: "bold" } : {},
    onclick: () => { state.tab = c; render(); },
  }, c)) : []));
  tabs.hidden = !both;
  if (!state.channels.includes(state.tab)) state.tab = state.channels[0];
  const near = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  const shown = state.messages.filter((m) => m.channel === state.tab && !localOnly.includes(m.name));
  list.replaceChildren(...shown.map((m) => message(m, account)));
  if (!shown.length) list.append(el("li", { class: "muted" }, "no messages yet"));
  if (near) list.scrollTop = list.scrollHeight;
  form.hidden = !state.write;
  hint.hidden = Boolean(state.write);
  hint.textContent = state.seat === null && !account
    ? "Log in to chat with the other spectators." : "";
  target.textContent = state.write ? `to the ${state.write}` : "";
  counter.textContent = `${chars(input.value)}/${state.limit}`;
  counter.classList.toggle("error", chars(input.value) > state.limit);
  const muted = [...new Set([...state.serverMuted, ...localOnly])];
  mutedLine.replaceChildren(...(muted.length ? ["muted: ", ...muted.flatMap((name, i) => [
    i ? ", " : "", name, " ",
    el("button", { type: "button", class: "small", onclick: () => unmute(name) }, "unmute"),
  ])] : []));
  mutedLine.hidden = !muted.length;
}

function message(m, account) {
  const time = new Date(m.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  const item = el("li", { class: "chat-message", "data-id": m.id },
    el("strong", {}, m.name), " ", el("span", { class: "muted" }, time), " ",
    el("span", { class: "chat-text", style: { whiteSpace: "pre-wrap" } }, m.text));
  if (!isMine(m, account)) {
    item.append(" ",
      el("button", { type: "button", class: "small", "aria-label": `mute ${m.name}`,
        onclick: () => mute(m) }, "mute"), " ",
      el("button", { type: "button", class: "small", "aria-label": `report this message by ${m.name}`,
        onclick: () => reportForm(item, m) }, "report"));
  }
  return item;
}

function reportForm(item, m) {
  if (item.querySelector(".chat-report")) return;
  const reason = el("input", { type: "text", maxlength: "500", "aria-label": "why you report it",
    placeholder: "why (optional)" });
  const done = el("button", { type: "button", class: "small" }, "send report");
  const row = el("span", { class: "chat-report", style: { display: "flex", gap: ".25rem" } }, reason, done);
  done.addEventListener("click", async () => {
    try {
      const path = `/api/chat/${m.id}/report`;
      if (state.token) await call("POST", path, { reason: reason.value }, state.token);
      else await send("POST", path, { reason: reason.value });
      row.replaceChildren(el("span", { class: "muted" }, "reported, thank you"));
      showError("");
    } catch (e) {
      showError(e.message);
    }
  });
  item.append(row);
  reason.focus();
}

async function mute(m) {
  const { account } = await me();
  showError("");
  if (account && m.account) {
    try {
      state.serverMuted = (await send("POST", "/api/mutes", { name: m.name })).muted;
      state.messages = state.messages.filter((x) => !(x.account && state.serverMuted.includes(x.name)));
    } catch (e) {
      showError(e.message);
    }
  } else if (!localOnly.includes(m.name)) {
    setLocalMutes([...localOnly, m.name]);
  }
  render();
}

async function unmute(name) {
  showError("");
  if (localOnly.includes(name)) setLocalMutes(localOnly.filter((n) => n !== name));
  if (state.serverMuted.includes(name)) {
    try {
      state.serverMuted = (await send("DELETE", `/api/mutes/${encodeURIComponent(name)}`)).muted;
      state.after = 0; // read everything again: the unmuted account's messages come back
      state.messages = [];
    } catch (e) {
      showError(e.message);
    }
  }
  await render();
  await poll();
}

async function poll() {
  if (!state.gameId) return;
  if (state.busy) {
    state.again = true; // asked while a read is under way (just sent): read once more after it
    return;
  }
  state.busy = true;
  const gameId = state.gameId;
  try {
    const answer = await call("GET", `/api/games/${gameId}/chat?after=${state.after}`,
      undefined, state.token);
    if (gameId !== state.gameId) return;
    const known = new Set(state.messages.map((m) => m.id));
    const fresh = answer.messages.filter((m) => !known.has(m.id));
    const settings = JSON.stringify([answer.channels, answer.write, answer.limit, answer.muted]);
    const grew = answer.channels.length > state.channels.length;
    const first = state.settings === null;
    const changed = fresh.length > 0 || settings !== state.settings;
    state.messages = state.messages.concat(fresh)
      .filter((m) => answer.channels.includes(m.channel)).slice(-400);
    if (answer.messages.length) state.after = answer.messages[answer.messages.length - 1].id;
    Object.assign(state, { channels: answer.channels, write: answer.write, limit: answer.limit,
      serverMuted: answer.muted, settings });
    if (grew && !first) state.after = 0; // a channel opened (a rated game ended): read its past too
    if (!changed) return;
    await render();
    if (!first) announce(fresh);
  } catch (e) {
    showError(e.message);
  } finally {
    state.busy = false;
    if (state.again) {
      state.again = false;
      poll();
    }
  }
}

// Screen readers hear the newest message of someone else in the open channel (the list
// itself is rebuilt on each change and is not a live region).
async function announce(fresh) {
  const { account } = await me();
  const heard = fresh.filter((m) => m.channel === state.tab && !isMine(m, account)
    && !localOnly.includes(m.name));
  if (heard.length) {
    const m = heard[heard.length - 1];
    announcer.textContent = `${m.name} says: ${m.text}`;
  }
}

async function submit() {
  const text = input.value.trim();
  if (!text || !state.write) return;
  if (chars(text) > state.limit) {
    showError(`A chat message has at most ${state.limit} characters.`);
    return;
  }
  sendButton.disabled = true;
  try {
    const path = `/api/games/${state.gameId}/chat`;
    const body = { channel: state.write, text };
    if (state.token && state.write === "players") await call("POST", path, body, state.token);
    else await send("POST", path, body);
    input.value = "";
    showError("");
    state.tab = state.write;
  } catch (e) {
    showError(e.message);
  } finally {
    sendButton.disabled = false;
  }
  await poll();
}

function schedule() {
  clearInterval(state.timer);
  state.timer = setInterval(() => {
    if (document.visibilityState === "visible") poll();
  }, POLL_MS);
}

sendButton.addEventListener("click", submit);
input.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey) {
    event.preventDefault();
    submit();
  }
});
input.addEventListener("input", () => {
  counter.textContent = `${chars(input.value)}/${state.limit}`;
  counter.classList.toggle("error", chars(input.value) > state.limit);
});
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") poll();
});

document.addEventListener("starlanes:view", (event) => {
  const { view, gameId, token } = event.detail;
  const seat = view?.you ?? null;
  if (gameId === state.gameId && token === state.token && seat === state.seat) return;
  // another game, seat or token: read everything again as the new viewer
  Object.assign(state, { gameId, token: token || null, seat, after: 0, messages: [],
    settings: null });
  if (box.hidden) {
    box.replaceChildren(el("h2", {}, "Chat"), tabs, list, hint, form, mutedLine, error,
      announcer);
    box.hidden = false;
    showError("");
  }
  poll();
  schedule();
});
