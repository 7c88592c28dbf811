// Bid Euchre on the page (served by arena serve from this game's package: Game.page()["module"]):
// its action labels and decision panels, prompts, contract line, call bubbles and hand summary.
// The page's generic table (arena/web/static/table.js) calls these; docs/game-interface.md, "The page".

import { frag, strain, actButton, row, cardList, STRAIN_WORDS } from "/static/present.js";

export default {
  label(action, ctx) {
    if (action === "pass") return "Pass";
    if (action === "bid help") return "Help";
    if (action === "bid moon") return "Moon";
    if (/^bid \d+$/.test(action)) return action.slice(4);
    if (action.startsWith("trump ")) return frag(strain(action.slice(6)), action.endsWith("NT") ? "" : " trumps");
    if (action === "claim") return "Claim ace no face";
    if (action === "decline") return "Decline";
    return null;
  },
  words(action) {
    const w = { "bid help": "bid help: all the tricks with your partner's best card",
      "bid moon": "bid moon: all the tricks alone", claim: "claim ace no face", decline: "decline the claim" };
    if (w[action]) return w[action];
    if (/^bid \d+$/.test(action)) return `bid ${action.slice(4)} tricks`;
    if (action.startsWith("trump ")) return `${STRAIN_WORDS[action.slice(6)]} trumps`;
    return action;
  },
  panel(obs, legal, ctx) {
    const used = new Set();
    const take = (pred) => legal.filter(pred).map((a) => (used.add(a), actButton(a, this.label(a, ctx), { words: this.words(a), extra: "bid" })));
    const rows = [
      row(null, take((a) => /^bid \d+$/.test(a)), take((a) => a === "bid help" || a === "bid moon")),
      row(obs.phase === "trump" ? "Name trumps:" : null, take((a) => a.startsWith("trump "))),
      row(null, take((a) => a === "claim" || a === "decline")),
      row(null, take((a) => a === "pass")),
    ];
    return { rows, used };
  },
  prompt(obs) {
    if (obs.phase === "auction") return "Your bid: a number of tricks, help, moon, or pass";
    if (obs.phase === "trump") return "You won the auction: name trumps";
    if (obs.phase === "exchange") {
      const ex = obs.exchange;
      return ex && ex.partner === obs.seat ? "Your partner bid help: give them a card (your best trump if you hold one)" : "Help: give your partner a card";
    }
    if (obs.phase === "discard") return "Joker deal: discard one card";
    if (obs.phase === "ace_no_face") return "Ace no face: claim the hand, or decline";
    return "Your turn: play a highlighted card";
  },
  contract(obs, ctx) {
    const c = obs.contract;
    if (c) return frag(ctx.seatName(c.seat), ": ", c.bid, c.trump ? frag(" ", strain(c.trump)) : "", c.alone ? " (partner sits out)" : "");
    if (obs.high_bid) return frag("High bid: ", ctx.seatName(obs.high_bid.seat), " ", obs.high_bid.bid);
    return null;
  },
  extraScores(obs) {
    const ex = obs.exchange;
    if (!ex || !((ex.given || []).length || (ex.received || []).length)) return null;
    return frag("Help exchange: you gave ", cardList(ex.given || []), (ex.received || []).length ? frag(", received ", cardList(ex.received)) : "");
  },
  bubble(action) {
    if (action.startsWith("bid ") || action === "pass") return this.label(action);
    if (action.startsWith("trump ")) return this.label(action);
    return null;
  },
  summary(result, ctx) {
    const c = result.contract;
    if (!c) return [result.end === "ace_no_face" ? "Ace no face: the deal was claimed." : "Everyone passed: no score."];
    const t = (result.tricks_won || [])[c.side] ?? 0;
    return [frag(ctx.seatName(c.seat), " bid ", c.bid, c.trump ? frag(" ", strain(c.trump)) : "", `: ${result.end === "made" ? "made" : "set"} with ${t} tricks.`)];
  },
};
