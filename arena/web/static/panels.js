// The table's side panels, drawn from the latest state: the finished game, the last hand's summary,
// the score sheet and the deal's log. `ctx` names seats and sides (table.js, context()).

import { dailyEnd } from "./dailyview.js";
import { actionLabel } from "./games.js";
import { el } from "./dom.js";
import { replayUrl, recordUrl } from "./api.js";
import { t, has } from "./i18n.js";

export function handSummary(ctx, result, number, fresh) {
  const lines = ctx.rules.summary(result, ctx) || [];
  const changes = result.changes || [];
  return el("section", { id: "hand-summary", class: "panel hand-summary" + (fresh ? " fresh" : ""), "aria-live": "polite" },
    el("h3", {}, t("hand.summary_title", { n: number })),
    lines.map((line) => el("p", {}, line)),
    el("table", { class: "score-table" },
      el("thead", {}, el("tr", {}, el("th", {}, ""), el("th", {}, t("hand.this_hand")), el("th", {}, t("hand.total")))),
      el("tbody", {}, (result.scores || []).map((score, side) => el("tr", {},
        el("th", {}, ctx.sideName(side)),
        el("td", { class: sign(changes[side]) }, signed(changes[side])),
        el("td", { class: sign(score) }, String(score)))))));
}

/** The panel at the end of a hand, over the table until the person dismisses it (`close`): what
 * was bid and how it went (the game's summary), how the points were scored (its `scoring` lines),
 * and per side the tricks taken, the points of this hand and the running score. */
export function handEndPanel(ctx, result, number, close) {
  const lines = ctx.rules.summary(result, ctx) || [];
  const scoring = ctx.rules.scoring ? ctx.rules.scoring(result, ctx) || [] : [];
  const changes = result.changes || [];
  const tricks = result.tricks_won || null;
  const mine = ctx.sideOf(ctx.me);
  return el("div", { class: "hand-end-backdrop", onclick: (e) => e.target === e.currentTarget && close() },
    el("section", { id: "hand-end", class: "panel hand-end", role: "dialog", "aria-modal": "true", "aria-labelledby": "hand-end-title",
      onkeydown: (e) => e.key === "Escape" && close() },
    el("h2", { id: "hand-end-title" }, t("hand.over_title", { n: number })),
    lines.map((line) => el("p", { class: "verdict" }, line)),
    scoring.length ? el("ul", { class: "scoring" }, scoring.map((line) => el("li", {}, line))) : null,
    el("table", { class: "score-table" },
      el("thead", {}, el("tr", {}, el("th", {}, ""), tricks ? el("th", {}, t("hand.tricks")) : null, el("th", {}, t("hand.this_hand")), el("th", {}, t("hand.score")))),
      el("tbody", {}, (result.scores || []).map((score, side) => el("tr", { class: side === mine ? "ours" : "" },
        el("th", {}, ctx.sideName(side)),
        tricks ? el("td", {}, String(tricks[side] ?? "")) : null,
        el("td", { class: sign(changes[side]) }, signed(changes[side])),
        el("td", { class: sign(score) }, String(score)))))),
    el("button", { type: "button", id: "hand-end-close", class: "act confirm", onclick: close }, t("hand.continue"))));
}

function sign(n) {
  return n > 0 ? "plus" : n < 0 ? "minus" : "";
}

export function scoreSheet(ctx, hands, ui) {
  const sides = (hands[hands.length - 1].scores || []).map((_, side) => side);
  return el("details", { id: "score-sheet", class: "panel score-sheet", open: ui.get("sheetOpen") ? true : null,
    ontoggle: (e) => ui.set("sheetOpen", e.target.open) }, el("summary", {}, t("sheet.title")),
  el("table", { class: "score-table" },
    el("thead", {}, el("tr", {}, el("th", {}, t("sheet.hand")), sides.map((side) => el("th", {}, ctx.sideName(side))))),
    el("tbody", {}, hands.map((hand, i) => el("tr", {}, el("td", {}, String(i + 1)),
      sides.map((side) => el("td", {}, `${(hand.scores || [])[side] ?? ""}`,
        el("small", {}, ` (${signed((hand.changes || [])[side])})`))))))));
}

