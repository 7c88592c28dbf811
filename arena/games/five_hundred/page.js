// Five Hundred on the page (served by arena serve from this game's package: Game.page()["module"]):
// its action labels and decision panels, prompts, contract line, call bubbles and hand summary.
// The page's generic table (arena/web/static/table.js) calls these; docs/game-interface.md, "The page".

import { el, frag, strain, actButton, row, cardList, STRAIN_WORDS, SUIT_NAMES } from "/static/present.js";

const FH_BID = /^bid (\d+)(S|C|D|H|NT)(-SK)?$/;
const FH_STRAINS = ["S", "C", "D", "H", "NT"];

function fhValue(bid) {
  if (bid === "MIS") return 250;
  if (bid === "OM" || bid === "BM") return 500;
  const m = /^(\d+)(S|C|D|H|NT)/.exec(bid || "");
  if (!m) return null;
  return 40 + 20 * FH_STRAINS.indexOf(m[2]) + 100 * (Number(m[1]) - 6);
}

function fhBidLabel(bid) {
  const special = { MIS: "Misère", OM: "Open misère", BM: "Blind misère" };
  if (special[bid]) return document.createTextNode(special[bid]);
  const m = /^(\d+)(S|C|D|H|NT)(-SK)?$/.exec(bid || "");
  if (!m) return document.createTextNode(String(bid));
  return frag(m[1], strain(m[2]), m[3] ? " sans kitty" : "");
}

function fhBidWords(bid) {
  const special = { MIS: "misère", OM: "open misère", BM: "blind misère" };
  if (special[bid]) return special[bid];
  const m = /^(\d+)(S|C|D|H|NT)(-SK)?$/.exec(bid || "");
  if (!m) return String(bid);
  return `${m[1]} ${STRAIN_WORDS[m[2]]}${m[3] ? " sans kitty" : ""}`;
}

