// The table's clocks panel (#clocks-box): each human seat's time left, the running clock
// counted down here between two views (every 250 ms, from the figures of the last view),
// a warning when little time is left (announced once to screen readers) and a line saying
// what happens when a clock runs out. The server's view carries
// clocks = { kind, seconds, increment, timeout, remaining[], counted[], running, server_time }.
import { el, setChildren } from "./dom.js";

const box = document.getElementById("clocks-box");
const TICK_MS = 250;

let last = null; // { view, clocks, at: performance.now() when it came }
let timer = null;
let rows = [];
let announced = ""; // the turn whose warning was announced

// Seconds as a clock shows them: m:ss under an hour, then hours and minutes, then days
// and hours (correspondence games).
export function formatClock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 3600) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
  return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
}

// Little time left: under 20 s or under a tenth of the setting, whichever is more, but
// never more than half of it.
export function lowThreshold(clocks) {
  return Math.min(Math.max(20, clocks.seconds * 0.1), clocks.seconds * 0.5);
}

function ruleText(clocks, seated) {
  const who = seated ? "your time runs out" : "a player's time runs out";
  const what = clocks.timeout === "lose"
    ? (seated ? "you lose the game" : "they lose the game")
    : (seated ? "a bot moves for you" : "a bot moves for them");
  const kind = clocks.kind === "game"
    ? `${formatClock(clocks.seconds)} for the whole game${clocks.increment ? `, plus ${clocks.increment} s after each decision` : ""}`
    : `${formatClock(clocks.seconds)} for each decision`;
  return `Clock: ${kind}. When ${who}, ${what}.`;
}

// Once the game is over: when it ended, and who ran out of time (their clock shows 0:00).
function endedLine(view) {
  if (!view.result || !view.ended) return null;
  const at = new Date(view.ended);
  const when = Number.isNaN(at.getTime()) ? "" : ` at ${at.toLocaleString()}`;
  const outcome = view.result.outcome;
  const loser = outcome?.reason === "timeout" ? view.seats[outcome.loser]?.label : null;
  return el("p", { class: "clock-ended", id: "clock-ended" },
    loser ? `${loser} ran out of time: the game ended${when}.` : `The game ended${when}.`);
}

function build(view, clocks) {
  const seated = view.you !== null && view.you !== undefined;
  rows = view.seats.map((seat, i) => {
    const bot = clocks.remaining[i] === null || clocks.remaining[i] === undefined;
    const time = el("span", { class: "clock-time" }, bot ? "no clock" : formatClock(clocks.remaining[i]));
    const note = el("span", { class: "muted clock-note" });
    const row = el("li", { class: `clock-row${bot ? " bot" : ""}`, "data-seat": String(i) },
      el("span", { class: "clock-name" }, seat.label + (view.you === i ? " (you)" : "")), note, time);
    return { row, time, note, bot };
  });
  setChildren(box,
    el("h2", {}, "Clocks"),
    el("ul", { class: "clock-list" }, ...rows.map((r) => r.row)),
    el("p", { class: "muted clock-rule" }, ruleText(clocks, seated)),
    endedLine(view),
    el("p", { class: "visually-hidden", "aria-live": "assertive", id: "clock-alert" }));
}

function tick() {
  if (!last) return;
  const { view, clocks, at } = last;
  const ran = (performance.now() - at) / 1000;
  const low = lowThreshold(clocks);
  rows.forEach((r, i) => {
    if (r.bot) return;
    const running = clocks.running === i;
    const left = clocks.remaining[i] - (running ? ran : 0);
    r.time.textContent = formatClock(left);
    r.row.classList.toggle("running", running);
    r.row.classList.toggle("low", running && left < low);
    r.row.dataset.running = running ? "true" : "false";
    r.note.textContent = running && clocks.kind === "game" && !clocks.counted[i] ? "first decision, not counted" : "";
    if (running && i === view.you && left < low && announced !== `${view.id}:${view.seq}`) {
      announced = `${view.id}:${view.seq}`;
      const alert = document.getElementById("clock-alert");
      if (alert) alert.textContent = `${formatClock(left)} left on your clock`;
    }
  });
  if (clocks.running === null && timer) {
    clearInterval(timer);
    timer = null;
  }
}

document.addEventListener("starlanes:view", (event) => {
  const { view } = event.detail;
  const clocks = view.clocks;
  if (!box) return;
  if (!clocks) {
    box.hidden = true;
    last = null;
    return;
  }
  last = { view, clocks, at: performance.now() };
  box.hidden = false;
  build(view, clocks);
  tick();
  if (clocks.running !== null && !timer) timer = setInterval(tick, TICK_MS);
});
