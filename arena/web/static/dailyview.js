// The daily set's views (docs/web.md, "The daily set"): its status on the start page (with the
// day's end in the person's local time), the end of a daily deal (the next deal, or the set's
// total, rank and the text to share), and one deal compared (#/daily/<set>/<deal>): the play
// beside the par's, trick by trick, and the field's spread. Strings: daily_text.js.

import { el, clear } from "./dom.js";
import { request } from "./api.js";
import { dailyText as t } from "./daily_text.js";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

export const dailyApi = {
  status: (game) => request("GET", `/api/daily?game=${encodeURIComponent(game)}`),
  deal: (set, deal) => request("GET", `/api/daily/sets/${encodeURIComponent(set)}/deals/${encodeURIComponent(deal)}`),
};

function card(code) {
  if (typeof code !== "string") return String(code);
  const suit = code.slice(-1);
  return SUITS[suit] ? code.slice(0, -1) + SUITS[suit] : code;
}

function action(text) {
  return String(text).split(" ").map((word) => (/^(10|[2-9JQKA])[SHDC]$/.test(word) ? card(word) : word)).join(" ");
}

function pct(v) {
  return typeof v === "number" ? (Math.round(v * 10) / 10).toFixed(1) : "–";
}

/** The day's end (midnight UTC) in the person's local time. */
export function localBoundary(iso) {
  const when = new Date(iso);
  return when.toLocaleString(undefined, { weekday: "short", hour: "2-digit", minute: "2-digit" });
}

/** The start page's line of today's status for ``game`` (filled in when the server answers). */
export function dailyStatus(game) {
  const node = el("div", { id: "daily-status", class: "daily-status", "aria-live": "polite" });
  dailyApi.status(game).then((s) => {
    const line = s.state === "finished"
      ? (s.ranked ? t("status_finished", { total: pct(s.total), rank: s.rank ?? "–", ranked: s.ranked_sets ?? "–" })
        : t("status_finished_unranked", { total: pct(s.total) }))
      : s.state === "in progress" ? t("status_in_progress", { played: s.played, deals: s.deals }) : t("status_not_played");
    clear(node).append(el("p", { id: "daily-state", "data-state": s.state }, line),
      el("p", { id: "daily-boundary", class: "hint" }, t("day_ends", { time: localBoundary(s.day_ends) })));
  }).catch(() => null);
  return node;
}

/** What the finished panel of a daily deal shows: the next deal, or the set's end screen. */
export function dailyEnd(table) {
  const node = el("div", { id: "daily-end", class: "daily-end" });
  const info = table.daily;
  dailyApi.status(table.game).then((s) => {
    const mine = s.set === info.set ? s : null;
    const done = mine ? mine.results.find((d) => d.deal === info.deal) : null;
    const parts = [];
    parts.push(el("p", { id: "deal-done" }, done && done.finished
      ? t("deal_done", { deal: info.deal + 1, deals: info.deals, points: pct(done.matchpoints) })
      : t("deal_done_waiting", { deal: info.deal + 1, deals: info.deals })));
    parts.push(el("p", {}, el("a", { id: "compare-link", href: `#/daily/${encodeURIComponent(info.set)}/${info.deal}` },
      t("compare_link", { deal: info.deal + 1 }))));
    if (mine && mine.finished) parts.push(setEnd(mine));
    else {
      parts.push(el("button", { type: "button", id: "next-deal", class: "primary", onclick: async (e) => {
        e.target.disabled = true;
        try {
          const answer = await request("POST", "/api/tables", { game: table.game, mode: "daily" });
          location.hash = `#/table/${encodeURIComponent(answer.table)}`;
        } catch (error) {
          e.target.disabled = false;
          node.appendChild(el("p", { class: "message", role: "alert" }, error.message));
        }
      } }, t("next_deal")));
    }
    clear(node).append(...parts);
  }).catch((error) => clear(node).append(el("p", { class: "message" }, error.message)));
  return node;
}

