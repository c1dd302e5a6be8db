// "How to play": the game's rules reference (Markdown from the server) split into its
// sections with a table of contents, the game's symbols drawn with their names first, and
// rule IDs (RD-MOV-03) set in small print so the text reads as prose.
import { el, markdown } from "./dom.js";
import { catalogue, symbolList } from "./symbols.js";

const RULE_ID = /\b([A-Z]{2,4}(?:-[A-Z0-9]+){1,3})\b/g;

function smallRuleIds(node) {
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  const texts = [];
  while (walker.nextNode()) texts.push(walker.currentNode);
  for (const t of texts) {
    if (t.parentElement?.closest("code")) continue;
    const parts = t.textContent.split(RULE_ID);
    if (parts.length < 2) continue;
    const frag = document.createDocumentFragment();
    parts.forEach((p, i) => { if (p) frag.append(i % 2 ? el("small", { class: "rule-id" }, p) : p); });
    t.replaceWith(frag);
  }
}

export async function rulesContent(game, text) {
  const nodes = markdown(text);
  const body = el("div");
  const symbols = await catalogue(game);
  if (symbols.length) {
    body.append(el("h2", { id: "rules-symbols" }, "Symbols"), symbolList(el, game, symbols));
  }
  body.append(...nodes);
  smallRuleIds(body);
  const toc = el("ol");
  let n = 0;
  for (const h of body.querySelectorAll("h2, h3")) {
    if (!h.id) h.id = `rules-${(n += 1)}`;
    const link = el("a", { href: `#${h.id}` }, h.textContent.replace(RULE_ID, "").replace(/\(\s*\)/g, "").trim());
    link.addEventListener("click", (e) => {
      e.preventDefault();
      h.scrollIntoView({ block: "start" });
    });
    toc.append(el("li", { class: h.tagName === "H3" ? "sub" : "" }, link));
  }
  return { toc, body };
}
