// The board from the keyboard: the board's clickable objects form one tab stop (a roving
// tabindex); the arrow keys move to the nearest object in that direction (by the objects'
// on-screen centres), Home and End to the first and last, Enter or Space does what a click
// does (shows the object's actions) and then moves to the first of them; Escape (the
// table's shortcut, from anywhere on the table) clears the selection and comes back to the
// object (on the object itself the focus stays there). Every object
// gets a button role and a label naming it and its state (its <title> or its text) unless
// its module gave one.
//
// The focus stays: a redraw (after an action, an undo or any view) that takes away the
// focused node puts the focus back on the same board object, or when it is gone on the
// object nearest to where it was, or on the first action when the board has none. That
// holds for a node of the board, and, for keyboard users, for a node of the containers
// given as `keep` (the decision panel: its action buttons are drawn anew with each view).
//
// The objects: elements carrying one of OBJECT_ATTRS (the attributes that name a board
// object by the word the notation uses for it), NAV_ATTRS (clickable things that name no
// single object: a unit chip, a "+3 more" chip, a move button of a list) and the board's
// <button>s. A game module that draws another clickable thing marks it with data-object.
export const OBJECT_ATTRS = ["data-ship", "data-sector", "data-planet", "data-point", "data-card", "data-track", "data-seat-hq"];
const NAV_ATTRS = ["data-unit", "data-object"];
export const NAV_SELECTOR = [...OBJECT_ATTRS, ...NAV_ATTRS].map((a) => `[${a}]`).join(",") + ",button";
const KEY_ATTRS = [...OBJECT_ATTRS, ...NAV_ATTRS, "data-at", "data-notation", "id"];

// Which object a node is, so that the same one is found again after a redraw: a selector
// of its naming attributes and its index among the nodes it matches.
function keyOf(board, node) {
  const attrs = KEY_ATTRS.filter((a) => node.hasAttribute(a)).map((a) => `[${a}="${CSS.escape(node.getAttribute(a))}"]`);
  const sel = `${CSS.escape(node.localName)}${attrs.join("")}`;
  return { sel, index: [...board.querySelectorAll(sel)].indexOf(node) };
}

function find(board, key) {
  if (!key) return null;
  const all = board.querySelectorAll(key.sel);
  return all[Math.max(0, key.index)] ?? all[0] ?? null;
}

function labelOf(node) {
  const title = [...node.children].find((c) => c.tagName.toLowerCase() === "title");
  const text = (title?.textContent || node.getAttribute("title") || node.textContent || "").replace(/\s+/g, " ").trim();
  return text.slice(0, 240);
}

