// All Fours on the page (served by arena serve from this game's package: Game.page()["module"]):
// its action labels and decision panels, prompts, contract line, call bubbles and hand summary.
// The page's generic table (arena/web/static/table.js) calls these; docs/game-interface.md, "The page".

import { el, frag, strain, actButton, row, cardFace, cardText, SUIT_NAMES } from "/static/present.js";

export default {
  label(action, ctx, obs) {
    const suit = obs && (obs.proposed_suit || (obs.turn_up || "").slice(-1));
    const s = suit ? strain(suit) : "";
    if (action === "stand") return frag("Stand: ", s, " trumps");
    if (action === "beg") return "Beg";
    if (action === "give one") return frag("Give one: ", s, " trumps");
    if (action === "run") return "Run the pack";
    return null;
  },
  words(action, obs) {
    const suit = obs && (obs.proposed_suit || (obs.turn_up || "").slice(-1));
    const trumps = SUIT_NAMES[suit] ? `${SUIT_NAMES[suit]} as trumps` : "the turned-up suit as trumps";
    const w = { stand: `stand: keep ${trumps}`, beg: "beg for another trump suit",
      "give one": `give one point and keep ${trumps}`, run: "run the pack for a new trump suit" };
    return w[action] || action;
  },
  panel(obs, legal, ctx) {
    const used = new Set();
    const mine = ["stand", "beg", "give one", "run"].filter((a) => legal.includes(a));
    mine.forEach((a) => used.add(a));
    const title = obs.phase === "give_or_run" ? `${ctx.seatName(obs.eldest)} begged:` : null;
    return { rows: [row(title, mine.map((a) => actButton(a, this.label(a, ctx, obs), { words: this.words(a, obs), extra: "call" })))], used };
  },
  prompt(obs) {
    if (obs.phase === "stand_or_beg") return "You are eldest: stand on the turned-up suit, or beg";
    if (obs.phase === "give_or_run") return "The eldest begged: give their side one point, or run the pack";
    return "Your turn: play a highlighted card";
  },
  contract(obs, ctx) {
    const c = obs.contract;
    const how = { stand: "the eldest stood", "give one": "the dealer gave one", run: "the pack was run" };
    if (c) return `${how[c.decision] || c.decision}${c.runs > 1 ? ` (${c.runs} runs)` : ""}`;
    if (obs.turn_up) return frag("Turned up: ", cardText(obs.turn_up));
    return null;
  },
  extraScores(obs, ctx) {
    const points = obs.points || [];
    if (!points.length) return null;
    return frag("This deal: ", points.map((p, i) => frag(i ? ", " : "", `${p.item} +${p.points} ${ctx.sideName(p.side)}`)));
  },
  centre(obs) {
    if (!obs.turn_ups || !obs.turn_ups.length) return null;
    return el("div", { class: "turn-ups", "aria-label": "turned up" }, el("span", { class: "label" }, "Turn-up"),
      obs.turn_ups.map((c) => cardFace(c)), el("span", { class: "label" }, `stock ${obs.stock_count ?? "?"}`));
  },
  bubble(action, obs) {
    if (["stand", "beg", "give one", "run"].includes(action)) return action[0].toUpperCase() + action.slice(1);
    return null;
  },
  summary(result, ctx) {
    const lines = [];
    for (const p of result.points || []) {
      lines.push(frag(p.item[0].toUpperCase() + p.item.slice(1), p.card ? frag(" (", cardText(p.card), ")") : "",
        `: ${ctx.sideName(p.side)} +${p.points}`));
    }
    if (result.end === "redeal") lines.push("The pack ran out: the same dealer deals again.");
    return lines;
  },
};
