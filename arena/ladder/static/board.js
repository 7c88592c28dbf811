// The live board: one ladder's versions ranked by rating, re-rendered on every change the server
// announces (server-sent events), without a reload. ?ladder=GAME/PLAYERS picks the tab.

import { el, clear } from "/static/dom.js";
import { getJSON, live, fixed, KIND_NAMES } from "./common.js";
import { intervalBar } from "./chart.js";

const section = document.getElementById("board");
const tabs = document.getElementById("ladder-tabs");
const liveNote = document.getElementById("live");
let chosen = new URLSearchParams(location.search).get("ladder") || "";

async function refresh() {
  const query = chosen ? `?ladder=${encodeURIComponent(chosen)}` : "";
  let data;
  try {
    data = await getJSON(`/api/ladder/board${query}`);
  } catch (err) {
    if (err.status === 404 && chosen) { // a ladder that is not (or no longer) there: the first one
      chosen = "";
      return refresh();
    }
    clear(section).appendChild(el("p", { class: "error", role: "alert" }, err.message));
    return;
  }
  chosen = data.ladder || "";
  renderTabs(data.ladders || []);
  render(data);
}

function renderTabs(ladders) {
  clear(tabs);
  for (const name of ladders) {
    tabs.appendChild(el("button", { type: "button", class: "nav" + (name === chosen ? " chosen" : ""), "data-ladder": name,
      "aria-pressed": name === chosen ? "true" : "false", onclick: () => choose(name) }, name));
  }
}

function choose(name) {
  chosen = name;
  history.replaceState(null, "", `/ladder?ladder=${encodeURIComponent(name)}`);
  refresh();
}

function render(data) {
  const rows = data.rows || [];
  const spans = rows.filter((r) => r.interval).flatMap((r) => r.interval);
  const scale = spans.length ? [Math.min(...spans, ...rows.filter((r) => r.rating !== null).map((r) => r.rating)), Math.max(...spans)] : [0, 1];
  const head = ["#", "Bot", "Version", "Author", "Kind", "Rating", "Interval (μ ± 2σ)", "Deal sets", "Matches", "Faults", "Status"];
  const table = el("table", { class: "leaderboard ladder-board" },
    el("thead", {}, el("tr", {}, head.map((h) => el("th", {}, h)))),
    el("tbody", {}, rows.length ? rows.map((r) => row(r, scale))
      : el("tr", {}, el("td", { colspan: head.length, class: "empty" }, "No bot plays this ladder yet: submit one."))));
  clear(section).appendChild(el("h2", { id: "board-title" }, data.ladder ? `${data.ladder.replace("/", ", ")} players` : "No ladder yet"));
  const c = data.counts || {};
  section.appendChild(el("p", { id: "board-counts", class: "hint" },
    `Round ${c.rounds ?? 0} · ${c.matches_finished ?? 0} of ${c.matches ?? 0} scheduled matches played · `
    + `${c.deal_sets_rated ?? 0} deal sets rated · ${c.active ?? 0} versions playing (all ladders)`));
  section.appendChild(table);
  section.dataset.ladder = data.ladder || "";
  section.dataset.changes = String(data.changes);
  document.title = data.ladder ? `Ladder ${data.ladder} – Trick Arena` : "Ladder – Trick Arena";
}

function row(r, scale) {
  const cls = [`status-${r.status}`, r.rank === null ? "unranked" : ""].join(" ");
  return el("tr", { class: cls, "data-bot": r.bot, "data-version": r.version, "data-rank": r.rank ?? "",
    "data-rating": r.rating ?? "", "data-matches": r.matches, "data-status": r.status },
  el("td", { class: "rank" }, r.rank === null ? "" : String(r.rank)),
  el("td", { class: "bot" }, el("a", { href: r.url }, r.bot)),
  el("td", {}, `v${r.version}`),
  el("td", {}, r.author),
  el("td", {}, KIND_NAMES[r.kind] || r.kind),
  el("td", { class: "number rating" }, r.rating === null ? "not rated" : fixed(r.rating, 2)),
  el("td", { class: "interval" }, r.interval ? [intervalBar(r.interval, r.rating, scale), ` ${fixed(r.interval[0])} – ${fixed(r.interval[1])}`] : ""),
  el("td", { class: "number" }, String(r.deal_sets)),
  el("td", { class: "number matches" }, String(r.matches)),
  el("td", { class: "number faults" + (r.faults ? " has-faults" : "") },
    r.faults ? `${r.faults} (${Math.round(100 * r.fault_rate)}%)` : "0"),
  el("td", { class: "status" }, r.status, r.reason ? el("small", { class: "reason" }, r.reason) : null));
}

live(refresh, (state) => {
  liveNote.dataset.state = state;
  liveNote.textContent = state === "live" ? "live: the board updates by itself" : `${state}…`;
});
