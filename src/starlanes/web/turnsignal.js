// "Your turn" signals, on the table and in the lobby:
// - on the table, the tab's icon gets a marker (icon-turn.svg) while it is your decision;
// - optionally, a browser notification when it becomes your turn while this page is
//   hidden (the table from its views; every page, when logged in, by asking the server for
//   the account's games every 30 s); clicking it brings up the game;
// - optionally, a short beep when it becomes your turn.
// Both are off until switched on with the small control this adds to the page's header;
// the browser is asked for its notification permission only when "notify me" is clicked.
// The choices are kept in localStorage.
import { el } from "./dom.js";
import { get, me } from "./session.js";

const NOTIFY_KEY = "starlanes.notify";
const SOUND_KEY = "starlanes.sound";
const POLL_MS = 30_000;
const ICON = "/static/icon.svg";
const ICON_TURN = "/static/icon-turn.svg";

const table = document.body.classList.contains("table");
let tableGame = null; // the game this table shows
const yourTurn = new Map(); // game id -> whether it was your turn at the last look
let audio = null;
let pollTimer = null;
let looked = false;

function stored(key) {
  try {
    return localStorage.getItem(key) === "1";
  } catch {
    return false;
  }
}

function store(key, on) {
  try {
    localStorage.setItem(key, on ? "1" : "0");
  } catch {
    // storage refused (private mode): the choice lasts as long as the page
  }
}

const settings = { notify: stored(NOTIFY_KEY), sound: stored(SOUND_KEY) };

function hidden() {
  return document.visibilityState === "hidden";
}

function setIcon(turn) {
  let link = document.querySelector('link[rel="icon"]');
  if (!link) {
    link = el("link", { rel: "icon" });
    document.head.append(link);
  }
  const href = turn ? ICON_TURN : ICON;
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
}

function beep() {
  if (!settings.sound) return;
  try {
    audio = audio || new AudioContext();
    if (audio.state === "suspended") audio.resume();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = "sine";
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.0001, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.2, audio.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.3);
  } catch {
    // no WebAudio here: no sound
  }
}

function notify(title, url, tag) {
  if (!settings.notify || !("Notification" in window) || Notification.permission !== "granted") return;
  try {
    const note = new Notification(title, { body: "It is your turn.", tag, icon: ICON_TURN });
    note.onclick = () => {
      window.focus();
      if (url && new URL(url, location.href).pathname !== location.pathname) location.assign(url);
      note.close();
    };
  } catch {
    // some browsers only notify from a service worker: the title and icon still say it
  }
}

// It became your turn in ``gameId`` (a turn is signalled once: the caller checks that it
// was not your turn at the last look).
function turnCame(gameId, title, url) {
  beep();
  if (hidden()) notify(`Your turn: ${title}`, url, `starlanes-${gameId}`);
}

// ---------------------------------------------------------------------- the table
document.addEventListener("starlanes:view", (event) => {
  const { view, gameId } = event.detail;
  tableGame = gameId;
  const turn = Boolean(view.your_turn) && !view.result;
  setIcon(turn);
  const before = yourTurn.get(gameId);
  yourTurn.set(gameId, turn);
  if (turn && before === false) turnCame(gameId, view.title, location.pathname + location.search);
});

// ---------------------------------------------------------------------- every page
async function poll() {
  if (!settings.notify && !settings.sound) return;
  let answer;
  try {
    answer = await get("/api/account/games");
  } catch {
    return; // logged out meanwhile, or offline: the next poll tries again
  }
  for (const game of answer.games || []) {
    if (game.id === tableGame) continue; // the table's views say it sooner
    const turn = Boolean(game.your_turn);
    const before = yourTurn.has(game.id) ? yourTurn.get(game.id) : (looked ? false : undefined);
    yourTurn.set(game.id, turn);
    if (turn && before === false) turnCame(game.id, game.title || game.game, game.url);
  }
}

async function startPolling() {
  if (pollTimer) return;
  const { account } = await me();
  if (!account) return;
  await poll(); // the first look only notes where it is your turn already
  looked = true; // (a game seen later for the first time counts from "not your turn")
  pollTimer = setInterval(poll, POLL_MS);
}

// ---------------------------------------------------------------------- the control
function button(label, pressed, onclick) {
  return el("button", { type: "button", class: "small", "aria-pressed": pressed ? "true" : "false", onclick }, label);
}

function addControl() {
  if (!document.querySelector('link[href="/static/clocks.css"]')) {
    document.head.append(el("link", { rel: "stylesheet", href: "/static/clocks.css" }));
  }
  const note = el("span", { class: "muted turn-signal-note", role: "status" });
  const notifyButton = button("notify me", settings.notify, async () => {
    if (settings.notify) {
      settings.notify = false;
    } else if (!("Notification" in window)) {
      note.textContent = "this browser shows no notifications";
      return;
    } else {
      const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
      settings.notify = answer === "granted";
      note.textContent = settings.notify ? "" : "notifications are blocked for this site";
    }
    store(NOTIFY_KEY, settings.notify);
    notifyButton.setAttribute("aria-pressed", String(settings.notify));
    if (settings.notify) startPolling();
  });
  const soundButton = button("sound", settings.sound, () => {
    settings.sound = !settings.sound;
    store(SOUND_KEY, settings.sound);
    soundButton.setAttribute("aria-pressed", String(settings.sound));
    if (settings.sound) {
      try {
        audio = audio || new AudioContext(); // made on a click, so the browser lets it play
      } catch {
        // no WebAudio
      }
      startPolling();
    }
  });
  notifyButton.title = "A browser notification when it becomes your turn while this page is hidden";
  soundButton.title = "A short beep when it becomes your turn";
  const control = el("span", { class: "turn-signal", id: "turn-signal", role: "group", "aria-label": "your turn signals" },
    notifyButton, soundButton, note);
  const place = document.querySelector("header.bar nav") || document.querySelector("header.bar");
  if (place) place.prepend(control);
}

addControl();
if (!table) setIcon(false);
if (settings.notify || settings.sound) startPolling();
