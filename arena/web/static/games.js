// What the page knows about each game: which way play goes round the table, how its action strings
// read on buttons (docs/games/<game>.md lists them), the decision panels (auctions, 56's bid forms,
// All Fours' stand/beg/run, the joker's suit), the contract line and the hand summary. An action no
// rule here recognises is still offered, as a plain button with its action string (table.js).

import { el, frag } from "./dom.js";
import { suitIcon, cardFace, cardText, SUIT_NAMES } from "./cards.js";

const STRAIN_WORDS = { ...SUIT_NAMES, NT: "no trumps" };

/** A strain as an icon (suits) or text (NT). */
export function strain(s) {
  if (["S", "C", "D", "H"].includes(s)) return suitIcon(s);
  if (s === "NT") return el("span", { class: "nt" }, "NT");
  return document.createTextNode(String(s ?? ""));
}

/** A decision button. `legal` buttons carry data-action; the rest are shown disabled. */
export function actButton(action, content, { words, title, extra = "", legal = true } = {}) {
  const attrs = {
    type: "button",
    class: `act ${legal ? "legal" : "unavailable"} ${extra}`.trim(),
    "aria-label": words || action,
    title: title || words || action,
  };
  if (legal) attrs["data-action"] = action;
  else attrs.disabled = true;
  return el("button", attrs, content ?? action);
}

function row(title, ...buttons) {
  const items = buttons.flat().filter(Boolean);
  if (!items.length) return null;
  return el("div", { class: "decision-row" }, title ? el("span", { class: "row-title" }, title) : null, items);
}

function cardList(cards) {
  return frag(cards.map((c, i) => frag(i ? " " : "", cardText(c))));
}

// ---------------------------------------------------------------- Five Hundred

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

const fiveHundred = {
  clockwise: true,
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
  summary(result, ctx) {
    const c = result.contract;
    if (!c) return ["Everyone passed: the hand is thrown in."];
    const taken = (result.tricks_won || [])[c.side] ?? 0;
    const verdict = result.end === "made" ? "made it" : "went down";
    const what = c.misere ? `${verdict}` : `${verdict} with ${taken} trick${taken === 1 ? "" : "s"}`;
    return [frag(ctx.seatName(c.contractor), " bid ", fhBidLabel(c.bid), `: ${what}.`)];
  },
};

// ---------------------------------------------------------------- 56

