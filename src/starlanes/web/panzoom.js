// Pinch-zoom and pan of an SVG board with pointer events (two fingers pinch, one finger or
// the mouse drags once zoomed, ctrl + wheel or a trackpad pinch zooms), plus the zoom
// buttons. The zoom survives redraws: the board's module draws a fresh <svg> with its full
// viewBox and apply() narrows it to the part shown. A drag never counts as a tap.
const MAX = 5;

export function panZoom(box, buttons) {
  const z = { s: 1, x: 0, y: 0, base: null };
  const pointers = new Map();
  let start = null;
  let moved = false;

  const target = () => box.querySelector("svg.zoomable");
  function apply() {
    const root = target();
    if (!root) return;
    if (!root.dataset.base) root.dataset.base = root.getAttribute("viewBox");
    const [bx, by, bw, bh] = root.dataset.base.split(/\s+/).map(Number);
    z.base = { bx, by, bw, bh };
    const w = bw / z.s;
    const h = bh / z.s;
    z.x = Math.max(0, Math.min(bw - w, z.x));
    z.y = Math.max(0, Math.min(bh - h, z.y));
    root.setAttribute("viewBox", `${bx + z.x} ${by + z.y} ${w} ${h}`);
    box.classList.toggle("zoomed", z.s > 1.01);
  }
  // zoom by factor around the point (px, py) of the board's box, in screen pixels
  function zoom(factor, px, py) {
    const root = target();
    if (!root || !z.base) return;
    const r = root.getBoundingClientRect();
    const fx = r.width ? (px ?? r.width / 2) / r.width : 0.5;
    const fy = r.height ? (py ?? r.height / 2) / r.height : 0.5;
    const before = { w: z.base.bw / z.s, h: z.base.bh / z.s };
    z.s = Math.max(1, Math.min(MAX, z.s * factor));
    const after = { w: z.base.bw / z.s, h: z.base.bh / z.s };
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
    const unit = z.base.bw / z.s / (r.width || 1);
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
  // show the part of the board around (cx, cy) (board units) at scale s
  function focus(cx, cy, s) {
    const root = target();
    if (!root) return;
    const [, , bw, bh] = (root.dataset.base || root.getAttribute("viewBox")).split(/\s+/).map(Number);
    const [bx, by] = (root.dataset.base || root.getAttribute("viewBox")).split(/\s+/).map(Number);
    z.s = Math.max(1, Math.min(MAX, s));
    z.x = cx - bx - bw / z.s / 2;
    z.y = cy - by - bh / z.s / 2;
    apply();
  }
  buttons.zoomIn?.addEventListener("click", () => zoom(1.4));
  buttons.zoomOut?.addEventListener("click", () => zoom(1 / 1.4));
  buttons.reset?.addEventListener("click", () => { z.s = 1; z.x = 0; z.y = 0; apply(); });
  return { apply, zoom, focus };
}
