// Pinch-zoom and pan of an SVG board with pointer events (two fingers pinch, one finger or
// the mouse drags once zoomed, ctrl + wheel or a trackpad pinch zooms), plus the zoom
// buttons. The zoom survives redraws: the board's module draws a fresh <svg> with its full
// viewBox and apply() narrows it to the part shown. A drag never counts as a tap.
//
// A board whose <svg> has a fixed height (a phone's map, see style.css) is shown in the
// element's own proportions: at zoom 1 ("fit") the whole board is centred in it, and a
// zoomed view fills it. After every change the board's <svg> carries data-scale (screen
// pixels per board unit) and onChange() is told, so that labels too small to read hide and
// the edge markers follow (boardplay.js).
const MAX = 8;

export function panZoom(box, buttons, { onChange } = {}) {
  const z = { s: 1, x: 0, y: 0, base: null };
  const pointers = new Map();
  let start = null;
  let moved = false;

  const target = () => box.querySelector("svg.zoomable");
  // The size of the part shown at the current zoom, in board units: the board's own
  // proportions, or the element's when its height is fixed (data-fill, set by apply).
  function shown(root) {
    const { bw, bh } = z.base;
    const r = root.getBoundingClientRect();
    const fill = root.dataset.fill === "1" && r.width > 0 && r.height > 0;
    if (!fill) return { w: bw / z.s, h: bh / z.s };
    const aspect = r.height / r.width;
    const w0 = Math.max(bw, bh / aspect);
    return { w: w0 / z.s, h: (w0 * aspect) / z.s };
  }
  // an axis of the view: centred when the board is narrower than the view, kept on the board otherwise
  const clamp = (pos, size, whole) => (size >= whole ? (whole - size) / 2 : Math.max(0, Math.min(whole - size, pos)));
  function apply() {
    const root = target();
    if (!root) return;
    if (!root.dataset.base) root.dataset.base = root.getAttribute("viewBox");
    root.dataset.fill = getComputedStyle(root).getPropertyValue("--board-fill").trim() === "1" ? "1" : "";
    const [bx, by, bw, bh] = root.dataset.base.split(/\s+/).map(Number);
    z.base = { bx, by, bw, bh };
    const { w, h } = shown(root);
    z.x = clamp(z.x, w, bw);
    z.y = clamp(z.y, h, bh);
    root.setAttribute("viewBox", `${bx + z.x} ${by + z.y} ${w} ${h}`);
    const width = root.getBoundingClientRect().width;
    root.dataset.scale = width ? (width / w).toFixed(3) : "";
    box.classList.toggle("zoomed", z.s > 1.01);
    onChange?.();
  }
  // zoom by factor around the point (px, py) of the board's box, in screen pixels
  function zoom(factor, px, py) {
    const root = target();
    if (!root || !z.base) return;
    const r = root.getBoundingClientRect();
    const fx = r.width ? (px ?? r.width / 2) / r.width : 0.5;
    const fy = r.height ? (py ?? r.height / 2) / r.height : 0.5;
    const before = shown(root);
    z.s = Math.max(1, Math.min(MAX, z.s * factor));
    const after = shown(root);
    z.x += (before.w - after.w) * fx;
    z.y += (before.h - after.h) * fy;
    apply();
  }
  const local = (e) => {
    const r = target().getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  };

  box.addEventListener("pointerdown", (e) => {
    if (!target()) return;
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    moved = false;
    start = { s: z.s, x: z.x, y: z.y, pts: new Map(pointers) };
  });
  box.addEventListener("pointermove", (e) => {
    if (!pointers.has(e.pointerId) || !start || !z.base) return;
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    const root = target();
    const r = root.getBoundingClientRect();
    const unit = shown(root).w / (r.width || 1);
    if (pointers.size === 1 && start.pts.has(e.pointerId)) {
      const [sx, sy] = start.pts.get(e.pointerId);
      const dx = e.clientX - sx;
      const dy = e.clientY - sy;
      if (!moved && Math.hypot(dx, dy) < 8) return;
      if (z.s <= 1.01) return; // nothing to pan: leave the gesture to the page
      moved = true;
      z.x = start.x - dx * unit;
      z.y = start.y - dy * unit;
      apply();
    } else if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const [a0, b0] = [...start.pts.values()];
      if (!a0 || !b0) return;
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
      const d0 = Math.hypot(a0[0] - b0[0], a0[1] - b0[1]) || 1;
      moved = true;
      const factor = (start.s * d / d0) / z.s;
      zoom(factor, (a[0] + b[0]) / 2 - r.left, (a[1] + b[1]) / 2 - r.top);
    }
  });
  const up = (e) => {
    pointers.delete(e.pointerId);
    if (!pointers.size) start = null;
  };
  box.addEventListener("pointerup", up);
  box.addEventListener("pointercancel", up);
  // a drag or a pinch ends with no tap on what lies under the finger
  box.addEventListener("click", (e) => {
    if (moved) {
      e.stopPropagation();
      e.preventDefault();
      moved = false;
    }
  }, true);
  box.addEventListener("wheel", (e) => {
    if (!e.ctrlKey || !target()) return;
    e.preventDefault();
    const [px, py] = local(e);
    zoom(e.deltaY < 0 ? 1.15 : 1 / 1.15, px, py);
  }, { passive: false });
  // show the part of the board around (cx, cy) (board units) at zoom s (1: the whole board)
  function focus(cx, cy, s) {
    const root = target();
    if (!root) return;
    if (!root.dataset.base) root.dataset.base = root.getAttribute("viewBox");
    const [bx, by, bw, bh] = root.dataset.base.split(/\s+/).map(Number);
    z.base = { bx, by, bw, bh };
    z.s = Math.max(1, Math.min(MAX, s));
    const { w, h } = shown(root);
    z.x = cx - bx - w / 2;
    z.y = cy - by - h / 2;
    apply();
  }
  // the zoom at which one board unit is k screen pixels
  function zoomFor(k) {
    const root = target();
    if (!root || !z.base) return 1;
    const width = root.getBoundingClientRect().width || 1;
    const s1 = z.s;
    z.s = 1;
    const fit = shown(root).w;
    z.s = s1;
    return (k * fit) / width;
  }
  // the part shown, in board units: { x, y, w, h }, and the screen pixels per unit
  function view() {
    const root = target();
    if (!root) return null;
    const [x, y, w, h] = root.getAttribute("viewBox").split(/\s+/).map(Number);
    return { x, y, w, h, k: Number(root.dataset.scale) || 1 };
  }
  buttons.zoomIn?.addEventListener("click", () => zoom(1.4));
  buttons.zoomOut?.addEventListener("click", () => zoom(1 / 1.4));
  buttons.reset?.addEventListener("click", () => { z.s = 1; z.x = 0; z.y = 0; apply(); });
  return {
    apply, zoom, focus, view, zoomFor,
    // keep the zoom, bring (cx, cy) to the middle
    centre: (cx, cy) => focus(cx, cy, z.s),
    level: () => z.s,
  };
}
