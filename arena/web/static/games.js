// What the page knows about a game comes from the game itself (docs/game-interface.md, "The page"):
// the server's /api/games gives each game's `page` (play direction, rules text, phase kinds, card
// order, action labels and groups, prompts) and, for a game with richer panels, the URL of a module
// from the game's own package (arena/games/<game>/page.js) whose functions override the generic
// ones below. The page itself names no game. An action nothing here recognises is still offered, as
// a plain button with its action string (table.js).

import { el, frag, actButton, row } from "./present.js";
import { api } from "./api.js";

export { actButton };

const KINDS = ["bid", "exchange", "play", "over"]; // the one phase convention (Game.page()["phases"])

/** The generic presentation of a game, from its declared `page` data alone. */
function generic(page) {
  const labels = page.labels || {};
  const label = (action) => (action in labels ? labels[action] : null);
  return {
    page,
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
      const rows = (page.groups || []).map((group) => row(group.title || null, legal
        .filter((a) => !used.has(a) && a.startsWith(group.prefix || ""))
        .map((a) => (used.add(a), actButton(a, label(a) ?? a, { extra: group.kind || "" })))));
      return { rows, used };
    },
    prompt(obs) {
      const prompts = page.prompts || {};
      const text = prompts[obs.phase] || prompts[this.phaseKind(obs.phase)];
      if (text) return text;
      return this.phaseKind(obs.phase) === "play" ? "Your turn: play a highlighted card" : "Your turn";
    },
    contract(obs, ctx) {
      // The game's own line for this state (Game.page_lines, in the state message): "{seat:N}" is
      // a seat, named as the page names seats.
      const line = ctx.lines && ctx.lines.contract;
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
  const base = generic((g && g.page) || {});
  const own = g && g.page && g.page.module ? (await import(g.page.module)).default : {};
  const rules = { ...base, ...own };
  loaded.set(game, rules);
  return rules;
}

/** The presentation of `game` if loaded (loadRules first), else the generic one. */
export function rulesOf(game) {
  return loaded.get(game) || generic({});
}

/** A game's rules text for people (plain paragraphs separated by blank lines). */
export function rulesText(page) {
  const text = (page && page.rules) || "";
  return text.split(/\n\s*\n/).filter((p) => p.trim()).map((p) => el("p", {}, p.trim()));
}
