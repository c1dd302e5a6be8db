// The symbol sheets: one SVG sprite per game under /static/symbols/<game>.svg plus
// common.svg (seat shapes, dice, battle, last move). Each <symbol> has a <title>; a symbol
// drawn here carries its name as an ARIA label (or is hidden from screen readers when the
// text next to it already says it).
import { svg } from "./dom.js";

export function href(sheet, id) {
  return `/static/symbols/${sheet}.svg#${id}`;
}

// A symbol as an inline <svg> for HTML: label names it for screen readers (omit it when
// the words next to it say the same).
export function icon(sheet, id, { size = 18, label = null, cls = "" } = {}) {
  const attrs = { class: `sym ${cls}`.trim(), width: size, height: size, viewBox: "0 0 24 24" };
  if (label) Object.assign(attrs, { role: "img", "aria-label": label });
  else attrs["aria-hidden"] = "true";
  const node = svg("svg", attrs, svg("use", { href: href(sheet, id) }));
  if (label) node.prepend(svg("title", {}, label));
  return node;
}

// A symbol placed inside an SVG board at (x, y), size by size.
export function place(sheet, id, x, y, size, cls = "") {
  return svg("use", { href: href(sheet, id), x, y, width: size, height: size, class: cls });
}

// The symbols of a sheet with their titles, read from the sprite file (for the legend and
// "how to play"); [] when it cannot be read.
const cache = new Map();
export async function catalogue(sheet) {
  if (!cache.has(sheet)) {
    cache.set(sheet, fetch(`/static/symbols/${sheet}.svg`).then((r) => (r.ok ? r.text() : "")).then((text) => {
      if (!text) return [];
      const doc = new DOMParser().parseFromString(text, "image/svg+xml");
      return [...doc.querySelectorAll("symbol")].map((s) => ({ id: s.id, title: s.querySelector("title")?.textContent ?? s.id }));
    }).catch(() => []));
  }
  return cache.get(sheet);
}

// A list of symbols with their names, as the legend and the rules show them.
export function symbolList(el, sheet, items) {
  return el("ul", { class: "symbol-list" }, ...items.map((s) => el("li", {}, icon(sheet, s.id, { size: 20 }), el("span", {}, s.title))));
}
