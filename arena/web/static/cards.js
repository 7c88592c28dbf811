// Cards: parsing the engines' card strings (rank then suit, "10H", "JK" for the joker), drawing
// them, and sorting a hand by suit. Suit symbols are inline SVG so no font has to carry them.

import { t } from "./i18n.js";

export const SUITS = ["S", "C", "D", "H"];
/** The suits' names in the page's language ("spades"; read when used, so a language change shows). */
export const SUIT_NAMES = {
  get S() { return t("suit.S"); },
  get C() { return t("suit.C"); },
  get D() { return t("suit.D"); },
  get H() { return t("suit.H"); },
};
const RED = new Set(["D", "H"]);
const TWIN = { S: "C", C: "S", D: "H", H: "D" };

const PATHS = {
  S: "M12 1.5C9.2 5.6 3 9 3 14a4.6 4.6 0 0 0 7.6 3.5L9.4 22.5h5.2l-1.2-5A4.6 4.6 0 0 0 21 14c0-5-6.2-8.4-9-12.5z",
  C: "M12 1.8a4.4 4.4 0 0 0-4 6.3 4.4 4.4 0 1 0 2.6 7.6l-1.2 6.8h5.2l-1.2-6.8a4.4 4.4 0 1 0 2.6-7.6 4.4 4.4 0 0 0-4-6.3z",
  D: "M12 1.5l8 10.5-8 10.5-8-10.5z",
  H: "M12 21.8S2.5 15.6 2.5 8.6A5 5 0 0 1 12 6.2a5 5 0 0 1 9.5 2.4c0 7-9.5 13.2-9.5 13.2z",
};

/** An SVG element drawing the suit's symbol (aria-hidden: the text beside it says the suit). */
export function suitIcon(suit) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.classList.add("suit", isRed(suit) ? "red" : "black");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", PATHS[suit] || "");
  svg.appendChild(path);
  return svg;
}

export function isRed(suit) {
  return RED.has(suit);
}

/** {rank, suit, joker} of a card string; null for something that is not a card. */
export function parseCard(text) {
  if (typeof text !== "string") return null;
  const t = text.trim().toUpperCase();
  if (t === "JK") return { rank: "JK", suit: null, joker: true };
  const m = /^(10|1[1-3]|[2-9AKQJT])([SCDH])$/.exec(t);
  if (!m) return null;
  return { rank: m[1] === "T" ? "10" : m[1], suit: m[2], joker: false };
}

export function isCard(text) {
  return parseCard(text) !== null;
}

/** The words a screen reader says for a card: "10 of hearts", "joker". */
export function cardWords(text) {
  const c = parseCard(text);
  if (!c) return String(text);
  if (c.joker) return t("card.joker");
  const rank = ["A", "K", "Q", "J"].includes(c.rank) ? t(`rank.${c.rank}`) : c.rank;
  return t("card.words", { rank, suit: SUIT_NAMES[c.suit] });
}

/** A face-up card as an element: rank and suit in a corner and a large suit in the middle. */
export function cardFace(text, tag = "div") {
  const c = parseCard(text);
  const el = document.createElement(tag);
  el.className = "card";
  el.dataset.card = text;
  if (!c) {
    el.textContent = text;
    return el;
  }
  if (c.joker) {
    el.classList.add("joker");
    // "JK" is drawn by the style sheet (.card.joker .rank::before), not written in the page: a
    // card is named in words ("joker"), and a written corner that the name does not contain is a
    // mismatch for screen-reader users who speak what they see (axe: label-content-name-mismatch)
    const mark = document.createElement("span");
    mark.className = "rank";
    const big = document.createElement("span");
    big.className = "pip joker-star";
    big.textContent = "\u2605";
    el.append(mark, big);
  } else {
    el.classList.add(isRed(c.suit) ? "red" : "black");
    const corner = document.createElement("span");
    corner.className = "rank";
    corner.textContent = c.rank;
    corner.appendChild(suitIcon(c.suit));
    const big = document.createElement("span");
    big.className = "pip";
    big.appendChild(suitIcon(c.suit));
    el.append(corner, big);
  }
  // Named in words ("10 of hearts"); the corner and the pip are drawn for the eye only.
  for (const child of el.children) child.setAttribute("aria-hidden", "true");
  if (tag !== "button") el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardWords(text));
  el.title = cardWords(text);
  return el;
}

/** A face-down card (the backs of the other hands). */
export function cardBack() {
  const el = document.createElement("div");
  el.className = "card back";
  el.setAttribute("aria-hidden", "true");
  return el;
}

// Rank order, high to low, of plain suits, unless the game gives its own (Game.page()["ranks"]).
const RANKS = ["A", "K", "Q", "J", "13", "12", "11", "10", "9", "8", "7", "6", "5", "4", "3", "2"];

/** The suit a card sorts with: bowers and the joker go with trumps where the game says so
 * (`look.bowers`: the jack of trumps and its same-colour twin are trumps, Game.page()["bowers"]). */
export function sortSuit(look, card, trump) {
  const c = parseCard(card);
  if (!c) return null;
  const isTrumpSuit = SUITS.includes(trump);
  if (c.joker) return isTrumpSuit ? trump : null;
  if (look.bowers && isTrumpSuit && c.rank === "J" && (c.suit === trump || c.suit === TWIN[trump])) {
    return trump;
  }
  return c.suit;
}

/**
 * The hand in display order: grouped by suit with colours alternating (trumps first when known),
 * highest first inside each suit. The joker leads its trump group, or stands alone at the left.
 * `look`: the game's card order (Game.page(): `ranks`, `bowers`).
 */
export function sortHand(look, cards, trump) {
  const cycle = ["S", "H", "C", "D"];
  const start = SUITS.includes(trump) ? cycle.indexOf(trump) : 0;
  const order = cycle.slice(start).concat(cycle.slice(0, start));
  const ranks = look.ranks || RANKS;
  const key = (card) => {
    const c = parseCard(card);
    if (!c) return [9, 0, String(card)];
    const suit = sortSuit(look, card, trump);
    if (c.joker) return [suit ? order.indexOf(suit) : -1, -3, card];
    let within = ranks.indexOf(c.rank);
    if (suit === trump && look.bowers && c.rank === "J") within = c.suit === trump ? -2 : -1;
    return [order.indexOf(suit), within, card];
  };
  return [...cards].sort((a, b) => {
    const ka = key(a), kb = key(b);
    for (let i = 0; i < 3; i++) {
      if (ka[i] < kb[i]) return -1;
      if (ka[i] > kb[i]) return 1;
    }
    return 0;
  });
}

/** A card written inline, "10" and its suit symbol in the suit's colour (logs and summaries). */
export function cardText(text) {
  const c = parseCard(text);
  const span = document.createElement("span");
  span.className = "card-text";
  if (!c || c.joker) {
    span.textContent = c ? "JK" : String(text);
    return span;
  }
  span.classList.add(isRed(c.suit) ? "red" : "black");
  span.append(c.rank, suitIcon(c.suit));
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", cardWords(text));
  return span;
}
