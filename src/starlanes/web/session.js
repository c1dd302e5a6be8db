// The account logged in on this browser (the HttpOnly session cookie) and the CSRF token
// that every change made with that cookie repeats in the X-CSRF-Token header.
import { call } from "./api.js";

let current = null;

// { account: { id, name } | null, csrf: string | null }, asked once per page (refresh: again)
export function me(refresh = false) {
  if (!current || refresh) {
    current = call("GET", "/api/account").catch(() => ({ account: null, csrf: null }));
  }
  return current;
}

// A change made with the session: method, path, JSON body; throws ApiError like api.js.
export async function send(method, path, body = {}) {
  const { csrf } = await me();
  return call(method, path, body, null, csrf ? { "X-CSRF-Token": csrf } : {});
}

// A read made with the session (the cookie goes with every same-origin request).
export function get(path) {
  return call("GET", path);
}