export function finishedPanel(ctx, table, result, id) {
  const winners = result.winners || (result.winner !== null && result.winner !== undefined ? [result.winner] : []);
  const mine = ctx.sideOf(ctx.me);
  const headline = winners.includes(mine) ? (winners.length > 1 ? t("end.shared") : t("end.won"))
    : winners.length ? t("end.they_won", { sides: winners.map(ctx.sideName).join(t("list.comma")) }) : t("status.over");
  const board = `#/leaderboard?game=${encodeURIComponent(table.game)}&date=${encodeURIComponent(table.date || "today")}`;
  const tableId = table.id || id;
  return el("section", { id: "finished", class: "panel finished" },
    el("h3", {}, headline),
    el("p", {}, t("end.final_scores", { scores: (result.scores || []).map((sc, side) => `${ctx.sideName(side)} ${sc}`).join(t("list.comma")) })),
    table.daily && result.termination && result.termination.how === "unfinished" ? null  // a daily deal is one hand by design
      : ending(result.termination, ctx),
    table.daily ? dailyEnd(table)
      : table.mode === "daily" ? el("p", {}, table.ranked === false ? t("end.unranked") : t("end.ranked")) : null,
    el("p", { class: "links" },
      table.daily ? null : el("a", { id: "replay-link", href: replayUrl(tableId) }, t("end.replay")),
      el("a", { id: "record-link", href: recordUrl(tableId) }, t("end.record")),
      el("a", { id: "leaderboard-link", href: board }, t("nav.leaderboard")),
      el("a", { id: "new-game-link", href: "#/" }, t("end.play_again"))));
}

export function dealLog(ctx, ui) {
  const { obs, rules } = ctx;
  const items = (obs.history || []).map(([seat, action]) =>
    el("li", {}, el("span", { class: "who" }, ctx.seatName(seat)), " ", actionLabel(action, rules, ctx, obs)));
  // The list follows its newest entry (table.js, followLog) unless the person scrolled up to read
  // back: then it stays where they put it until they scroll to the bottom again, or the next hand.
  const scrolled = (e) => {
    const list = e.target;
    const bottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
    ui.set("logScroll", bottom ? null : { hand: obs.hand_index, top: list.scrollTop });
  };
  return el("details", { id: "deal-log", class: "panel log", open: ui.get("logClosed") ? null : true,
    ontoggle: (e) => ui.set("logClosed", !e.target.open) }, el("summary", {}, t("log.title")),
  // focusable, so a keyboard can scroll it back (axe: scrollable-region-focusable)
  el("ol", { onscroll: scrolled, tabindex: "0", "aria-label": t("log.title") }, items));
}

/** Scroll the deal's log to its newest entry, or back to where the person left it (dealLog). */
export function followLog(root, ctx, ui) {
  const list = root.querySelector("#deal-log ol");
  if (!list) return;
  const kept = ui.get("logScroll");
  list.scrollTop = kept && kept.hand === ctx.obs.hand_index ? kept.top : list.scrollHeight;
}

function ending(termination, ctx) {
  if (!termination || termination.how === "normal") return null;
  if (termination.how === "forfeit") {
    const fault = termination.fault || {};
    return el("p", { class: "message" },
      t("end.forfeit", { seat: ctx.seatName(termination.seat), fault: `${fault.kind || "fault"}${fault.message ? `: ${fault.message}` : ""}` }));
  }
  return el("p", { class: "message" }, t("end.ended_how", { how: has(`how.${termination.how}`) ? t(`how.${termination.how}`) : termination.how }));
}

export function signed(n) {
  if (n === undefined || n === null) return "";
  return n > 0 ? `+${n}` : String(n);
}
