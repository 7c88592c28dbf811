// The daily set's views (docs/web.md, "The daily set"): its status on the start page (with the
// day's end in the person's local time), the end of a daily deal (the next deal, or the set's
// total, rank and the text to share), and one deal compared (#/daily/<set>/<deal>): the play
// beside the par's, trick by trick, and the field's spread. Strings: the catalogue's daily.* keys.

import { el, clear } from "./dom.js";
import { request } from "./api.js";
import { t, language, serverText } from "./i18n.js";
import { cardText } from "./cards.js";
import { games, loadRules, actionLabel, gameTitle, botName } from "./games.js";

const COMPASS_CLOCKWISE = ["S", "W", "N", "E"]; // as the table names the seats (table.js)
const COMPASS_ANTICLOCKWISE = ["S", "E", "N", "W"];

export const dailyApi = {
  status: (game) => request("GET", `/api/daily?game=${encodeURIComponent(game)}`),
  deal: (set, deal) => request("GET", `/api/daily/sets/${encodeURIComponent(set)}/deals/${encodeURIComponent(deal)}`),
};

function pct(v) {
  return typeof v === "number" ? (Math.round(v * 10) / 10).toFixed(1) : "–";
}

/** The day's end (midnight UTC) in the person's local time. */
export function localBoundary(iso) {
  const when = new Date(iso);
  return when.toLocaleString(language(), { weekday: "short", hour: "2-digit", minute: "2-digit", hour12: false });
}

/** The start page's line of today's status for ``game`` (filled in when the server answers). */
export function dailyStatus(game) {
  const node = el("div", { id: "daily-status", class: "daily-status", "aria-live": "polite" });
  dailyApi.status(game).then((s) => {
    const line = s.state === "finished"
      ? (s.ranked ? t("daily.status_finished", { total: pct(s.total), rank: s.rank ?? "–", ranked: s.ranked_sets ?? "–" })
        : t("daily.status_finished_unranked", { total: pct(s.total) }))
      : s.state === "in progress" ? t("daily.status_in_progress", { played: s.played, deals: s.deals }) : t("daily.status_not_played");
    clear(node).append(el("p", { id: "daily-state", "data-state": s.state }, line),
      el("p", { id: "daily-boundary", class: "hint" }, t("daily.day_ends", { time: localBoundary(s.day_ends) })));
  }).catch(() => null);
  return node;
}

/** What the finished panel of a daily deal shows: the next deal, or the set's end screen. */
export function dailyEnd(table) {
  const node = el("div", { id: "daily-end", class: "daily-end" });
  const info = table.daily;
  Promise.all([dailyApi.status(table.game), games()]).then(([s, known]) => {
    const mine = s.set === info.set ? s : null;
    const done = mine ? mine.results.find((d) => d.deal === info.deal) : null;
    const parts = [];
    parts.push(el("p", { id: "deal-done" }, done && done.finished
      ? t("daily.deal_done", { deal: info.deal + 1, deals: info.deals, points: pct(done.matchpoints) })
      : t("daily.deal_done_waiting", { deal: info.deal + 1, deals: info.deals })));
    parts.push(el("p", {}, el("a", { id: "compare-link", href: `#/daily/${encodeURIComponent(info.set)}/${info.deal}` },
      t("daily.compare_link", { deal: info.deal + 1 }))));
    if (mine && mine.finished) parts.push(setEnd(mine, gameTitle(known.get(table.game)) || table.game));
    else {
      parts.push(el("button", { type: "button", id: "next-deal", class: "primary", onclick: async (e) => {
        e.target.disabled = true;
        try {
          const answer = await request("POST", "/api/tables", { game: table.game, mode: "daily" });
          location.hash = `#/table/${encodeURIComponent(answer.table)}`;
        } catch (error) {
          e.target.disabled = false;
          node.appendChild(el("p", { class: "message", role: "alert" }, serverText(error.data, error.message)));
        }
      } }, t("daily.next_deal")));
    }
    clear(node).append(...parts);
  }).catch((error) => clear(node).append(el("p", { class: "message" }, serverText(error.data, error.message))));
  return node;
}

/** The text to share, in the page's language: the game, the day, the total and rank, each deal's
 * matchpoints; no cards. */
function shareText(s, title) {
  const place = s.ranked && s.rank ? t("daily.share_place", { rank: s.rank, ranked: s.ranked_sets ?? "–" }) : "";
  const bars = s.results.filter((d) => d.finished).map((d) => `${Math.round(d.matchpoints)}%`).join(" ");
  return t("daily.share_text", { title, date: s.date || "", total: pct(s.total), deals: s.deals, place, bars });
}

function setEnd(s, title) {
  const text = shareText(s, title);
  const share = el("textarea", { id: "daily-share", readonly: true, rows: 3, "aria-label": t("daily.share_label") }, text);
  return el("section", { id: "set-end", class: "set-end" },
    el("h3", {}, t("daily.set_finished")),
    el("p", { id: "set-total" }, t("daily.total_line", { total: pct(s.total), deals: s.deals })),
    s.ranked ? el("p", { id: "set-rank" }, t("daily.rank_line", { rank: s.rank ?? "–", ranked: s.ranked_sets ?? "–" }))
      : el("p", {}, t("daily.unranked_line")),
    el("label", { for: "daily-share" }, t("daily.share_label")), share,
    el("button", { type: "button", id: "copy-share", onclick: async (e) => {
      try { await navigator.clipboard.writeText(text); e.target.textContent = t("daily.copied"); } catch { share.select(); }
    } }, t("daily.copy")),
    el("ol", { id: "set-deals" }, s.results.map((d) => el("li", {},
      el("a", { href: `#/daily/${encodeURIComponent(s.set)}/${d.deal}`, "data-deal": d.deal },
        t("daily.compare_link", { deal: d.deal + 1 })), ` ${pct(d.matchpoints)}%`))),
    el("p", {}, el("a", { id: "daily-board-link", href: `#/leaderboard?game=${encodeURIComponent(s.game)}&date=today` }, t("daily.back_board"))));
}

