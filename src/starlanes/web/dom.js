// Small DOM helpers shared by the lobby and the tables: element building (text is always
// inserted as text, never as HTML) and a minimal Markdown reader for the rules reference.
//
// The pages run under a Content-Security-Policy without 'unsafe-inline': no inline
// scripts, no on* attributes, no style attributes. Event handlers given as on* keys are
// added with addEventListener; a "style" key must be an object of CSSOM properties
// (node.style.prop = value, which the policy allows), never a string.

const SVG = "http://www.w3.org/2000/svg";

// What the "seeded" badge of a game says (lobby, table, replay).
export const SEEDED = "Seeded by its creator: whoever created this game chose its random "
  + "seed, so they may know how its shuffles and dice will fall. It counts for no rating.";

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  return fill(node, attrs, children);
}

export function svg(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG, tag), attrs, children);
}

// The node's children become these, as el() takes them: undefined, null and "" are left
// out (the DOM's own replaceChildren would write a null as the text "null").
export function setChildren(node, ...children) {
  node.replaceChildren();
  return appendAll(node, children);
}

function fill(node, attrs, children) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.setAttribute("class", v);
    else if (k === "style") setStyle(node, v);
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  return appendAll(node, children);
}

function appendAll(node, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === "") continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function setStyle(node, style) {
  if (typeof style !== "object") {
    throw new TypeError("style attributes are blocked by the Content-Security-Policy: use a class or a style object");
  }
  Object.assign(node.style, style);
}

// Inline Markdown: `code` and **bold**; everything else is text.
function inline(text) {
  const out = [];
  const pattern = /(`[^`]+`|\*\*[^*]+\*\*)/g;
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const token = m[0];
    out.push(token.startsWith("`") ? el("code", {}, token.slice(1, -1)) : el("strong", {}, token.slice(2, -2)));
    last = m.index + token.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

// Block Markdown: headings, bullet and numbered lists, paragraphs.
export function markdown(text) {
  const nodes = [];
  let list = null;
  let para = [];
  const flush = () => {
    if (para.length) nodes.push(el("p", {}, ...inline(para.join(" "))));
    para = [];
  };
  for (const raw of text.split("\n")) {
    const line = raw.trimEnd();
    const heading = line.match(/^(#{1,4})\s+(.*)$/);
    const item = line.match(/^\s*(?:[-*]|\d+\.)\s+(.*)$/);
    if (heading) {
      flush();
      list = null;
      const level = heading[1].length;
      const id = heading[2].match(/\(([A-Z]+-[A-Z-]+)\)\s*$/)?.[1];
      nodes.push(el(`h${level + 1}`, id ? { id } : {}, ...inline(heading[2])));
    } else if (item) {
      flush();
      if (!list) {
        list = el("ul");
        nodes.push(list);
      }
      list.append(el("li", {}, ...inline(item[1])));
    } else if (!line.trim()) {
      flush();
      list = null;
    } else {
      list = null;
      para.push(line.trim());
    }
  }
  flush();
  return nodes;
}
