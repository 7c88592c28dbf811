// Five Hundred on the page (served by arena serve from this game's package: Game.page()["module"]):
// its action labels and decision panels, prompts, contract line, call bubbles and hand summary.
// The page's generic table (arena/web/static/table.js) calls these; docs/game-interface.md, "The page".

import { el, frag, strain, actButton, row, cardList, STRAIN_WORDS, SUIT_NAMES, gameText } from "/static/present.js";

// This game's words in the page's language: text/<code>.json beside this file (English the fallback).
const gt = gameText("five_hundred");

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
  if (["MIS", "OM", "BM"].includes(bid)) return document.createTextNode(gt(`label.${bid}`));
  const m = /^(\d+)(S|C|D|H|NT)(-SK)?$/.exec(bid || "");
  if (!m) return document.createTextNode(String(bid));
  return frag(m[1], strain(m[2]), m[3] ? ` ${gt("sans_kitty")}` : "");
}

function fhBidWords(bid) {
  if (["MIS", "OM", "BM"].includes(bid)) return gt(`words.${bid}`);
  const m = /^(\d+)(S|C|D|H|NT)(-SK)?$/.exec(bid || "");
  if (!m) return String(bid);
  return gt(m[3] ? "words.contract_sk" : "words.contract", { n: m[1], strain: STRAIN_WORDS[m[2]] });
}

// The auction's ladder: the rungs low to high, misère above the sevens, open misère
// between ten diamonds and ten hearts; what a greyed bid is lower than.
function fhRung(bid) {
  if (bid === "MIS") return 9.5;
  if (bid === "OM") return 22.5;
  if (bid === "BM") return 99;
  const m = /^(\d+)(S|C|D|H|NT)/.exec(bid || "");
  return m ? 5 * (Number(m[1]) - 6) + FH_STRAINS.indexOf(m[2]) : -1;
}

/** Why a bid shown greyed may not be made now (said on a tap or the focus). */
function fhWhyNot(bid, obs, opts) {
  const high = obs.high_bid && obs.high_bid.bid;
  if (high && fhRung(bid) <= fhRung(high)) return gt("why.not_higher", { bid: fhBidWords(high) });
  if (bid === "MIS" && opts.misere_requires_seven !== false) return gt("why.misere_seven");
  return gt("why.not_now");
}

