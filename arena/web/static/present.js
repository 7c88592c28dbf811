// What a game's page module (arena/games/<game>/page.js) draws with: the page's small DOM and card
// helpers, the strain icon, the decision button and row. Game modules import only from here.

import { el, frag } from "./dom.js";
import { suitIcon, cardFace, cardText, cardWords, SUIT_NAMES } from "./cards.js";
import { t, gameText } from "./i18n.js";

export { el, frag, suitIcon, cardFace, cardText, cardWords, SUIT_NAMES, t, gameText };

/** The strains' names in the page's language (suits, and NT: "no trumps"). */
export const STRAIN_WORDS = {
  get S() { return SUIT_NAMES.S; },
  get C() { return SUIT_NAMES.C; },
  get D() { return SUIT_NAMES.D; },
  get H() { return SUIT_NAMES.H; },
  get NT() { return t("strain.NT"); },
};

/** A strain as an icon (suits) or text (NT). */
export function strain(s) {
  if (["S", "C", "D", "H"].includes(s)) return suitIcon(s);
  if (s === "NT") return el("span", { class: "nt" }, t("strain.NT_short"));
  return document.createTextNode(String(s ?? ""));
}

/** A decision button. `legal` buttons carry data-action; the rest are greyed (aria-disabled, so
 * they still take the focus and a tap) and say `reason`, why not, when tapped or focused (a title
 * alone would not show on touch): the table shows it in #why. */
export function actButton(action, content, { words, title, extra = "", legal = true, reason } = {}) {
  const attrs = {
    type: "button",
    class: `act ${legal ? "legal" : "unavailable"} ${extra}`.trim(),
    title: title || (words && words !== action ? words : null),
  };
  if (legal) attrs["data-action"] = action;
  else {
    attrs["aria-disabled"] = "true";
    attrs["data-reason"] = reason || t("why.not_now");
    attrs.title = attrs["data-reason"];
  }
  // The button is named by its words, in hidden text (so its name is all words: no card code, no
  // mismatch with a label); what it shows (icons, points) is drawn for the eye only.
  if (!words || words === action) return el("button", attrs, content ?? action);
  return el("button", attrs, el("span", { "aria-hidden": "true" }, content ?? action), el("span", { class: "visually-hidden" }, words));
}

/** A row of decision buttons with an optional title (null when it has none). */
export function row(title, ...buttons) {
  const items = buttons.flat().filter(Boolean);
  if (!items.length) return null;
  return el("div", { class: "decision-row" }, title ? el("span", { class: "row-title" }, title) : null, items);
}

/** Cards written inline, space-separated. */
export function cardList(cards) {
  return frag(cards.map((c, i) => frag(i ? " " : "", cardText(c))));
}