function setEnd(s) {
  const share = el("textarea", { id: "daily-share", readonly: true, rows: 3, "aria-label": t("share_label") }, s.share || "");
  return el("section", { id: "set-end", class: "set-end" },
    el("h3", {}, t("set_finished")),
    el("p", { id: "set-total" }, t("total_line", { total: pct(s.total), deals: s.deals })),
    s.ranked ? el("p", { id: "set-rank" }, t("rank_line", { rank: s.rank ?? "–", ranked: s.ranked_sets ?? "–" }))
      : el("p", {}, t("unranked_line")),
    el("label", { for: "daily-share" }, t("share_label")), share,
    el("button", { type: "button", id: "copy-share", onclick: async (e) => {
      try { await navigator.clipboard.writeText(s.share); e.target.textContent = t("copied"); } catch { share.select(); }
    } }, t("copy")),
    el("ol", { id: "set-deals" }, s.results.map((d) => el("li", {},
      el("a", { href: `#/daily/${encodeURIComponent(s.set)}/${d.deal}`, "data-deal": d.deal },
        t("compare_link", { deal: d.deal + 1 })), ` ${pct(d.matchpoints)}%`))),
    el("p", {}, el("a", { id: "daily-board-link", href: `#/leaderboard?game=${encodeURIComponent(s.game)}&date=today` }, t("back_board"))));
}

/** One deal of a set compared: the play beside the par's, and the field's spread. */
export async function showDailyDeal(root, set, deal) {
  const view = el("section", { id: "daily-deal", class: "daily-deal" });
  clear(root).appendChild(view);
  let d;
  try {
    d = await dailyApi.deal(set, deal);
  } catch (error) {
    view.append(el("h1", {}, t("hidden_title")), el("p", { id: "daily-refused", role: "alert" }, error.message),
      el("p", {}, el("a", { href: "#/" }, t("back_start"))));
    return;
  }
  const seatName = (seats, seat) => (seats && seats[seat]) || `seat ${seat}`;
  const nav = el("p", { class: "links" },
    deal > 0 ? el("a", { href: `#/daily/${encodeURIComponent(set)}/${deal - 1}` }, t("prev_deal")) : null,
    deal + 1 < d.deals ? el("a", { href: `#/daily/${encodeURIComponent(set)}/${deal + 1}` }, t("next_deal_view")) : null,
    el("a", { href: `#/leaderboard?game=${encodeURIComponent(d.game)}&date=${encodeURIComponent(d.date)}` }, t("back_board")),
    el("a", { href: "#/" }, t("back_start")));
  view.append(
    el("h1", {}, t("compare_title", { title: d.title, date: d.date, deal: deal + 1, deals: d.deals })),
    d.hand ? el("p", { id: "daily-hand" }, `${t("your_hand")}: `, d.hand.map(card).join(" ")) : null,
    el("div", { class: "compare" },
      playColumn("your-play", d.mine ? t("your_play") : t("compare_whose", { name: d.nickname }), d.play, seatName),
      d.par ? playColumn("par-play", t("par_play"), d.par, seatName) : el("p", { id: "par-play" }, t("no_par_yet"))),
    el("h2", {}, t("field")),
    el("table", { id: "daily-field", class: "leaderboard" },
      el("thead", {}, el("tr", {}, [t("field_who"), t("field_score"), t("field_points")].map((h) => el("th", {}, h)))),
      el("tbody", {}, d.field.map((e) => el("tr", { class: e.this ? "mine" : "", "data-par": e.par ? "1" : null },
        el("td", {}, e.who, e.par ? ` ${t("par_mark")}` : "", e.this ? ` ${t("you_mark")}` : ""),
        el("td", {}, String(e.score)), el("td", {}, `${pct(e.matchpoints)}%`))))),
    nav);
}

function playColumn(id, heading, play, seatName) {
  if (!play) return el("div", { id, class: "play" }, el("h2", {}, heading));
  const name = (seat) => seatName(play.seats, seat);
  return el("div", { id, class: "play" },
    el("h2", {}, heading),
    el("p", {}, t("dealer", { seat: name(play.dealer) })),
    el("h3", {}, t("auction")),
    play.auction.length ? el("ol", { class: "auction" }, play.auction.map(([seat, a]) => el("li", {}, `${name(seat)}: ${action(a)}`)))
      : el("p", {}, t("no_auction")),
    el("h3", {}, t("tricks")),
    el("ol", { class: "tricks" }, play.tricks.map((trick, i) => el("li", { "data-trick": i + 1 },
      `${t("trick_n", { n: i + 1 })}: `, trick.cards.map(([seat, c]) => `${name(seat)} ${card(c)}`).join(", "),
      trick.winner !== null && trick.winner !== undefined ? ` — ${t("won_by", { seat: name(trick.winner) })}` : ""))),
    el("p", { class: "hand-score" }, t("hand_score", { changes: (play.changes || []).join(" : "), score: play.score })));
}
