// The page's entry point: a hash router over three views, the start screen (#/), a table
// (#/table/<id>) and the leaderboard (#/leaderboard?game=..&date=..). Hash routes need no server
// routes of their own, and a reload lands on the same view.

import { el, clear } from "./dom.js";
import { api } from "./api.js";
import { openTable } from "./table.js";
import { showStart } from "./start.js";
import { showLeaderboard } from "./leaderboard.js";
import { showDailyDeal } from "./dailyview.js";

const root = document.getElementById("app");
let current = null; // the open table, closed when the route changes

function route() {
  if (current) {
    current.close();
    current = null;
  }
  const hash = location.hash.replace(/^#/, "") || "/";
  const [path, query] = hash.split("?");
  const params = new URLSearchParams(query || "");
  const table = /^\/table\/([^/]+)$/.exec(path);
  const dailyDeal = /^\/daily\/([^/]+)\/(\d+)$/.exec(path);
  window.scrollTo(0, 0);
  if (table) {
    document.title = "Table – Trick Arena";
    current = openTable(root, decodeURIComponent(table[1]));
  } else if (dailyDeal) {
    document.title = "Daily deal – Trick Arena";
    showDailyDeal(root, decodeURIComponent(dailyDeal[1]), Number(dailyDeal[2])).catch(failed);
  } else if (path === "/leaderboard") {
    document.title = "Leaderboard – Trick Arena";
    // no game named: the server's first (its list is in the games' own order)
    const game = params.get("game") ? Promise.resolve(params.get("game")) : api.games().then((games) => games[0].name);
    game.then((name) => showLeaderboard(root, name, params.get("date") || "today")).catch(failed);
  } else {
    document.title = "Trick Arena: play cards against the bots";
    showStart(root).catch(failed);
  }
}

function failed(error) {
  clear(root).appendChild(el("div", { class: "panel error", role: "alert" },
    el("h2", {}, "Something went wrong"), el("p", {}, error.message || String(error)),
    el("p", {}, el("a", { href: "#/" }, "Back to the start"))));
}

window.addEventListener("hashchange", route);
// The first request sets the arena_player cookie; ask for it before anything else needs it.
api.me().catch(() => null).finally(route);
