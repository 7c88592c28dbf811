// The server's JSON API (same origin, the arena_player cookie rides along). Every failure becomes
// an Error whose message is the server's own {"error": ...} text, so the page can show it as is.
// The ladder's pages use request() too, with their author's token.

export async function request(method, path, body, token) {
  const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  if (token) init.headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new Error(`the server cannot be reached (${method} ${path}): ${err.message}`);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const reason = data && data.error ? data.error : text.slice(0, 300) || response.statusText;
    const error = new Error(reason);
    error.status = response.status;
    error.data = data; // a refusal the page can say in its own language carries a `code` (i18n.serverText)
    throw error;
  }
  return data;
}

const call = (method, path, body) => request(method, path, body);

export const api = {
  me: () => call("GET", "/api/me"),
  setNickname: (nickname) => call("POST", "/api/me", { nickname }),
  games: () => call("GET", "/api/games"),
  tables: () => call("GET", "/api/tables"),
  table: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}`),
  createTable: (spec) => call("POST", "/api/tables", spec),
  abandonTable: (id) => call("DELETE", `/api/tables/${encodeURIComponent(id)}`),
  leaderboard: (game, date) =>
    call("GET", `/api/leaderboard?game=${encodeURIComponent(game)}&date=${encodeURIComponent(date)}`),
};

/** The WebSocket URL of a table, on the page's own host. */
export function tableSocketUrl(id) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws/tables/${encodeURIComponent(id)}`;
}

export function replayUrl(id) {
  return `/tables/${encodeURIComponent(id)}/replay`;
}

export function recordUrl(id) {
  return `/api/tables/${encodeURIComponent(id)}/record`;
}
