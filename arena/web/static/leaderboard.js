// The leaderboard of one game and day (or all time): people ranked on the same cards, each beside
// the par, what the bundled bots scored with the same cards in the same seat.

import { el, clear } from "./dom.js";
import { api, replayUrl } from "./api.js";
import { dailyText as t } from "./daily_text.js";

export async function showLeaderboard(root, game, date) {
  const [games, board] = await Promise.all([api.games(), api.leaderboard(game, date)]);
  const go = (g, d) => (location.hash = `#/leaderboard?game=${encodeURIComponent(g)}&date=${encodeURIComponent(d)}`);
  const picker = el("select", { id: "board-game", "aria-label": "game", onchange: () => go(picker.value, date) },
    games.map((g) => el("option", { value: g.name, selected: g.name === game }, g.title)));
  const dateInput = el("input", { type: "date", id: "board-date", "aria-label": "date",
    value: /^\d{4}-\d{2}-\d{2}$/.test(board.date || "") ? board.date : "",
    onchange: () => dateInput.value && go(game, dateInput.value) });
  const tab = (label, value) => el("button", { type: "button", class: "nav" + (date === value ? " chosen" : ""), "data-date": value,
    "aria-pressed": date === value ? "true" : "false", onclick: () => go(game, value) }, label);
  const rows = board.rows || [];
  const allTime = board.date === "all";
  const table = board.kind === "matchpoints" ? matchpointsTable(board, allTime) : el("table", { id: "leaderboard", class: "leaderboard" },
    el("thead", {}, el("tr", {}, ["#", "Player", allTime ? "Margins" : "Margin", "Par", "vs par", allTime ? "Games" : ""].map((h) => el("th", {}, h)))),
    el("tbody", {}, rows.length ? rows.map((r) => el("tr", { class: r.mine ? "mine" : "" },
      el("td", {}, String(r.rank ?? "")),
      el("td", {}, r.nickname || "(no name)"),
      el("td", {}, show(r.score)),
      el("td", {}, show(r.par)),
      el("td", { class: numberClass(r.versus_par) }, r.versus_par === null && r.termination && r.termination !== "normal" ? r.termination : signed(r.versus_par)),
      el("td", {}, allTime ? String(r.games ?? "") : replayLink(r))))
      : el("tr", {}, el("td", { colspan: 6, class: "empty" }, allTime ? "No ranked games yet." : "Nobody has finished this deal yet."))));
  clear(root).appendChild(el("section", { id: "leaderboard-view", class: "board" },
    el("h1", {}, "Leaderboard"),
    el("div", { class: "board-controls" }, picker, tab("Today", "today"), tab("Yesterday", "yesterday"), tab("All time", "all"), dateInput),
    el("p", { id: "board-heading" }, `${titleOf(games, board.game || game)}: ${board.date === "all" ? "all time" : board.date || date}`),
    board.kind === "matchpoints" ? el("p", { id: "par", class: "hint" }, t("board_note")) : parBlock(board.par),
    table,
    board.kind === "matchpoints" && (board.bots || []).length ? botsTable(board.bots) : null,
    el("p", {}, el("a", { href: "#/" }, "Back to the start"))));
}

// The daily sets' board: people by matchpoints (docs/web.md, "The daily set"); a row links to the
// set's deals, which open once you have played them (or the day is over).
function matchpointsTable(board, allTime) {
  const rows = board.rows || [];
  const pct = (v) => (typeof v === "number" ? `${(Math.round(v * 10) / 10).toFixed(1)}%` : "–");
  return el("table", { id: "leaderboard", class: "leaderboard", "data-kind": "matchpoints" },
    el("thead", {}, el("tr", {}, ["#", t("board_player"), t("board_total"), allTime ? t("board_days") : t("board_played"), ""]
      .map((h) => el("th", {}, h)))),
    el("tbody", {}, rows.length ? rows.map((r) => el("tr", { class: r.mine ? "mine" : "" },
      el("td", {}, String(r.rank ?? "")),
      el("td", {}, r.nickname || "(no name)"),
      el("td", {}, allTime ? String(r.total) : pct(r.total)),
      el("td", {}, allTime ? String(r.days) : `${r.played}/${r.deals}${r.finished ? "" : ` (${t("in_progress")})`}`),
      el("td", {}, r.link ? el("a", { href: r.link }, t("board_details")) : "")))
      : el("tr", {}, el("td", { colspan: 5, class: "empty" }, allTime ? t("board_empty_all") : t("board_empty")))));
}

function botsTable(bots) {
  const pct = (v) => `${(Math.round(v * 10) / 10).toFixed(1)}%`;
  return el("section", {}, el("h2", {}, t("board_bots")),
    el("table", { id: "board-bots", class: "leaderboard" },
      el("thead", {}, el("tr", {}, [t("board_bot"), t("board_total"), t("board_played")].map((h) => el("th", {}, h)))),
      el("tbody", {}, bots.map((b) => el("tr", { "data-bot": b.bot },
        el("td", {}, b.bot, b.par ? ` (${t("board_par")})` : ""), el("td", {}, pct(b.total)), el("td", {}, String(b.deals)))))));
}

function parBlock(par) {
  // The par: the heuristic bot in the person's seat on the same cards; its margin is what a
  // person's margin is compared with (docs/web.md).
  if (!par) return el("p", { id: "par", class: "hint" }, "All time: each player's margins and pars summed over their ranked days.");
  const scores = Array.isArray(par.scores) ? ` (it finished ${par.scores.join(" to ")})` : "";
  return el("p", { id: "par", class: "par" }, el("b", {}, `Par ${signed(par.margin)}`),
    el("span", {}, `: the margin of the heuristic bot in your seat with the same cards${scores}. `
      + "Your margin is your side's final score less the best other side's."));
}

function replayLink(row) {
  // One's own games always; everyone's once the day's deal is over (they show its cards).
  if (!row.table) return "";
  if (row.mine || row.public) return el("a", { href: row.replay || replayUrl(row.table) }, "replay");
  return el("small", { class: "hint" }, "replay tomorrow");
}

function titleOf(games, name) {
  const g = games.find((x) => x.name === name);
  return g ? g.title : name;
}

function show(v) {
  if (v === null || v === undefined) return "–";
  return typeof v === "number" ? String(Math.round(v * 10) / 10) : String(v);
}

function signed(v) {
  if (typeof v !== "number") return show(v);
  const r = Math.round(v * 10) / 10;
  return r > 0 ? `+${r}` : String(r);
}

function numberClass(v) {
  return typeof v === "number" ? (v > 0 ? "plus" : v < 0 ? "minus" : "") : "";
}
