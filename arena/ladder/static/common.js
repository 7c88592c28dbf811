// What the ladder's pages share: JSON requests (errors carry the server's own message), the live
// feed (server-sent events from /api/ladder/events) and number formatting.

import { request } from "/static/api.js";

export const getJSON = (path, token) => request("GET", path, undefined, token);

export const postJSON = (path, body, token) => request("POST", path, body, token);

/**
 * Call ``refresh()`` now and again whenever the ladder's store changes (an ``event: change``),
 * one refresh at a time and at most one per ``every`` ms: the changes during a refresh or the
 * pause after it make one more refresh (a busy ladder writes several times a second; a bot's page
 * costs the server more than the board). ``status`` is told "live", "reconnecting" as the feed
 * comes and goes. Returns a function that stops it.
 */
export function live(refresh, status = () => {}, every = 1000) {
  let running = false;
  let again = false;
  const pause = () => new Promise((resolve) => setTimeout(resolve, every));
  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        try {
          await refresh();
        } catch (err) {
          console.error(err);
        }
        await pause();
      } while (again);
    } finally {
      running = false;
    }
  };
  const source = new EventSource("/api/ladder/events");
  source.addEventListener("change", run);
  source.addEventListener("open", () => status("live"));
  source.addEventListener("error", () => status(source.readyState === EventSource.CLOSED ? "closed" : "reconnecting"));
  run();
  return () => source.close();
}

export function fixed(value, digits = 1) {
  return typeof value === "number" && Number.isFinite(value) ? value.toFixed(digits) : "–";
}

export function signed(value, digits = 1) {
  if (typeof value !== "number") return "–";
  const text = value.toFixed(digits);
  return value > 0 ? `+${text}` : text;
}

export function when(seconds) {
  if (typeof seconds !== "number") return "";
  return new Date(seconds * 1000).toISOString().replace("T", " ").slice(0, 19) + " UTC";
}

export const KIND_NAMES = { python: "Python", program: "program", grpc: "gRPC endpoint", house: "house" };

export function statusText(row) {
  return row.reason ? `${row.status}: ${row.reason}` : row.status;
}
