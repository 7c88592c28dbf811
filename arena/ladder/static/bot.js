// A bot's page: its versions (retired ones greyed, with their history), its rating history per
// ladder (an SVG chart), recent deal sets with their matches' replays, faults with their causes,
// and head to head. Re-rendered on every change the server announces.

import { el, clear } from "/static/dom.js";
import { getJSON, live, fixed, signed, when, KIND_NAMES } from "./common.js";
import { historyChart } from "./chart.js";

const root = document.getElementById("app");
const name = decodeURIComponent(location.pathname.replace(/^\/ladder\/bots\//, "").replace(/\/$/, ""));

async function refresh() {
  let data;
  try {
    data = await getJSON(`/api/ladder/bots/${encodeURIComponent(name)}`);
  } catch (err) {
    clear(root).appendChild(el("div", { class: "panel error", role: "alert" }, el("p", {}, err.message),
      el("p", {}, el("a", { href: "/ladder" }, "Back to the ladder"))));
    return;
  }
  document.title = `${data.bot} – Trick Arena ladder`;
  clear(root).append(
    el("h1", { id: "bot-name", "data-bot": data.bot }, data.bot, el("small", { class: "by" }, ` by ${data.author}`)),
    versions(data),
    history(data),
    recent(data),
    faults(data),
    headToHead(data),
    el("p", {}, el("a", { href: "/ladder" }, "Back to the ladder")));
  root.dataset.changes = String(data.changes);
}

function versions(data) {
  return el("section", { id: "versions", class: "panel" }, el("h2", {}, "Versions"),
    el("table", { class: "leaderboard" },
      el("thead", {}, el("tr", {}, ["Version", "Kind", "Games", "Status", "Submitted", "Ratings (μ − 3σ)"].map((h) => el("th", {}, h)))),
      el("tbody", {}, [...data.versions].reverse().map((v) => el("tr", { class: `status-${v.status}`, "data-version": v.version, "data-status": v.status },
        el("td", {}, `v${v.version}`),
        el("td", {}, KIND_NAMES[v.kind] || v.kind),
        el("td", {}, v.games.join(", ")),
        el("td", { class: "status" }, v.status, v.reason ? el("small", { class: "reason" }, v.reason) : null),
        el("td", {}, when(v.created)),
        el("td", {}, v.ratings.length ? v.ratings.map((r) => el("div", {},
          `${r.ladder}: ${fixed(r.rating, 2)} (μ ${fixed(r.mu, 2)}, σ ${fixed(r.sigma, 2)}; ${r.deal_sets} deal sets, ${r.matches} matches, ${r.faults} with faults)`))
          : "not rated yet"))))));
}

function history(data) {
  const section = el("section", { id: "history", class: "panel" }, el("h2", {}, "Rating history"));
  const ladders = Object.keys(data.history);
  if (!ladders.length) {
    section.appendChild(el("p", { class: "hint" }, "No rated deal set yet."));
    return section;
  }
  for (const ladder of ladders) {
    section.append(el("h3", {}, ladder), el("div", { class: "chart", "data-ladder": ladder }, historyChart(data.history[ladder])),
      el("p", { class: "hint legend-line" }, data.history[ladder].map((s) => el("span", { class: s.status === "retired" ? "retired" : "" },
        `${s.label}${s.status === "retired" ? " (retired)" : ""}: ${s.points.length} deal sets `)),
      "— the line is μ, the band μ ± 2σ, the dashed line the rating μ − 3σ."));
  }
  return section;
}

function recent(data) {
  const rows = data.recent.map((d) => el("tr", { "data-deal-set": d.id, class: d.outcome ? `outcome-${d.outcome}` : "" },
    el("td", {}, String(d.id)),
    el("td", {}, d.ladder),
    el("td", {}, d.lineup.map((e, i) => [i ? " vs " : "", el(e.mine ? "b" : "a", e.mine ? {} : { href: `/ladder/bots/${e.bot}` }, e.label),
      e.margin !== undefined ? ` (${signed(e.margin)})` : ""])),
    el("td", {}, d.outcome || (d.finished ? "" : "playing")),
    el("td", {}, d.matches.map((m) => m.replay
      ? el("a", { href: m.replay, class: "replay", "data-match": m.id }, `replay ${m.rotation + 1}${m.faults ? " ⚠" : ""}`)
      : el("span", { class: "hint" }, `match ${m.rotation + 1} playing`)).flatMap((x, i) => (i ? [" ", x] : [x])))));
  return el("section", { id: "recent", class: "panel" }, el("h2", {}, "Recent deal sets"),
    rows.length ? el("table", { class: "leaderboard" },
      el("thead", {}, el("tr", {}, ["Deal set", "Ladder", "Lineup (summed margins)", "Result", "Matches"].map((h) => el("th", {}, h)))),
      el("tbody", {}, rows)) : el("p", { class: "hint" }, "No deal set yet."));
}

function faults(data) {
  return el("section", { id: "faults", class: "panel" }, el("h2", {}, `Faults (${data.fault_count})`),
    data.faults.length ? el("table", { class: "leaderboard" },
      el("thead", {}, el("tr", {}, ["Version", "Kind", "Cause", "Hand", "Then", "Match"].map((h) => el("th", {}, h)))),
      el("tbody", {}, data.faults.map((f) => el("tr", { "data-kind": f.kind },
        el("td", {}, f.label), el("td", {}, f.kind), el("td", { class: "cause" }, f.message), el("td", {}, String(f.hand ?? "")),
        el("td", {}, f.response || ""), el("td", {}, el("a", { href: f.replay, class: "replay" }, `match ${f.match}`))))))
      : el("p", { class: "hint" }, "No fault."));
}

function headToHead(data) {
  return el("section", { id: "head-to-head", class: "panel" }, el("h2", {}, "Head to head"),
    data.head_to_head.length ? el("table", { class: "leaderboard" },
      el("thead", {}, el("tr", {}, ["Ladder", "Opponent", "Won", "Drawn", "Lost", "Mean margin difference"].map((h) => el("th", {}, h)))),
      el("tbody", {}, data.head_to_head.map((h) => el("tr", { "data-opponent": h.opponent },
        el("td", {}, h.ladder), el("td", {}, el("a", { href: h.url }, h.opponent)), el("td", { class: "number" }, String(h.won)),
        el("td", { class: "number" }, String(h.drawn)), el("td", { class: "number" }, String(h.lost)),
        el("td", { class: "number" }, signed(h.margin)))))) : el("p", { class: "hint" }, "No finished deal set against another bot yet."),
    el("p", { class: "hint" }, "Deal sets won, drawn and lost: this bot's margin summed over the deal set's rotations against the opponent's."));
}

live(refresh, () => {}, 5000); // a bot's page reads all its deal sets: refreshed every 5 s at most