function centre(node) {
  const r = node.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

// The object an arrow key leads to from `from` among `list` (in document order): the
// nearest centre on that side, a step sideways costing 2.5 times a step forwards. Objects
// whose centres coincide with `from`'s (within a pixel) are ordered as the document is:
// right and down go to the next of them, left and up to the previous.
export function nearest(from, list, key) {
  const a = centre(from);
  const at = list.indexOf(from);
  const forwards = key === "ArrowRight" || key === "ArrowDown";
  let best = null;
  let bestScore = Infinity;
  list.forEach((n, i) => {
    if (n === from) return;
    const b = centre(n);
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    let score;
    if (Math.abs(dx) <= 1 && Math.abs(dy) <= 1) {
      if (forwards ? i < at : i > at) return;
      score = Math.abs(i - at) * 1e-3; // the neighbour in document order first
    } else {
      const along = { ArrowRight: dx, ArrowLeft: -dx, ArrowDown: dy, ArrowUp: -dy }[key];
      const across = key === "ArrowRight" || key === "ArrowLeft" ? Math.abs(dy) : Math.abs(dx);
      if (along <= 1) return;
      score = along + 2.5 * across;
    }
    if (score < bestScore) {
      bestScore = score;
      best = n;
    }
  });
  return best;
}

// Where a node's centre is, relative to the board (the same after the page scrolls).
function spot(board, node) {
  const b = board.getBoundingClientRect();
  const c = centre(node);
  return { x: c.x - b.left, y: c.y - b.top };
}

// Whether the focus is lost: on the page's body, on nothing, or on a node that is no longer
// in the page, no longer shown or disabled (the browser moves the focus off it to the body
// soon after).
export function focusLost() {
  const a = document.activeElement;
  return !a || a === document.body || !a.isConnected || !a.getClientRects().length || a.disabled === true;
}

// board: the element the game module draws into. onOpen runs after Enter or Space clicked
// an object; keep: the containers whose lost focus comes back to the board (see above);
// firstAction() the element to focus when the board has no object. Returns { enhance,
// focus }: enhance() after every draw, focus() to come back to the board.
export function boardKeys(board, { onOpen, keep = [], firstAction = () => null } = {}) {
  let current = null; // the object the board's tab stop is on: keyOf, and its place (at)
  let inside = false; // the focus was last on the board (a redraw removes the focused node)
  let kept = false; // the focus was last in one of `keep`
  let keyboard = false; // the last thing the player used was the keyboard
  const objects = () => [...board.querySelectorAll(NAV_SELECTOR)].filter((n) => n.getClientRects().length);
  const remember = (node) => { current = { ...keyOf(board, node), at: spot(board, node) }; };

  function mark(node, focus) {
    for (const n of board.querySelectorAll("[tabindex='0']")) if (n !== node) n.setAttribute("tabindex", "-1");
    if (!node) return;
    node.setAttribute("tabindex", "0");
    remember(node);
    if (focus) node.focus({ preventScroll: false });
  }

  // The object the tab stop goes back to: the same one, else the one nearest to where it
  // was, else the first.
  function again(list) {
    const same = find(board, current);
    if (same && list.includes(same)) return same;
    if (!current?.at || !list.length) return list[0] ?? null;
    let best = list[0];
    let bestDistance = Infinity;
    for (const n of list) {
      const p = spot(board, n);
      const d = Math.hypot(p.x - current.at.x, p.y - current.at.y);
      if (d < bestDistance) {
        bestDistance = d;
        best = n;
      }
    }
    return best;
  }

  // After each draw: roles, labels, one tab stop; the focus comes back to the same object
  // (or the nearest) when the board had it, or when the decision panel had it and lost it.
  function enhance() {
    const lost = focusLost();
    const had = board.contains(document.activeElement) || board.dataset.hadFocus === "1" || (inside && lost)
      || (kept && keyboard && lost);
    board.dataset.hadFocus = "";
    const list = objects();
    for (const n of list) {
      n.setAttribute("tabindex", "-1");
      if (!n.getAttribute("role") && n.tagName.toLowerCase() !== "button") n.setAttribute("role", "button");
      if (!n.getAttribute("aria-label") && n.tagName.toLowerCase() !== "button") n.setAttribute("aria-label", labelOf(n));
      if (n.classList.contains("selected")) n.setAttribute("aria-pressed", "true");
    }
    const node = again(list);
    mark(node, had);
    if (had && !node) firstAction()?.focus();
  }

  board.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const node = e.target.closest?.(NAV_SELECTOR);
    if (!node || !board.contains(node)) return;
    if (e.key.startsWith("Arrow")) {
      e.preventDefault();
      const next = nearest(node, objects(), e.key);
      if (next) mark(next, true);
    } else if (e.key === "Home" || e.key === "End") {
      e.preventDefault();
      const list = objects();
      mark(e.key === "Home" ? list[0] : list[list.length - 1], true);
    } else if (e.key === "Enter" || e.key === " ") {
      remember(node);
      board.dataset.hadFocus = "1";
      if (node.localName === "button") {
        // a button clicks itself: on this key press for Enter, on the key's release for Space
        if (e.key === "Enter") setTimeout(() => onOpen?.(), 0);
        else node.addEventListener("keyup", () => setTimeout(() => onOpen?.(), 0), { once: true });
        return;
      }
      e.preventDefault();
      node.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
      onOpen?.();
    }
  });
  document.addEventListener("focusin", (e) => {
    inside = board.contains(e.target);
    kept = !inside && keep.some((box) => box?.contains(e.target));
    const node = inside ? e.target.closest?.(NAV_SELECTOR) : null;
    if (node) remember(node);
  });
  // a click elsewhere takes the board's claim on the focus away, even on plain text
  document.addEventListener("mousedown", (e) => { if (!board.contains(e.target)) inside = false; });
  document.addEventListener("keydown", () => { keyboard = true; }, true);
  document.addEventListener("pointerdown", () => { keyboard = false; }, true);
  return {
    enhance,
    focus: () => {
      const node = again(objects());
      if (node) mark(node, true);
      else firstAction()?.focus();
    },
  };
}
