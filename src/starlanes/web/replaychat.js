// The replay viewer's chat: the messages the game's players (and, once it was over, its
// spectators) wrote up to the step shown, as the replay API or the game record gives them
// ({seq, channel, name, seat, text, at}); those written at the step shown are marked.
// Text is always inserted as text.
import { el } from "./dom.js";
import { seatMark } from "./seats.js";

let box = null;

function section() {
  if (box) return box;
  if (!document.querySelector('link[href="/static/notify.css"]')) {
    document.head.append(el("link", { rel: "stylesheet", href: "/static/notify.css" }));
  }
  const list = el("ol", { id: "replay-chat", class: "chat-lines", tabindex: "0", "aria-label": "chat up to this step" });
  box = el("section", { class: "card", id: "chat-box" }, el("h2", {}, "Chat"), list);
  const log = document.getElementById("log-box");
  if (log) log.after(box);
  else document.body.append(box);
  return box;
}

// Show the chat of ``view`` (a replay view) at its step.
export function showChat(view) {
  const chat = view.chat || [];
  const node = section();
  node.hidden = !chat.length;
  const list = node.querySelector("ol");
  list.replaceChildren(...chat.map((m) => el("li", { class: `chat-line chat-${m.channel}${m.seq === view.step ? " now" : ""}`, title: `written at move ${m.seq}` },
    m.seat === null || m.seat === undefined ? null : seatMark(m.seat, 12),
    el("strong", {}, m.channel === "spectators" ? `${m.name} (spectator)` : m.name), ": ",
    el("span", { class: "chat-text" }, m.text))));
  list.scrollTop = list.scrollHeight;
}
