// All Fours on the page (served by arena serve from this game's package: Game.page()["module"]):
// its action labels and decision panels, prompts, contract line, call bubbles and hand summary.
// The page's generic table (arena/web/static/table.js) calls these; docs/game-interface.md, "The page".

import { el, frag, strain, actButton, row, cardFace, cardText, SUIT_NAMES, gameText } from "/static/present.js";

// This game's words in the page's language: text/<code>.json beside this file (English the fallback).
const gt = gameText("all_fours");
const CALLS = { stand: "stand", beg: "beg", "give one": "give_one", run: "run" };

export default {
  label(action, ctx, obs) {
    const suit = obs && (obs.proposed_suit || (obs.turn_up || "").slice(-1));
    const s = suit ? strain(suit) : "";
    if (action === "stand") return frag(gt("label.stand"), s, gt("label.trumps_after"));
    if (action === "beg") return gt("label.beg");
    if (action === "give one") return frag(gt("label.give_one"), s, gt("label.trumps_after"));
    if (action === "run") return gt("label.run");
    return null;
  },
  words(action, obs) {
    const suit = obs && (obs.proposed_suit || (obs.turn_up || "").slice(-1));
    const trumps = SUIT_NAMES[suit] ? gt("words.as_trumps", { suit: SUIT_NAMES[suit] }) : gt("words.turned_up_trumps");
    return CALLS[action] ? gt(`words.${CALLS[action]}`, { trumps }) : action;
  },
  panel(obs, legal, ctx) {
    const used = new Set();
    const mine = ["stand", "beg", "give one", "run"].filter((a) => legal.includes(a));
    mine.forEach((a) => used.add(a));
    const title = obs.phase === "give_or_run" ? gt("row.begged", { seat: ctx.seatName(obs.eldest) }) : null;
    return { rows: [row(title, mine.map((a) => actButton(a, this.label(a, ctx, obs), { words: this.words(a, obs), extra: "call" })))], used };
  },
  prompt(obs) {
    if (obs.phase === "stand_or_beg" || obs.phase === "give_or_run") return gt(`prompt.${obs.phase}`);
    return gt("prompt.play");
  },
  contract(obs, ctx) {
    const c = obs.contract;
    if (c) {
      const how = CALLS[c.decision] ? gt(`contract.${CALLS[c.decision]}`) : c.decision;
      return c.runs > 1 ? gt("contract.runs", { how, n: c.runs }) : how;
    }
    if (obs.turn_up) return frag(gt("contract.turned_up"), cardText(obs.turn_up));
    return null;
  },
  extraScores(obs, ctx) {
    const points = obs.points || [];
    if (!points.length) return null;
    return frag(gt("this_deal"), points.map((p, i) => frag(i ? gt("list.comma") : "", `${gt(`item.${p.item}`)} +${p.points} ${ctx.sideName(p.side)}`)));
  },
  centre(obs) {
    if (!obs.turn_ups || !obs.turn_ups.length) return null;
    return el("div", { class: "turn-ups", role: "group", "aria-label": gt("turned_up") }, el("span", { class: "label" }, gt("turn_up")),
      obs.turn_ups.map((c) => cardFace(c)), el("span", { class: "label" }, gt("stock", { n: obs.stock_count ?? "?" })));
  },
  bubble(action, obs) {
    if (CALLS[action]) return gt(`bubble.${CALLS[action]}`);
    return null;
  },
  summary(result, ctx) {
    const lines = [];
    for (const p of result.points || []) {
      lines.push(frag(gt(`item_title.${p.item}`), p.card ? frag(" (", cardText(p.card), ")") : "",
        `: ${ctx.sideName(p.side)} +${p.points}`));
    }
    if (result.end === "redeal") lines.push(gt("summary.redeal"));
    return lines;
  },
};
