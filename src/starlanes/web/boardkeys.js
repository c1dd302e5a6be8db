// The board from the keyboard: the board's clickable objects form one tab stop (a roving
// tabindex); the arrow keys move to the nearest object in that direction, Home and End to
// the first and last, Enter or Space does what a click does (shows the object's actions)
// and then moves to the first of them. Every object gets a button role and a label naming
// it and its state (its <title> or its text) unless its module gave one.
export const OBJECT_ATTRS = ["data-ship", "data-sector", "data-planet", "data-point", "data-card", "data-track", "data-seat-hq"];
const SELECTOR = OBJECT_ATTRS.map((a) => `[${a}]`).join(",");

function keyOf(node) {
  for (const a of OBJECT_ATTRS) if (node.hasAttribute(a)) return `[${a}="${CSS.escape(node.getAttribute(a))}"]`;
  return null;
}

function labelOf(node) {
  const title = [...node.children].find((c) => c.tagName.toLowerCase() === "title");
  const text = (title?.textContent || node.getAttribute("title") || node.textContent || "").replace(/\s+/g, " ").trim();
  return text.slice(0, 240);
}

export function boardKeys(board, { onOpen } = {}) {
  let current = null;
  const objects = () => [...board.querySelectorAll(SELECTOR)].filter((n) => n.getClientRects().length);

  function mark(node, focus) {
    for (const n of board.querySelectorAll("[tabindex='0']")) if (n !== node) n.setAttribute("tabindex", "-1");
    if (!node) return;
    node.setAttribute("tabindex", "0");
    current = keyOf(node);
    if (focus) node.focus({ preventScroll: false });
  }

  // After each draw: roles, labels, one tab stop; focus comes back to the same object when
  // the board had it.
  function enhance() {
    const had = board.contains(document.activeElement) || board.dataset.hadFocus === "1";
    board.dataset.hadFocus = "";
    const list = objects();
    for (const n of list) {
      n.setAttribute("tabindex", "-1");
      if (!n.getAttribute("role") && n.tagName.toLowerCase() !== "button") n.setAttribute("role", "button");
      if (!n.getAttribute("aria-label")) n.setAttribute("aria-label", labelOf(n));
      if (n.classList.contains("selected")) n.setAttribute("aria-pressed", "true");
    }
    const again = current ? board.querySelector(current) : null;
    mark(again && list.includes(again) ? again : list[0], had);
  }

  function nearest(from, key) {
    const list = objects().filter((n) => n !== from);
    const a = from.getBoundingClientRect();
    const ax = a.left + a.width / 2;
    const ay = a.top + a.height / 2;
    let best = null;
    let bestScore = Infinity;
    for (const n of list) {
      const b = n.getBoundingClientRect();
      const dx = b.left + b.width / 2 - ax;
      const dy = b.top + b.height / 2 - ay;
      const along = { ArrowRight: dx, ArrowLeft: -dx, ArrowDown: dy, ArrowUp: -dy }[key];
      const across = key === "ArrowRight" || key === "ArrowLeft" ? Math.abs(dy) : Math.abs(dx);
      if (along <= 1) continue;
      const score = along + 2.5 * across;
      if (score < bestScore) {
        bestScore = score;
        best = n;
      }
    }
    return best;
  }

  board.addEventListener("keydown", (e) => {
    const node = e.target.closest?.(SELECTOR);
    if (!node || !board.contains(node)) return;
    if (e.key.startsWith("Arrow")) {
      e.preventDefault();
      const next = nearest(node, e.key);
      if (next) mark(next, true);
    } else if (e.key === "Home" || e.key === "End") {
      e.preventDefault();
      const list = objects();
      mark(e.key === "Home" ? list[0] : list[list.length - 1], true);
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      current = keyOf(node);
      board.dataset.hadFocus = "1";
      node.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
      onOpen?.();
    }
  });
  board.addEventListener("focusin", (e) => {
    const node = e.target.closest?.(SELECTOR);
    if (node) current = keyOf(node);
  });
  return { enhance, focus: () => { const n = current && board.querySelector(current); if (n) n.focus(); else objects()[0]?.focus(); } };
}