export default {
  discards(obs) {
    // The kitty exchange: 13 cards held, back to 10, picked together and confirmed.
    return Math.max(1, obs.hand.length - 10);
  },
  label(action, ctx) {
    if (action === "pass") return gt("label.pass");
    if (action === "look") return gt("label.look");
    if (action.startsWith("bid ")) return fhBidLabel(action.slice(4));
    if (action.startsWith("nominate ")) {
      const s = action.slice(9);
      return s === "none" ? gt("label.joker_no_suit") : frag(gt("label.joker_is"), strain(s));
    }
    if (action.startsWith("partners ")) {
      const seats = action.slice(9);
      if (seats === "none") return gt("label.no_partner");
      return gt("label.partners", { seats: seats.split(" ").map((s) => ctx.seatName(Number(s))).join(gt("list.comma")) });
    }
    return null;
  },
  words(action) {
    if (action.startsWith("bid ")) return gt("words.bid", { bid: fhBidWords(action.slice(4)) });
    if (action.startsWith("nominate ")) {
      const s = action.slice(9);
      return s === "none" ? gt("words.joker_no_suit") : gt(`words.joker_${s}`);
    }
    if (action === "pass") return gt("label.pass");
    if (action === "look") return gt("label.look");
    return action;
  },
  panel(obs, legal, ctx) {
    const used = new Set();
    const rows = [];
    const bids = legal.filter((a) => FH_BID.test(a) && !a.endsWith("-SK"));
    if (bids.length || legal.some((a) => a.startsWith("bid "))) {
      // The grid of contracts: every rung shown with its points, the legal ones clickable.
      const grid = el("div", { class: "bid-grid", role: "group", "aria-label": gt("contracts") });
      const opts = ctx.options || {};
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
              words: gt("words.bid_points", { bid: fhBidWords(`${n}${s}`), points: fhValue(`${n}${s}`) }),
              legal: ok,
              reason: ok ? null : fhWhyNot(`${n}${s}`, obs, opts),
              extra: "bid",
            }),
          );
        }
      }
      rows.push(grid);
      // Misère and open misère are always shown where the options allow them (greyed when not
      // biddable now), as on the grid; blind misère only when it may be bid.
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
              reason: legal.includes(a) ? null : fhWhyNot(a.slice(4), obs, opts),
            });
          }),
        ),
      );
      if (sk.length) {
        rows.push(row(gt("row.sans_kitty"), sk.map((a) => (used.add(a), actButton(a, fhBidLabel(a.slice(4)), { words: this.words(a), extra: "bid" })))));
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
      rows.push(row(gt("row.nominate"), nominate.map((a) => actButton(a, this.label(a, ctx), { words: this.words(a), extra: "suit-choice" }))));
    }
    const partners = legal.filter((a) => a.startsWith("partners "));
    if (partners.length) {
      partners.forEach((a) => used.add(a));
      rows.push(row(gt("row.partners"), partners.map((a) => actButton(a, this.label(a, ctx)))));
    }
    return { rows, used };
  },
  prompt(obs, legal) {
    if (obs.phase === "auction") return legal.includes("look") ? gt("prompt.blind") : gt("prompt.auction");
    if (["discard", "nominate", "partners", "play"].includes(obs.phase)) return gt(`prompt.${obs.phase}`);
    return gt("prompt.turn");
  },
  contract(obs, ctx) {
    const c = obs.contract;
    if (c) {
      return frag(
        ctx.seatName(c.contractor), ": ", fhBidLabel(c.bid), ` (${c.value})`,
        c.joker_suit ? frag(gt("contract.joker"), strain(c.joker_suit)) : "",
      );
    }
    if (obs.high_bid) return frag(gt("contract.high_bid"), ctx.seatName(obs.high_bid.seat), " ", fhBidLabel(obs.high_bid.bid));
    return null;
  },
  extraScores(obs) {
    // Only the contractor sees its discards; a reminder of what went out of play.
    return Array.isArray(obs.discards) && obs.discards.length ? frag(gt("your_discards"), cardList(obs.discards)) : null;
  },
  bubble(action) {
    if (action === "pass") return gt("label.pass");
    if (action.startsWith("bid ")) return fhBidLabel(action.slice(4));
    if (action.startsWith("nominate ") && action !== "nominate none") return frag(gt("bubble.joker"), strain(action.slice(9)));
    return null;
  },
  scoring(result, ctx) {
    // How each side's points of the hand came about (the hand-end panel).
    const c = result.contract;
    if (!c) return [];
    const signed = (n) => (n > 0 ? `+${n}` : String(n));
    return (result.changes || []).map((change, side) => {
      const tricks = (result.tricks_won || [])[side] ?? 0;
      const who = { side: ctx.sideName(side), change: signed(change), value: c.value, n: tricks };
      if (side === c.side) {
        const how = result.made ? "made" : "set";
        return gt(Math.abs(change) === c.value ? `scoring.${how}_worth` : `scoring.${how}`, who);
      }
      return change === 10 * tricks && tricks ? gt.n("scoring.tens", tricks, who) : gt("scoring.plain", who);
    });
  },
  summary(result, ctx) {
    const c = result.contract;
    if (!c) return [gt("summary.thrown_in")];
    const taken = (result.tricks_won || [])[c.side] ?? 0;
    const verdict = result.end === "made" ? "made" : "down";
    const what = c.misere ? gt(`summary.${verdict}`) : gt.n(`summary.${verdict}_with`, taken);
    return [frag(gt("summary.bid_before", { seat: ctx.seatName(c.contractor) }), fhBidLabel(c.bid), gt("summary.bid_after", { what }))];
  },
};
