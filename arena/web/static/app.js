// The page's entry point: a hash router over three views, the start screen (#/), a table
// (#/table/<id>) and the leaderboard (#/leaderboard?game=..&date=..). Hash routes need no server
// routes of their own, and a reload lands on the same view.

import { el, clear } from "./dom.js";
import { api } from "./api.js";
import { openTable } from "./table.js";
import { showStart } from "./start.js";
import { showLeaderboard } from "./leaderboard.js";
import { t, setLanguage, preferred, languagePicker } from "./i18n.js";
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
    document.title = t("title.table");
    current = openTable(root, decodeURIComponent(table[1]));
  } else if (dailyDeal) {
    document.title = t("title.daily_deal");
    showDailyDeal(root, decodeURIComponent(dailyDeal[1]), Number(dailyDeal[2])).catch(failed);
  } else if (path === "/leaderboard") {
    document.title = t("title.leaderboard");
    // no game named: the server's first (its list is in the games' own order)
    const game = params.get("game") ? Promise.resolve(params.get("game")) : api.games().then((games) => games[0].name);
    game.then((name) => showLeaderboard(root, name, params.get("date") || "today")).catch(failed);
  } else {
    document.title = t("title.start");
    showStart(root).catch(failed);
  }
}

function failed(error) {
  clear(root).appendChild(el("div", { class: "panel error", role: "alert" },
    el("h2", {}, t("error.title")), el("p", {}, error.message || String(error)),
    el("p", {}, el("a", { href: "#/" }, t("nav.back_to_start")))));
}

/** The site header's words and the language picker, in the page's language. */
function header() {
  const home = document.querySelector("header.site .home");
  if (home) home.textContent = t("site.name");
  const board = document.getElementById("site-leaderboard");
  if (board) board.textContent = t("nav.leaderboard");
  const slot = document.getElementById("site-language");
  if (slot) clear(slot).appendChild(languagePicker(() => (header(), route())));
}

window.addEventListener("hashchange", route);
// The page's language first (the catalogues), then the first request, which sets the arena_player
// cookie, before anything else needs it.
setLanguage(preferred()).catch(() => null).then(header).then(() => api.me().catch(() => null)).finally(route);
