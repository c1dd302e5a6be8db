// The server's JSON API and its websocket, as small async functions.
// Every call returns parsed JSON or throws an Error whose message is the server's reason
// (for a limit, 429 or 413, with when to try again when the server says so).

export class ApiError extends Error {
  // retryAfter: the seconds a refusal for a limit (429) asks the caller to wait, or 0
  constructor(status, message, retryAfter = 0) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

// extra: more request headers (the session's CSRF token, see session.js)
export async function call(method, path, body, token, extra = {}) {
  const headers = { Accept: "application/json", ...extra };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    // fetch itself failed: no answer at all (offline, server down), said in plain words
    throw new ApiError(0, "The server cannot be reached: check your connection. Nothing was changed; try again once the table says it is connected.");
  }
  const text = await response.text();
  let data = {};
  try {
    data = text ? JSON.parse(text) : {};
  } catch {
    data = { error: text };
  }
  if (!response.ok) {
    let reason = data.error;
    if (!reason && Array.isArray(data.detail)) {
      reason = data.detail.map((d) => `${d.loc.slice(1).join(".")}: ${d.msg}`).join("; ");
    }
    reason = reason || (response.status >= 500
      ? `The server could not answer just now (${response.status}); nothing was changed, try again in a moment.`
      : `${response.status} ${response.statusText}`);
    const retry = Number(response.headers.get("Retry-After"));
    const busy = response.status === 429 && retry > 0;
    if (busy) reason += ` (try again in ${retry} s)`;
    throw new ApiError(response.status, reason, busy ? retry : 0);
  }
  return data;
}

export const api = {
  catalogue: () => call("GET", "/api/catalogue"),
  lobby: () => call("GET", "/api/games"),
  create: (settings) => call("POST", "/api/games", settings),
  // setup: what the seat brings (a deck code in a Galactic Empires Standard Game), or ""
  join: (id, name, seat, setup = "") => call("POST", `/api/games/${id}/join`, { name, seat, setup }),
  view: (id, token) => call("GET", `/api/games/${id}/view`, undefined, token),
  layout: (id) => call("GET", `/api/games/${id}/layout`),
  act: (id, token, seq, action) => call("POST", `/api/games/${id}/actions`, { seq, action }, token),
  // undo names the position it was asked at (409 once stale); only a seat asks a rematch
  undo: (id, token, seq) => call("POST", `/api/games/${id}/undo`, { seq }, token),
  rematch: (id, token) => call("POST", `/api/games/${id}/rematch`, {}, token),
  rules: (game) => call("GET", `/api/rules/${game}`),
  describe: (id, token, action) => call("GET", `/api/games/${id}/describe?action=${encodeURIComponent(action)}`, undefined, token),
  odds: (id, token, action) => call("GET", `/api/games/${id}/odds?action=${encodeURIComponent(action)}`, undefined, token),
  replay: (id, step, seat) => call("GET", `/api/games/${id}/replay?${new URLSearchParams({ ...(step === null ? {} : { step }), ...(seat === null ? {} : { seat }) })}`),
  replayRecord: (record, step, seat) => call("POST", "/api/replay", { record, step, seat }),
};

// Open the game's websocket and call onView with every view pushed; reconnects after a
// drop with a growing delay. Returns a function that closes it for good.
export function watch(id, token, onView, onStatus) {
  let socket = null;
  let closed = false;
  let delay = 500;
  const open = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = token ? `?token=${encodeURIComponent(token)}` : "";
    socket = new WebSocket(`${scheme}://${location.host}/ws/games/${id}${query}`);
    socket.onopen = () => {
      delay = 500;
      onStatus?.("live");
    };
    socket.onmessage = (event) => onView(JSON.parse(event.data));
    socket.onclose = (event) => {
      if (closed) return;
      // 44xx: the server refused this viewer for good (4429, too many sockets: try later)
      if (event.code >= 4400 && event.code < 4500 && event.code !== 4429) {
        onStatus?.(`refused: ${event.reason}`);
        return;
      }
      onStatus?.(event.code === 4429 ? `reconnecting: ${event.reason}` : "reconnecting");
      if (event.code === 4429) delay = Math.max(delay, 8000);
      setTimeout(open, delay);
      delay = Math.min(delay * 2, event.code === 4429 ? 60000 : 8000);
    };
  };
  open();
  return () => {
    closed = true;
    socket?.close();
  };
}
