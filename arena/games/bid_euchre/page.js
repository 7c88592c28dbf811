// Bid Euchre on the page (served by arena serve from this game's package: Game.page()["module"]):
// its action labels and decision panels, prompts, contract line, call bubbles and hand summary.
// The page's generic table (arena/web/static/table.js) calls these; docs/game-interface.md, "The page".

import { frag, strain, actButton, row, cardList, STRAIN_WORDS, gameText } from "/static/present.js";

// This game's words in the page's language: text/<code>.json beside this file (English the fallback).
const gt = gameText("bid_euchre");

/** A contract's bid as the page says it: a number, or help / moon in the page's language. */
function bidWord(bid) {
  return gt.has(`bid.${bid}`) ? gt(`bid.${bid}`) : String(bid);
}

export default {
  label(action, ctx) {
    if (action === "pass") return gt("label.pass");
    if (action === "bid help") return gt("label.help");
    if (action === "bid moon") return gt("label.moon");
    if (/^bid \d+$/.test(action)) return action.slice(4);
    if (action.startsWith("trump ")) return frag(strain(action.slice(6)), action.endsWith("NT") ? "" : gt("label.trumps_after"));
    if (action === "claim") return gt("label.claim");
    if (action === "decline") return gt("label.decline");
    return null;
  },
  words(action) {
    const w = { "bid help": "words.help", "bid moon": "words.moon", claim: "words.claim", decline: "words.decline", pass: "label.pass" };
    if (w[action]) return gt(w[action]);
    if (/^bid \d+$/.test(action)) return gt("words.bid", { n: action.slice(4) });
    if (action.startsWith("trump ")) return gt(action.endsWith("NT") ? "words.no_trumps" : "words.trumps", { strain: STRAIN_WORDS[action.slice(6)] });
    return action;
  },
  panel(obs, legal, ctx) {
    const used = new Set();
    const take = (pred) => legal.filter(pred).map((a) => (used.add(a), actButton(a, this.label(a, ctx), { words: this.words(a), extra: "bid" })));
    const rows = [
      row(null, take((a) => /^bid \d+$/.test(a)), take((a) => a === "bid help" || a === "bid moon")),
      row(obs.phase === "trump" ? gt("row.trumps") : null, take((a) => a.startsWith("trump "))),
      row(null, take((a) => a === "claim" || a === "decline")),
      row(null, take((a) => a === "pass")),
    ];
    return { rows, used };
  },
  prompt(obs) {
    if (obs.phase === "exchange") {
      const ex = obs.exchange;
      return ex && ex.partner === obs.seat ? gt("prompt.exchange_partner") : gt("prompt.exchange");
    }
    if (["auction", "trump", "discard", "ace_no_face"].includes(obs.phase)) return gt(`prompt.${obs.phase}`);
    return gt("prompt.play");
  },
  contract(obs, ctx) {
    const c = obs.contract;
    if (c) return frag(ctx.seatName(c.seat), ": ", bidWord(c.bid), c.trump ? frag(" ", strain(c.trump)) : "", c.alone ? gt("contract.alone") : "");
    if (obs.high_bid) return frag(gt("contract.high_bid"), ctx.seatName(obs.high_bid.seat), " ", bidWord(obs.high_bid.bid));
    return null;
  },
  extraScores(obs) {
    const ex = obs.exchange;
    if (!ex || !((ex.given || []).length || (ex.received || []).length)) return null;
    return frag(gt("exchange.gave"), cardList(ex.given || []), (ex.received || []).length ? frag(gt("exchange.received"), cardList(ex.received)) : "");
  },
  bubble(action) {
    if (action.startsWith("bid ") || action === "pass") return this.label(action);
    if (action.startsWith("trump ")) return this.label(action);
    return null;
  },
  summary(result, ctx) {
    const c = result.contract;
    if (!c) return [result.end === "ace_no_face" ? gt("summary.claimed") : gt("summary.all_passed")];
    const t = (result.tricks_won || [])[c.side] ?? 0;
    return [frag(gt("summary.bid_before", { seat: ctx.seatName(c.seat) }), bidWord(c.bid), c.trump ? frag(" ", strain(c.trump)) : "",
      gt(result.end === "made" ? "summary.made" : "summary.set", { n: t }))];
  },
};
