// 56 on the page (served by arena serve from this game's package: Game.page()["module"]):
// its action labels and decision panels, prompts, contract line, call bubbles and hand summary.
// The page's generic table (arena/web/static/table.js) calls these; docs/game-interface.md, "The page".

import { el, frag, strain, actButton, row, STRAIN_WORDS, gameText } from "/static/present.js";

// This game's words in the page's language: text/<code>.json beside this file (English the fallback).
const gt = gameText("fifty_six");

const F56_FORMS = [
  [/^bid (\d+) ([SCDH])$/, (m) => ({ amount: +m[1], label: frag(m[1], " ", strain(m[2])), words: gt("words.number_suit", { n: m[1], suit: STRAIN_WORDS[m[2]] }), hint: gt("hint.number_suit") })],
  [/^bid ([SCDH]) (\d+)$/, (m) => ({ amount: +m[2], label: frag(strain(m[1]), " ", m[2]), words: gt("words.suit_number", { n: m[2], suit: STRAIN_WORDS[m[1]] }), hint: gt("hint.suit_number") })],
  [/^bid (\d+) NT$/, (m) => ({ amount: +m[1], label: gt("label.nt", { n: m[1] }), words: gt("words.nt", { n: m[1] }), hint: gt("hint.nt") })],
  [/^bid (\d+) noes$/, (m) => ({ amount: +m[1], label: gt("label.noes", { n: m[1] }), words: gt("words.noes", { n: m[1] }), hint: gt("hint.noes") })],
  [/^bid \+(\d+) ([SCDH])$/, (m, cur) => ({ amount: cur + +m[1], label: frag(`+${m[1]} `, strain(m[2])), words: gt("words.plus_suit", { n: m[1], suit: STRAIN_WORDS[m[2]] }), hint: gt("hint.plus_suit") })],
  [/^bid \+(\d+) noes$/, (m, cur) => ({ amount: cur + +m[1], label: gt("label.plus_noes", { n: m[1] }), words: gt("words.plus_noes", { n: m[1] }), hint: gt("hint.plus_noes") })],
];

function f56Bid(action, current) {
  for (const [re, make] of F56_FORMS) {
    const m = re.exec(action);
    if (m) return make(m, current);
  }
  return null;
}

function f56Current(obs) {
  return obs.auction && obs.auction.high_bid ? obs.auction.high_bid.amount : 0;
}

export default {
  label(action, ctx, obs) {
    if (["pass", "double", "redouble"].includes(action)) return gt(`label.${action}`);
    const bid = f56Bid(action, obs ? f56Current(obs) : 0);
    return bid ? bid.label : null;
  },
  words(action, obs) {
    const bid = f56Bid(action, obs ? f56Current(obs) : 0);
    if (["pass", "double", "redouble"].includes(action)) return gt(`label.${action}`);
    return bid ? gt("words.bid", { words: bid.words, amount: bid.amount }) : action;
  },
  panel(obs, legal, ctx, ui) {
    const used = new Set();
    const rows = [];
    const current = f56Current(obs);
    const byAmount = new Map();
    for (const a of legal) {
      const bid = f56Bid(a, current);
      if (!bid) continue;
      used.add(a);
      if (!byAmount.has(bid.amount)) byAmount.set(bid.amount, []);
      byAmount.get(bid.amount).push([a, bid]);
    }
    const calls = ["pass", "double", "redouble"].filter((a) => legal.includes(a));
    calls.forEach((a) => used.add(a));
    rows.push(row(null, calls.map((a) => actButton(a, this.label(a), { extra: a === "pass" ? "pass" : "call" }))));
    if (byAmount.size) {
      const amounts = [...byAmount.keys()].sort((x, y) => x - y);
      let chosen = ui.get("amount");
      if (!byAmount.has(chosen)) chosen = amounts[0];
      // Step 1: the amount (not an action by itself); step 2: the bid's form and strain.
      const picker = el("div", { class: "amounts", role: "group", "aria-label": gt("amounts") },
        amounts.map((n) => el("button", {
          type: "button", class: "amount" + (n === chosen ? " chosen" : ""), "data-amount": n,
          "aria-pressed": n === chosen ? "true" : "false", onclick: () => ui.set("amount", n),
        }, String(n))));
      rows.push(row(gt("row.amount"), picker));
      rows.push(row(gt("row.bid", { n: chosen }), byAmount.get(chosen).map(([a, bid]) => actButton(a, bid.label, { words: gt("words.bid", { words: bid.words, amount: bid.amount }), title: bid.hint, extra: "bid" }))));
    }
    return { rows, used };
  },
  prompt(obs) {
    if (obs.phase === "auction") return gt("prompt.auction");
    return gt("prompt.play");
  },
  contract(obs, ctx) {
    const c = obs.contract;
    const mult = (m) => (m > 1 ? ` ×${m}` : "");
    if (c) return frag(ctx.seatName(c.declarer), ": ", String(c.amount), " ", strain(c.strain), mult(c.multiplier), c.all_pass ? gt("contract.all_passed") : "");
    const h = obs.auction && obs.auction.high_bid;
    if (h) return frag(gt("contract.high_bid"), ctx.seatName(h.bidder), " ", String(h.amount), " ", strain(h.strain), obs.auction.redoubled ? " ×4" : obs.auction.doubled ? " ×2" : "");
    return null;
  },
  bubble(action) {
    if (action.startsWith("play ")) return null;
    if (["pass", "double", "redouble"].includes(action)) return gt(`label.${action}`);
    const bid = f56Bid(action, 0);
    return bid ? bid.label : null; // a plus bid shows as said ("+2 D"); the contract line has the sum
  },
  extraScores(obs, ctx) {
    return obs.points_won ? obs.points_won.map((p, side) => gt("points_won", { side: ctx.sideName(side), n: p })).join(" · ") : null;
  },
  summary(result, ctx) {
    const c = result.contract;
    if (!c) return [];
    const pts = (result.points || [])[c.side] ?? 0;
    return [frag(gt("summary.bid_before", { seat: ctx.seatName(c.declarer) }), String(c.amount), " ", strain(c.strain), c.multiplier > 1 ? ` ×${c.multiplier}` : "",
      gt(result.made ? "summary.made" : "summary.lost", { n: pts })),
      result.points ? gt("summary.card_points", { points: result.points.map((p, s) => `${ctx.sideName(s)} ${p}`).join(gt("list.comma")) }) : null].filter(Boolean);
  },
};
