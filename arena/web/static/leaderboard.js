// The leaderboard of one game and day (or all time): people ranked on the same cards, each beside
// the par, what the bundled bots scored with the same cards in the same seat.

import { el, clear } from "./dom.js";
import { api, replayUrl } from "./api.js";
import { t, has } from "./i18n.js";
import { gameTitle, botName } from "./games.js";

export async function showLeaderboard(root, game, date) {
  const [games, board] = await Promise.all([api.games(), api.leaderboard(game, date)]);
  const go = (g, d) => (location.hash = `#/leaderboard?game=${encodeURIComponent(g)}&date=${encodeURIComponent(d)}`);
  const picker = el("select", { id: "board-game", "aria-label": t("board.game"), onchange: () => go(picker.value, date) },
    games.map((g) => el("option", { value: g.name, selected: g.name === game }, gameTitle(g))));
  const dateInput = el("input", { type: "date", id: "board-date", "aria-label": t("board.date"),
    value: /^\d{4}-\d{2}-\d{2}$/.test(board.date || "") ? board.date : "",
    onchange: () => dateInput.value && go(game, dateInput.value) });
  const tab = (label, value) => el("button", { type: "button", class: "nav" + (date === value ? " chosen" : ""), "data-date": value,
    "aria-pressed": date === value ? "true" : "false", onclick: () => go(game, value) }, label);
  const rows = board.rows || [];
  const allTime = board.date === "all";
  const g = games.find((x) => x.name === (board.game || game));
  const table = board.kind === "matchpoints" ? matchpointsTable(board, allTime) : el("table", { id: "leaderboard", class: "leaderboard" },
    el("thead", {}, el("tr", {}, ["#", t("board.player"), allTime ? t("board.margins") : t("board.margin"), t("board.par"), t("board.vs_par"),
      allTime ? t("board.games") : ""].map((h) => el("th", {}, h)))),
    el("tbody", {}, rows.length ? rows.map((r) => el("tr", { class: r.mine ? "mine" : "" },
      el("td", {}, String(r.rank ?? "")),
      el("td", {}, r.nickname || t("board.no_name")),
      el("td", {}, show(r.score)),
      el("td", {}, show(r.par)),
      el("td", { class: numberClass(r.versus_par) }, r.versus_par === null && r.termination && r.termination !== "normal" ? howWord(r.termination) : signed(r.versus_par)),
      el("td", {}, allTime ? String(r.games ?? "") : replayLink(r))))
      : el("tr", {}, el("td", { colspan: 6, class: "empty" }, allTime ? t("board.none_all") : t("board.none_day")))));
  clear(root).appendChild(el("section", { id: "leaderboard-view", class: "board" },
    el("h1", {}, t("nav.leaderboard")),
    el("div", { class: "board-controls" }, picker, tab(t("board.today"), "today"), tab(t("board.yesterday"), "yesterday"), tab(t("board.all_time"), "all"), dateInput),
    el("p", { id: "board-heading" }, t("board.heading", { game: titleOf(games, board.game || game), date: board.date === "all" ? t("board.all_time_lower") : board.date || date })),
    board.kind === "matchpoints" ? el("p", { id: "par", class: "hint" }, t("daily.board_note")) : parBlock(board.par, g),
    table,
    board.kind === "matchpoints" && (board.bots || []).length ? botsTable(board.bots, g) : null,
    el("p", {}, el("a", { href: "#/" }, t("nav.back_to_start")))));
}

const percent = (v) => (typeof v === "number" ? `${(Math.round(v * 10) / 10).toFixed(1)}%` : "–");

// The daily sets' board: people by matchpoints (docs/web.md, "The daily set"); a row links to the
// set's deals, which open once you have played them (or the day is over).
function matchpointsTable(board, allTime) {
  const rows = board.rows || [];
  return el("table", { id: "leaderboard", class: "leaderboard", "data-kind": "matchpoints" },
    el("thead", {}, el("tr", {}, ["#", t("daily.board_player"), t("daily.board_total"), allTime ? t("daily.board_days") : t("daily.board_played"), ""]
      .map((h) => el("th", {}, h)))),
    el("tbody", {}, rows.length ? rows.map((r) => el("tr", { class: r.mine ? "mine" : "" },
      el("td", {}, String(r.rank ?? "")),
      el("td", {}, r.nickname || t("board.no_name")),
      el("td", {}, allTime ? String(r.total) : percent(r.total)),
      el("td", {}, allTime ? String(r.days) : `${r.played}/${r.deals}${r.finished ? "" : ` (${t("daily.in_progress")})`}`),
      el("td", {}, r.link ? el("a", { href: r.link }, t("daily.board_details")) : "")))
      : el("tr", {}, el("td", { colspan: 5, class: "empty" }, allTime ? t("daily.board_empty_all") : t("daily.board_empty")))));
}

function botsTable(bots, g) {
  return el("section", {}, el("h2", {}, t("daily.board_bots")),
    el("table", { id: "board-bots", class: "leaderboard" },
      el("thead", {}, el("tr", {}, [t("daily.board_bot"), t("daily.board_total"), t("daily.board_played")].map((h) => el("th", {}, h)))),
      el("tbody", {}, bots.map((b) => el("tr", { "data-bot": b.bot },
        el("td", {}, botName(g, b.bot), b.par ? ` (${t("daily.board_par")})` : ""), el("td", {}, percent(b.total)), el("td", {}, String(b.deals)))))));
}

function parBlock(par, g) {
  // The par: the heuristic bot in the person's seat on the same cards; its margin is what a
  // person's margin is compared with (docs/web.md).
  if (!par) return el("p", { id: "par", class: "hint" }, t("board.all_time_hint"));
  const scores = Array.isArray(par.scores) ? t("board.par_finished", { scores: par.scores.join(t("board.to")) }) : "";
  return el("p", { id: "par", class: "par" }, el("b", {}, t("board.par_value", { margin: signed(par.margin) })),
    el("span", {}, t("board.par_explained", { bot: botName(g, "heuristic"), scores })));
}

function replayLink(row) {
  // One's own games always; everyone's once the day's deal is over (they show its cards).
  if (!row.table) return "";
  if (row.mine || row.public) return el("a", { href: row.replay || replayUrl(row.table) }, t("start.replay"));
  return el("small", { class: "hint" }, t("board.replay_tomorrow"));
}

/** How a game ended, in words ("forfeit"; as the server says it where the catalogue has no word). */
function howWord(how) {
  return has(`how.${how}`) ? t(`how.${how}`) : how;
}

function titleOf(games, name) {
  const g = games.find((x) => x.name === name);
  return g ? gameTitle(g) : name;
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
