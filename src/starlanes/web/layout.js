// The page's layout on every screen. At phone widths (the media query in style.css) the
// board fills the screen, the decision panel is a bottom sheet (its handle opens and closes
// it; choosing a board object opens it on that object's actions) and the legend and log fold
// away; wider screens keep the side panel with everything open. Also the words of the
// connection banner. onZoom runs after every change of the board's zoom or pan.
import { panZoom } from "./panzoom.js";

const $ = (id) => document.getElementById(id);
const PHONE = "(max-width: 700px)";

export function sheet({ onZoom } = {}) {
  const side = $("side");
  const handle = $("sheet-handle");
  const phone = window.matchMedia(PHONE);
  const set = (open) => {
    side.classList.toggle("open", open);
    handle.setAttribute("aria-expanded", String(open));
    handle.textContent = open ? "\u25bc lower the decision panel" : "\u25b2 raise the decision panel";
  };
  handle.addEventListener("click", () => set(!side.classList.contains("open")));
  const folds = () => {
    for (const id of ["legend-box", "log-box"]) {
      const d = $(id);
      if (d) d.open = !phone.matches;
    }
  };
  folds();
  phone.addEventListener("change", folds);
  set(false);
  const zoomBox = document.querySelector(".zoom");
  const zoom = panZoom($("board"), { zoomIn: $("zoom-in"), zoomOut: $("zoom-out"), reset: $("zoom-reset") }, { onChange: () => onZoom?.() });
  return {
    phone: () => phone.matches,
    // open (true) or close the sheet; on wide screens it is always open
    open: (open) => { if (phone.matches) set(open); },
    zoom: {
      apply: () => { zoom.apply(); if (zoomBox) zoomBox.hidden = !$("board").querySelector("svg.zoomable"); },
      focus: (cx, cy, s) => zoom.focus(cx, cy, s),
      centre: (cx, cy) => zoom.centre(cx, cy),
      view: () => zoom.view(),
      zoomFor: (k) => zoom.zoomFor(k),
    },
  };
}

export const connection = {
  // plain words for the websocket's state (see api.watch)
  words(state) {
    if (state === "live") return "";
    if (state === "offline") return "You are offline. The table reconnects by itself when the network is back; your moves wait until then.";
    if (String(state).startsWith("refused")) return `The server closed this table's connection (${String(state).replace(/^refused:?\s*/, "") || "no reason given"}). Reload the page to try again.`;
    if (String(state).includes("too many")) return "Too many open tables from this address: reconnecting in a little while.";
    return "Connection lost: reconnecting... Your moves are paused until the table is back.";
  },
  // the browser's own word: offline at once; back online, recheck is asked to confirm
  // that the server answers (it calls onState("live") when it does)
  watchBrowser(onState, recheck) {
    window.addEventListener("offline", () => onState("offline"));
    window.addEventListener("online", () => { onState("reconnecting"); recheck(); });
  },
};
