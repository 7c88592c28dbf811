// The leaderboard of one game and day (or all time): people ranked on the same cards, each beside
// the par, what the bundled bots scored with the same cards in the same seat.

import { el, clear } from "./dom.js";
import { api, replayUrl } from "./api.js";

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
  const table = el("table", { id: "leaderboard", class: "leaderboard" },
    el("thead", {}, el("tr", {}, ["#", "Player", "Score", "Par", "vs par", ""].map((h) => el("th", {}, h)))),
    el("tbody", {}, rows.length ? rows.map((r) => el("tr", {},
      el("td", {}, String(r.rank ?? "")),
      el("td", {}, r.nickname || "(no name)"),
      el("td", {}, show(r.score)),
      el("td", {}, show(r.par)),
      el("td", { class: numberClass(r.versus_par) }, signed(r.versus_par)),
      el("td", {}, r.table ? el("a", { href: replayUrl(r.table) }, "replay") : "")))
      : el("tr", {}, el("td", { colspan: 6, class: "empty" }, "Nobody has finished this deal yet."))));
  clear(root).appendChild(el("section", { id: "leaderboard-view", class: "board" },
    el("h1", {}, "Leaderboard"),
    el("div", { class: "board-controls" }, picker, tab("Today", "today"), tab("Yesterday", "yesterday"), tab("All time", "all"), dateInput),
    el("p", { id: "board-heading" }, `${titleOf(games, board.game || game)}: ${board.date === "all" ? "all time" : board.date || date}`),
    parBlock(board.par),
    table,
    el("p", {}, el("a", { href: "#/" }, "Back to the start"))));
}

function parBlock(par) {
  // Par is the backend's figure(s) for the day's cards; shown as it comes (a number or named values).
  if (par === null || par === undefined) return el("p", { id: "par", class: "hint" }, "Par: not computed yet.");
  if (typeof par !== "object") return el("p", { id: "par" }, `Par: ${show(par)}`);
  const entries = Object.entries(par).filter(([, v]) => v !== null && typeof v !== "object");
  const note = par.note || par.description;
  return el("div", { id: "par", class: "par" }, el("b", {}, "Par "),
    entries.filter(([k]) => k !== "note" && k !== "description").map(([k, v]) => el("span", { class: "par-item" }, `${k.replaceAll("_", " ")}: ${show(v)}`)),
    note ? el("p", { class: "hint" }, note) : null);
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
