// The table of a game that has no browser board yet: the seat's observation as a readable
// outline. Everything else (players, actions with explanations, log) comes from the shell.

function outline(ctx, value, depth = 0) {
  const { el } = ctx;
  if (value === null || typeof value !== "object") return el("span", { class: "value" }, value === null ? "-" : String(value));
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  if (!entries.length) return el("span", { class: "muted" }, Array.isArray(value) ? "none" : "-");
  const list = el("ul", { class: "outline" });
  for (const [k, v] of entries) {
    const item = el("li", {}, el("span", { class: "key" }, `${k}: `), outline(ctx, v, depth + 1));
    list.append(item);
  }
  if (depth > 0 && entries.length > 6) {
    const details = ctx.el("details", {}, ctx.el("summary", {}, `${entries.length} entries`), list);
    return details;
  }
  return list;
}

export function setup(ctx) {
  ctx.legend.textContent = "This game has no drawn board in the browser yet: its state is shown as an outline.";
}

export function draw(view, ctx) {
  if (!view) return;
  ctx.board.replaceChildren(outline(ctx, view.observation));
  ctx.panels.replaceChildren();
}
