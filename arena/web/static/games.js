// What the page knows about a game comes from the game itself (docs/game-interface.md, "The page"):
// the server's /api/games gives each game's `page` (play direction, rules text, phase kinds, card
// order, action labels and groups, prompts) and, for a game with richer panels, the URL of a module
// from the game's own package (arena/games/<game>/page.js) whose functions override the generic
// ones below. The page itself names no game. An action nothing here recognises is still offered, as
// a plain button with its action string (table.js).

import { el, frag, actButton, row } from "./present.js";
import { api } from "./api.js";
import { cardText, parseCard, suitIcon } from "./cards.js";
import { t, addGameText, gameText, language } from "./i18n.js";

export { actButton };

const KINDS = ["bid", "exchange", "play", "over"]; // the one phase convention (Game.page()["phases"])

/** The generic presentation of a game, from its declared `page` data alone. */
function generic(page, name) {
  // A data-only game's words: its own text in the page's language (keys "label:<action>",
  // "group:<prefix>", "prompt:<phase or kind>", "line:<key>"), else its English `labels`, `groups`, `prompts`.
  const gt = gameText(name || "");
  const labels = page.labels || {};
  const label = (action) => (gt.has(`label:${action}`) ? gt(`label:${action}`) : action in labels ? labels[action] : null);
  return {
    page,
    gt,
    clockwise: page.clockwise !== false,
    cards: { ranks: page.ranks || null, bowers: !!page.bowers },
    phaseKind(phase) {
      const kind = (page.phases || {})[phase];
      return KINDS.includes(kind) ? kind : phase === "play" || phase === "over" ? phase : "bid";
    },
    label,
    words: (action) => label(action) || action,
    panel(obs, legal) {
      // One row per declared group (actions starting with its prefix), labelled from `labels`.
      const used = new Set();
      const rows = (page.groups || []).map((group) => row(gt.has(`group:${group.prefix || ""}`) ? gt(`group:${group.prefix || ""}`) : group.title || null, legal
        .filter((a) => !used.has(a) && a.startsWith(group.prefix || ""))
        .map((a) => (used.add(a), actButton(a, label(a) ?? a, { extra: group.kind || "" })))));
      return { rows, used };
    },
    prompt(obs) {
      const prompts = page.prompts || {};
      for (const key of [obs.phase, this.phaseKind(obs.phase)]) if (gt.has(`prompt:${key}`)) return gt(`prompt:${key}`);
      const text = prompts[obs.phase] || prompts[this.phaseKind(obs.phase)];
      if (text) return text;
      return this.phaseKind(obs.phase) === "play" ? t("prompt.play") : t("prompt.turn");
    },
    contract(obs, ctx) {
      // The game's own line for this state (Game.page_lines, in the state message): "{seat:N}" is
      // a seat, named as the page names seats. A line may be {"key", ...params}: the game's text
      // "line:<key>" in the page's language, its {name}s filled from the params.
      let line = ctx.lines && ctx.lines.contract;
      if (line && typeof line === "object") line = gt(`line:${line.key}`, line);
      if (!line) return null;
      return frag(...line.split(/(\{seat:\d+\})/).map((part) => {
        const seat = /^\{seat:(\d+)\}$/.exec(part);
        return seat ? ctx.seatName(Number(seat[1])) : part;
      }));
    },
    discards: () => 1, // cards discarded at one go (a kitty exchange may take several, confirmed together)
    bubble: (action) => (action.startsWith("play ") ? null : label(action)),
    summary: () => [],
  };
}

let described = null; // name -> the game's description from /api/games
const loaded = new Map(); // name -> its presentation, once loaded

/** The games as the server lists them (its first is the default game). */
export function games() {
  if (!described) described = api.games().then((list) => new Map(list.map((g) => [g.name, g])));
  return described;
}

/** Load the presentation of `game` (its module too, when it has one); resolves to it. */
export async function loadRules(game) {
  if (loaded.has(game)) return loaded.get(game);
  const g = (await games()).get(game);
  addGameText(game, g && g.page && g.page.text);
  const base = generic((g && g.page) || {}, game);
  const own = g && g.page && g.page.module ? (await import(g.page.module)).default : {};
  const rules = { ...base, ...own };
  loaded.set(game, rules);
  return rules;
}

/** The presentation of `game` if loaded (loadRules first), else the generic one. */
export function rulesOf(game) {
  return loaded.get(game) || generic({});
}

/** A game's words from its package in the page's language ("title", "rules", ...; English, then
 * `fallback`, where it has none). */
export function gameWord(g, key, fallback) {
  if (!g || !g.name) return fallback;
  addGameText(g.name, g.page && g.page.text);
  const gt = gameText(g.name);
  return gt.has(key) ? gt(key) : fallback;
}

/** A game's title in the page's language. */
export function gameTitle(g) {
  return gameWord(g, "title", g ? g.title : "");
}

/** A game's rules for players in the page's language (its package's rules text: plain paragraphs
 * separated by blank lines; a line starting "- " is a list item, "## " a heading). */
export function rulesText(g) {
  const desc = g && g.page ? g : { page: g || {} }; // a game's description, or its page data alone
  const text = gameWord(desc, "rules", desc.page.rules || "");
  const nodes = [];
  for (const block of text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean)) {
    const lines = block.split("\n");
    if (block.startsWith("## ")) nodes.push(el("h4", {}, block.slice(3)));
    else if (lines.every((l) => l.startsWith("- "))) nodes.push(el("ul", {}, lines.map((l) => el("li", {}, l.slice(2)))));
    else nodes.push(el("p", {}, block.replace(/\s*\n\s*/g, " ")));
  }
  return nodes;
}

/** A bot's plain name and strength in the page's language ("Steady (medium)"), from what it
 * declares where it is registered (BotSpec titles and strength); its registered name if none. */
export function botName(g, bot) {
  const info = (g && g.bot_info && g.bot_info[bot]) || {};
  const titles = info.titles || {};
  const name = titles[language()] || titles.en || bot;
  return info.strength ? t("bot.with_strength", { name, strength: t(`strength.${info.strength}`) }) : name;
}

const CARD_VERBS = new Set(["play", "discard", "give"]);

/** An action in words, as the deal's log and the daily replays show it: a card played as the card,
 * a card discarded or given with its verb, anything else in the game's own words (its bubble or
 * label, from ``rules``: loadRules/rulesOf), else the action string itself. */
export function actionLabel(action, rules, ctx = {}, obs = {}) {
  const [verb, card, named] = action.split(" ");
  if (CARD_VERBS.has(verb) && parseCard(card)) {
    return frag(verb === "play" ? "" : `${t(`verb.${verb}`)} `, cardText(card), named ? frag(" ", t("log.calling"), " ", suitIcon(named)) : "");
  }
  if (!rules) return action;
  try {
    return rules.bubble(action, obs) || rules.label(action, ctx, obs) || action;
  } catch {
    return action;  // a game's label that needs more of the table than a replay has
  }
}