export default {
  discards(obs) {
    // The kitty exchange: 13 cards held, back to 10, picked together and confirmed.
    return Math.max(1, obs.hand.length - 10);
  },
  label(action, ctx) {
    if (action === "pass") return "Pass";
    if (action === "look") return "Look at my hand";
    if (action.startsWith("bid ")) return fhBidLabel(action.slice(4));
    if (action.startsWith("nominate ")) {
      const s = action.slice(9);
      return s === "none" ? "Joker: no suit" : frag("Joker is ", strain(s));
    }
    if (action.startsWith("partners ")) {
      const seats = action.slice(9);
      if (seats === "none") return "No partner";
      return "Partners: " + seats.split(" ").map((s) => ctx.seatName(Number(s))).join(", ");
    }
    return null;
  },
  words(action) {
    if (action.startsWith("bid ")) return "bid " + fhBidWords(action.slice(4));
    if (action.startsWith("nominate ")) {
      const s = action.slice(9);
      return s === "none" ? "keep the joker without a suit" : `make the joker a ${SUIT_NAMES[s].slice(0, -1)}`;
    }
    return action;
  },
  panel(obs, legal, ctx) {
    const used = new Set();
    const rows = [];
    const bids = legal.filter((a) => FH_BID.test(a) && !a.endsWith("-SK"));
    if (bids.length || legal.some((a) => a.startsWith("bid "))) {
      // The grid of contracts: every rung shown with its points, the legal ones clickable.
      const grid = el("div", { class: "bid-grid", role: "group", "aria-label": "contracts" });
      grid.appendChild(el("span", { class: "grid-corner" }));
      for (const s of FH_STRAINS) grid.appendChild(el("span", { class: "grid-head" }, strain(s)));
      for (let n = 6; n <= 10; n++) {
        grid.appendChild(el("span", { class: "grid-head" }, String(n)));
        for (const s of FH_STRAINS) {
          const action = `bid ${n}${s}`;
          const ok = legal.includes(action);
          if (ok) used.add(action);
          grid.appendChild(
            actButton(action, frag(fhBidLabel(`${n}${s}`), el("small", {}, String(fhValue(`${n}${s}`)))), {
              words: `bid ${fhBidWords(`${n}${s}`)}, ${fhValue(`${n}${s}`)} points`,
              legal: ok,
              extra: "bid",
            }),
          );
        }
      }
      rows.push(grid);
      // Misère and open misère are always shown where the options allow them (greyed when not
      // biddable now), as on the grid; blind misère only when it may be bid.
      const opts = ctx.options || {};
      const specials = ["bid MIS", "bid OM", "bid BM"].filter((a) => legal.includes(a)
        || (a === "bid MIS" && opts.allow_misere !== false) || (a === "bid OM" && opts.allow_open_misere !== false));
      const sk = legal.filter((a) => a.endsWith("-SK") && FH_BID.test(a));
      rows.push(
        row(
          null,
          specials.map((a) => {
            used.add(a);
            return actButton(a, frag(fhBidLabel(a.slice(4)), el("small", {}, String(fhValue(a.slice(4))))), {
              words: this.words(a), extra: "bid", legal: legal.includes(a),
            });
          }),
        ),
      );
      if (sk.length) {
        rows.push(row("Sans kitty:", sk.map((a) => (used.add(a), actButton(a, fhBidLabel(a.slice(4)), { words: this.words(a), extra: "bid" })))));
      }
    }
    for (const a of ["look", "pass"]) {
      if (legal.includes(a)) {
        used.add(a);
        rows.push(row(null, actButton(a, this.label(a, ctx), { extra: a === "pass" ? "pass" : "" })));
      }
    }
    const nominate = legal.filter((a) => a.startsWith("nominate "));
    if (nominate.length) {
      nominate.forEach((a) => used.add(a));
      rows.push(row("Give the joker a suit?", nominate.map((a) => actButton(a, this.label(a, ctx), { words: this.words(a), extra: "suit-choice" }))));
    }
    const partners = legal.filter((a) => a.startsWith("partners "));
    if (partners.length) {
      partners.forEach((a) => used.add(a));
      rows.push(row("Name your partners:", partners.map((a) => actButton(a, this.label(a, ctx)))));
    }
    return { rows, used };
  },
  prompt(obs, legal) {
    if (obs.phase === "auction") return legal.includes("look") ? "Blind misère: look at your hand, or bid it blind" : "Your call: tap a contract in the grid, misère, or pass";
    if (obs.phase === "discard") return "You took the kitty: pick cards to discard";
    if (obs.phase === "nominate") return "No trumps: you may give the joker a suit";
    if (obs.phase === "partners") return "Name your partners";
    if (obs.phase === "play") return "Your turn: play a highlighted card";
    return "Your turn";
  },
  contract(obs, ctx) {
    const c = obs.contract;
    if (c) {
      return frag(
        ctx.seatName(c.contractor), ": ", fhBidLabel(c.bid), ` (${c.value})`,
        c.joker_suit ? frag(", joker ", strain(c.joker_suit)) : "",
      );
    }
    if (obs.high_bid) return frag("High bid: ", ctx.seatName(obs.high_bid.seat), " ", fhBidLabel(obs.high_bid.bid));
    return null;
  },
  extraScores(obs) {
    // Only the contractor sees its discards (R-6.2.2); a reminder of what went out of play.
    return Array.isArray(obs.discards) && obs.discards.length ? frag("Your discards: ", cardList(obs.discards)) : null;
  },
  bubble(action) {
    if (action === "pass") return "Pass";
    if (action.startsWith("bid ")) return fhBidLabel(action.slice(4));
    if (action.startsWith("nominate ") && action !== "nominate none") return frag("Joker ", strain(action.slice(9)));
    return null;
  },
  scoring(result, ctx) {
    // How each side's points of the hand came about (the hand-end panel).
    const c = result.contract;
    if (!c) return [];
    const signed = (n) => (n > 0 ? `+${n}` : String(n));
    return (result.changes || []).map((change, side) => {
      const tricks = (result.tricks_won || [])[side] ?? 0;
      if (side === c.side) {
        const how = result.made ? "made" : "set";
        return `${ctx.sideName(side)}: ${signed(change)}, the contract ${how}${Math.abs(change) === c.value ? ` (worth ${c.value})` : ""}`;
      }
      return `${ctx.sideName(side)}: ${signed(change)}${change === 10 * tricks && tricks ? `, 10 for each of ${tricks} trick${tricks === 1 ? "" : "s"}` : ""}`;
    });
  },
  summary(result, ctx) {
    const c = result.contract;
    if (!c) return ["Everyone passed: the hand is thrown in."];
    const taken = (result.tricks_won || [])[c.side] ?? 0;
    const verdict = result.end === "made" ? "made it" : "went down";
    const what = c.misere ? `${verdict}` : `${verdict} with ${taken} trick${taken === 1 ? "" : "s"}`;
    return [frag(ctx.seatName(c.contractor), " bid ", fhBidLabel(c.bid), `: ${what}.`)];
  },
};