const F56_FORMS = [
  [/^bid (\d+) ([SCDH])$/, (m) => ({ amount: +m[1], label: frag(m[1], " ", strain(m[2])), words: `${m[1]} ${STRAIN_WORDS[m[2]]}`, hint: "number then suit: holds the top of the suit" })],
  [/^bid ([SCDH]) (\d+)$/, (m) => ({ amount: +m[2], label: frag(strain(m[1]), " ", m[2]), words: `${STRAIN_WORDS[m[1]]} ${m[2]}`, hint: "suit then number: strong in the suit without its jack" })],
  [/^bid (\d+) NT$/, (m) => ({ amount: +m[1], label: `${m[1]} NT`, words: `${m[1]} no trumps`, hint: "no trumps" })],
  [/^bid (\d+) noes$/, (m) => ({ amount: +m[1], label: `${m[1]} noes`, words: `${m[1]} noes`, hint: "noes: no card of the suit named last (played at no trumps)" })],
  [/^bid \+(\d+) ([SCDH])$/, (m, cur) => ({ amount: cur + +m[1], label: frag(`+${m[1]} `, strain(m[2])), words: `plus ${m[1]} ${STRAIN_WORDS[m[2]]}`, hint: "plus: several high cards of the suit" })],
  [/^bid \+(\d+) noes$/, (m, cur) => ({ amount: cur + +m[1], label: `+${m[1]} noes`, words: `plus ${m[1]} noes`, hint: "plus noes (played at no trumps)" })],
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

const fiftySix = {
  clockwise: false,
  label(action, ctx, obs) {
    if (action === "pass") return "Pass";
    if (action === "double") return "Double";
    if (action === "redouble") return "Redouble";
    const bid = f56Bid(action, obs ? f56Current(obs) : 0);
    return bid ? bid.label : null;
  },
  words(action, obs) {
    const bid = f56Bid(action, obs ? f56Current(obs) : 0);
    return bid ? `bid ${bid.words} (${bid.amount})` : action;
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
      const picker = el("div", { class: "amounts", role: "group", "aria-label": "bid amount" },
        amounts.map((n) => el("button", {
          type: "button", class: "amount" + (n === chosen ? " chosen" : ""), "data-amount": n,
          "aria-pressed": n === chosen ? "true" : "false", onclick: () => ui.set("amount", n),
        }, String(n))));
      rows.push(row("Amount:", picker));
      rows.push(row(`Bid ${chosen}:`, byAmount.get(chosen).map(([a, bid]) => actButton(a, bid.label, { words: `bid ${bid.words} (${bid.amount})`, title: bid.hint, extra: "bid" }))));
    }
    return { rows, used };
  },
  prompt(obs) {
    if (obs.phase === "auction") return "Your call: pick an amount, then the bid; or pass, double, redouble";
    return "Your turn: play a highlighted card";
  },
  contract(obs, ctx) {
    const c = obs.contract;
    const mult = (m) => (m > 1 ? ` ×${m}` : "");
    if (c) return frag(ctx.seatName(c.declarer), ": ", String(c.amount), " ", strain(c.strain), mult(c.multiplier), c.all_pass ? " (all passed)" : "");
    const h = obs.auction && obs.auction.high_bid;
    if (h) return frag("High bid: ", ctx.seatName(h.bidder), " ", String(h.amount), " ", strain(h.strain), obs.auction.redoubled ? " ×4" : obs.auction.doubled ? " ×2" : "");
    return null;
  },
  bubble(action) {
    if (action.startsWith("play ")) return null;
    const call = { pass: "Pass", double: "Double", redouble: "Redouble" }[action];
    if (call) return call;
    const bid = f56Bid(action, 0);
    return bid ? bid.label : null; // a plus bid shows as said ("+2 D"); the contract line has the sum
  },
  extraScores(obs, ctx) {
    return obs.points_won ? obs.points_won.map((p, side) => `${ctx.sideName(side)}: ${p} points`).join(" · ") : null;
  },
  summary(result, ctx) {
    const c = result.contract;
    if (!c) return [];
    const pts = (result.points || [])[c.side] ?? 0;
    return [frag(ctx.seatName(c.declarer), " bid ", String(c.amount), " ", strain(c.strain), c.multiplier > 1 ? ` ×${c.multiplier}` : "",
      `: ${result.made ? "made" : "lost"} with ${pts} points.`),
      result.points ? "Card points: " + result.points.map((p, s) => `${ctx.sideName(s)} ${p}`).join(", ") : null].filter(Boolean);
  },
};

// ---------------------------------------------------------------- All Fours

const allFours = {
  clockwise: false,
  label(action, ctx, obs) {
    const suit = obs && (obs.proposed_suit || (obs.turn_up || "").slice(-1));
    const s = suit ? strain(suit) : "";
    if (action === "stand") return frag("Stand: ", s, " trumps");
    if (action === "beg") return "Beg";
    if (action === "give one") return frag("Give one: ", s, " trumps");
    if (action === "run") return "Run the pack";
    return null;
  },
  words(action) {
    const w = { stand: "stand: keep the turned-up suit as trumps", beg: "beg for another trump suit",
      "give one": "give one point and keep the turned-up suit", run: "run the pack for a new trump suit" };
    return w[action] || action;
  },
  panel(obs, legal, ctx) {
    const used = new Set();
    const mine = ["stand", "beg", "give one", "run"].filter((a) => legal.includes(a));
    mine.forEach((a) => used.add(a));
    const title = obs.phase === "give_or_run" ? `${ctx.seatName(obs.eldest)} begged:` : null;
    return { rows: [row(title, mine.map((a) => actButton(a, this.label(a, ctx, obs), { words: this.words(a), extra: "call" })))], used };
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

// ---------------------------------------------------------------- Bid Euchre

const bidEuchre = {
  clockwise: true,
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

// ---------------------------------------------------------------- any other game

const generic = {
  clockwise: true,
  label: () => null,
  words: (a) => a,
  panel: () => ({ rows: [], used: new Set() }),
  prompt: () => "Your turn",
  contract: () => null,
  bubble: () => null,
  summary: () => [],
};

const GAMES = { five_hundred: fiveHundred, fifty_six: fiftySix, all_fours: allFours, bid_euchre: bidEuchre };

export function rulesOf(game) {
  return { ...generic, ...(GAMES[game] || {}) };
}
