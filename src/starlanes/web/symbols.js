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

// Symbols in explanation text: where an action's explanation (its line in the action lists,
// its tooltip) or the facts card names a unit kind or resource that has a symbol, the
// symbol is shown before the word. The symbol is hidden from screen readers and the word
// stays text, so what is read (and the element's textContent) is unchanged.
// terms: [{ sheet, id, words: ["Command Ship", "command"] }]; a word matches whole,
// case-insensitively, with a plural "s" or "es" after it; the longest word wins.
export const EXPLAINED = ["groups", "selection-list", "tip", "facts"];
// Not decorated: notations, buttons (they carry their own symbol), group headings, the
// words already decorated, and a line whose module drew its symbol next to it.
const PLAIN = "code, button, summary, svg, input, textarea, .sym-term, [data-no-symbols]";

export function termsMatcher(terms) {
  const byWord = new Map();
  for (const t of terms) for (const w of t.words) if (w) byWord.set(String(w).toLowerCase(), t);
  if (!byWord.size) return null;
  const alternatives = [...byWord.keys()].sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const re = new RegExp(`(?<![\\w-])(?:${alternatives.join("|")})(?:e?s)?(?![\\w-])`, "gi");
  const termOf = (word) => {
    const w = word.toLowerCase();
    return byWord.get(w) ?? byWord.get(w.replace(/es$/, "")) ?? byWord.get(w.replace(/s$/, "")) ?? null;
  };
  return { re, termOf };
}

function decorateText(text, matcher) {
  const parent = text.parentElement;
  if (!parent || parent.closest(PLAIN)) return;
  if ([...parent.children].some((c) => c.matches("svg.sym"))) return;
  const data = text.data;
  matcher.re.lastIndex = 0;
  const found = [...data.matchAll(matcher.re)].filter((m) => matcher.termOf(m[0]));
  if (!found.length) return;
  const out = document.createDocumentFragment();
  let last = 0;
  for (const m of found) {
    const term = matcher.termOf(m[0]);
    if (m.index > last) out.append(data.slice(last, m.index));
    const sym = icon(term.sheet, term.id, { size: 14 });
    sym.style.marginRight = "0.15em";
    const span = document.createElement("span");
    span.className = "sym-term";
    span.append(sym, m[0]);
    out.append(span);
    last = m.index + m[0].length;
  }
  if (last < data.length) out.append(data.slice(last));
  text.replaceWith(out);
}

// Decorates the text under node (an element or a text node) with the terms' symbols.
export function addSymbols(node, matcher) {
  if (!matcher || !node) return;
  if (node.nodeType === Node.TEXT_NODE) {
    decorateText(node, matcher);
    return;
  }
  if (node.nodeType !== Node.ELEMENT_NODE) return;
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  const texts = [];
  while (walker.nextNode()) texts.push(walker.currentNode);
  for (const t of texts) decorateText(t, matcher);
}

// Keeps the explanations of the table (the boxes named by ids) decorated with the terms'
// symbols as the table shell fills them: a game module calls it from its setup(ctx). Boxes
// the page lacks are left out; a second call replaces the terms.
let watcher = null;
export function explainWithSymbols(terms, ids = EXPLAINED) {
  watcher?.disconnect();
  const matcher = termsMatcher(terms);
  if (!matcher) return;
  watcher = new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === "characterData") addSymbols(r.target, matcher);
      else for (const n of r.addedNodes) if (n.isConnected) addSymbols(n, matcher);
    }
    watcher.takeRecords(); // the symbols just added
  });
  for (const id of ids) {
    const box = document.getElementById(id);
    if (!box) continue;
    addSymbols(box, matcher);
    watcher.observe(box, { childList: true, subtree: true, characterData: true });
  }
}