/** One deal of a set compared: the play beside the par's, and the field's spread. */
export async function showDailyDeal(root, set, deal) {
  const view = el("section", { id: "daily-deal", class: "daily-deal" });
  clear(root).appendChild(view);
  let d;
  try {
    d = await dailyApi.deal(set, deal);
  } catch (error) {
    // the server's reason is in English; the page says it in the person's language
    const why = error.status === 403 ? t("daily.refused_unplayed") : error.status === 404 ? t("daily.refused_missing") : serverText(error.data, error.message);
    view.append(el("h1", {}, t("daily.hidden_title")), el("p", { id: "daily-refused", role: "alert" }, why),
      el("p", {}, el("a", { href: "#/" }, t("daily.back_start"))));
    return;
  }
  const [known, rules] = await Promise.all([games(), loadRules(d.game).catch(() => null)]);
  const g = known.get(d.game);
  const person = d.mine ? t("seat.you") : d.nickname || t("board.no_name");
  const nav = el("p", { class: "links" },
    deal > 0 ? el("a", { href: `#/daily/${encodeURIComponent(set)}/${deal - 1}` }, t("daily.prev_deal")) : null,
    deal + 1 < d.deals ? el("a", { href: `#/daily/${encodeURIComponent(set)}/${deal + 1}` }, t("daily.next_deal_view")) : null,
    el("a", { href: `#/leaderboard?game=${encodeURIComponent(d.game)}&date=${encodeURIComponent(d.date)}` }, t("daily.back_board")),
    el("a", { href: "#/" }, t("daily.back_start")));
  view.append(
    el("h1", {}, t("daily.compare_title", { title: gameTitle(g) || d.game, date: d.date, deal: deal + 1, deals: d.deals })),
    d.hand ? el("p", { id: "daily-hand" }, `${t("daily.your_hand")}: `, ...d.hand.flatMap((c) => [cardText(c), " "])) : null,
    el("div", { class: "compare" },
      playColumn("your-play", d.mine ? t("daily.your_play") : t("daily.compare_whose", { name: person }), d.play, rules, person),
      d.par ? playColumn("par-play", t("daily.par_play", { bot: botName(g, "heuristic") }), d.par, rules, botName(g, "heuristic"))
        : el("p", { id: "par-play" }, t("daily.no_par_yet"))),
    el("h2", {}, t("daily.field")),
    el("table", { id: "daily-field", class: "leaderboard" },
      el("thead", {}, el("tr", {}, [t("daily.field_who"), t("daily.field_score"), t("daily.field_points")].map((h) => el("th", {}, h)))),
      el("tbody", {}, d.field.map((e) => el("tr", { class: e.this ? "mine" : "", "data-par": e.par ? "1" : null, "data-kind": e.kind },
        el("td", {}, e.kind === "bot" ? botName(g, e.who) : e.who || t("board.no_name"),
          e.par ? ` ${t("daily.par_mark")}` : "", e.this ? ` ${t("daily.you_mark")}` : ""),
        el("td", {}, String(e.score)), el("td", {}, `${pct(e.matchpoints)}%`))))),
    nav);
}

/** Seat names as the table gives them: seat 0 is ``first`` (you, or whose play it is), the others
 * by the compass with four players (in the game's direction of play), else by number. */
function seatNamer(rules, n, first) {
  const compass = rules && rules.clockwise === false ? COMPASS_ANTICLOCKWISE : COMPASS_CLOCKWISE;
  return (seat) => (seat === 0 ? first : n === 4 ? t(`seat.${compass[seat]}`) : t("seat.n", { n: seat }));
}

function playColumn(id, heading, play, rules, first) {
  if (!play) return el("div", { id, class: "play" }, el("h2", {}, heading));
  const name = seatNamer(rules, (play.seats || []).length, first);
  return el("div", { id, class: "play" },
    el("h2", {}, heading),
    el("p", {}, t("daily.dealer", { seat: name(play.dealer) })),
    el("h3", {}, t("daily.auction")),
    play.auction.length ? el("ol", { class: "auction" }, play.auction.map(([seat, a]) => el("li", {}, `${name(seat)}: `, actionLabel(a, rules))))
      : el("p", {}, t("daily.no_auction")),
    el("h3", {}, t("daily.tricks")),
    el("ol", { class: "tricks" }, play.tricks.map((trick, i) => el("li", { "data-trick": i + 1 },
      `${t("daily.trick_n", { n: i + 1 })}: `,
      ...trick.cards.flatMap(([seat, c], k) => [k ? t("list.comma") : "", `${name(seat)} `, cardText(c)]),
      trick.winner !== null && trick.winner !== undefined ? ` — ${t("daily.won_by", { seat: name(trick.winner) })}` : ""))),
    el("p", { class: "hand-score" }, t("daily.hand_score", { changes: (play.changes || []).join(" : "), score: play.score })));
}
