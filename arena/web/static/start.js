// The start screen: the nickname (kept by the server against the arena_player cookie), the game,
// Daily (the day's deal, ranked on the first play) or New game (fresh deals, players, options and
// the bots of the other seats), and the player's earlier tables to resume.

import { el, clear, append, frag } from "./dom.js";
import { api, replayUrl } from "./api.js";
import { trickPause, PAUSE_KEY, confirmForced, FORCED_KEY } from "./table.js";
import { rulesText, gameTitle, botName, gameWord } from "./games.js";
import { t, t as tr, serverText } from "./i18n.js";
import { dailyStatus } from "./dailyview.js";

const LAST_GAME = "trick-arena-game"; // the game picked last time (this browser only)

export async function showStart(root) {
  const [me, listed, tables] = await Promise.all([api.me(), api.games(), api.tables().catch(() => [])]);
  const games = listed; // in the server's order (the games' own page order): the first is the default
  let chosen = games.find((g) => g.name === localStorage.getItem(LAST_GAME)) || games[0];
  const view = el("section", { id: "start", class: "start" });
  clear(root).appendChild(view);

  const status = el("p", { id: "start-message", class: "message", role: "alert", hidden: true });
  const say = (text) => {
    status.textContent = text;
    status.hidden = !text;
  };

  // Nickname
  const nick = el("input", { id: "nickname", name: "nickname", maxlength: 24, autocomplete: "nickname", value: me.nickname || "",
    placeholder: t("start.nickname_placeholder"), "aria-label": t("start.nickname_label") });
  const saved = el("span", { class: "saved", "aria-live": "polite" }, me.nickname ? "" : t("start.no_signup"));
  const saveNick = async () => {
    const value = nick.value.trim();
    if (!value || value === (me.nickname || "")) return true;
    try {
      const answer = await api.setNickname(value);
      me.nickname = answer.nickname ?? value;
      saved.textContent = t("start.saved", { name: me.nickname });
      return true;
    } catch (error) {
      say(t("start.not_saved", { error: serverText(error.data, error.message) }));
      return false;
    }
  };
  const nickForm = el("form", { class: "nickname", onsubmit: (e) => (e.preventDefault(), saveNick()) },
    el("label", { for: "nickname" }, t("start.nickname")), nick, el("button", { type: "submit", id: "save-nickname" }, t("start.save")), saved);

  // Game picker
  const picker = el("div", { class: "game-picker", role: "radiogroup", "aria-label": t("start.game") });
  const details = el("div", { class: "new-game" });
  const rules = el("details", { id: "game-rules", class: "rules" });
  const drawPicker = () => {
    clear(picker);
    clear(rules).append(el("summary", {}, t("start.how_to_play", { game: gameTitle(chosen) })), ...rulesText(chosen));
    for (const g of games) {
      const id = `game-${g.name}`;
      picker.appendChild(el("label", { class: "game-choice" + (g === chosen ? " chosen" : ""), for: id },
        el("input", { type: "radio", name: "game", id, value: g.name, checked: g === chosen,
          onchange: () => { chosen = g; localStorage.setItem(LAST_GAME, g.name); drawPicker(); drawNew(); drawStatus(); } }),
        el("b", {}, gameTitle(g)), el("small", {}, t("start.players_list", { counts: g.players.join(t("list.comma")) }))));
    }
  };

  // New game: players, options, bots
  let players = chosen.default_players;
  const drawNew = () => {
    clear(details);
    if (!chosen.players.includes(players)) players = chosen.default_players;
    const count = el("select", { id: "players", name: "players", onchange: () => { players = Number(count.value); drawNew(); } },
      chosen.players.map((n) => el("option", { value: n, selected: n === players }, t("start.n_players", { n }))));
    const bots = [];
    for (let seat = 1; seat < players; seat++) {
      const select = el("select", { id: `bot-${seat}`, name: `bot-${seat}`, "aria-label": t("start.bot_in_seat", { n: seat }) },
        chosen.bots.map((b) => el("option", { value: b, selected: b === (chosen.default_bot || "heuristic") }, botName(chosen, b))));
      bots.push(select);
    }
    const options = (chosen.options || []).filter((o) => o.name !== "players").map((o) => optionField(o, chosen));
    const start = el("button", { type: "button", id: "start-new", class: "primary",
      onclick: async () => {
        say("");
        if (!(await saveNick())) return;
        const values = {};
        for (const field of options) {
          const read = field.read();
          if (read.error) return say(read.error);
          if (read.set) values[field.name] = read.value;
        }
        await create({ game: chosen.name, mode: "new", players, options: values, bots: bots.map((b) => b.value) }, say);
      } }, t("start.start_new"));
    append(details, [
      el("h3", {}, t("start.new_game")),
      el("p", { class: "hint" }, t("start.new_hint")),
      el("div", { class: "field" }, el("label", { for: "players" }, t("start.players")), count),
      el("fieldset", { class: "bots" }, el("legend", {}, t("start.bots")),
        bots.map((b, i) => el("div", { class: "field" }, el("label", { for: b.id }, t("seat.n", { n: i + 1 })), b))),
      options.length ? el("details", { class: "options" }, el("summary", {}, t("start.options")), options.map((f) => f.node)) : null,
      start]);
  };

  const daily = el("button", { type: "button", id: "start-daily", class: "primary",
    onclick: async () => {
      say("");
      if (!(await saveNick())) return;
      await create({ game: chosen.name, mode: "daily" }, say);
    } }, t("daily.start_button"));
  const statusBox = el("div", { class: "daily-status-box" });
  const drawStatus = () => clear(statusBox).appendChild(dailyStatus(chosen.name));

  const pause = el("input", { type: "checkbox", id: "trick-pause", checked: trickPause(),
    onchange: () => localStorage.setItem(PAUSE_KEY, pause.checked ? "on" : "off") });
  const forced = el("input", { type: "checkbox", id: "confirm-forced", checked: confirmForced(),
    onchange: () => localStorage.setItem(FORCED_KEY, forced.checked ? "on" : "off") });
  const settings = el("div", { class: "settings" },
    el("p", {}, el("label", { for: "trick-pause" }, pause, " ", t("start.pause"))),
    el("p", {}, el("label", { for: "confirm-forced" }, forced, " ", t("start.confirm_forced"))));
  const mine = tables.filter((t) => !t.finished);
  const done = tables.filter((t) => t.finished).sort((a, b) => (b.created || 0) - (a.created || 0)).slice(0, 5);
  append(view, [
    el("h1", {}, t("site.name")),
    el("p", { class: "lead" }, t("start.lead")),
    nickForm,
    settings,
    el("h2", {}, t("start.choose_game")),
    picker,
    rules,
    status,
    el("div", { class: "modes" },
      el("div", { class: "daily" }, el("h3", {}, t("start.daily")),
        el("p", { class: "hint" }, t("daily.start_hint")),
        statusBox, daily, el("p", {}, el("a", { id: "leaderboard-link", href: "#/leaderboard", onclick: (e) => {
          e.preventDefault();
          location.hash = `#/leaderboard?game=${chosen.name}&date=today`;
        } }, t("start.todays_board")))),
      details),
    mine.length ? el("section", { class: "resume" }, el("h2", {}, t("start.unfinished")),
      el("ul", {}, mine.map((tb) => el("li", {}, el("a", { href: `#/table/${encodeURIComponent(tb.id)}`, "data-table": tb.id },
        describe(games, tb)),
        // a new game can be given up (a daily deal is part of the day's set: only finished)
        tb.mode === "new" ? frag(" · ", el("button", { type: "button", class: "link abandon", "data-abandon": tb.id,
          "aria-label": t("start.abandon_named", { game: describe(games, tb) }), onclick: async (e) => {
            e.target.disabled = true;
            try {
              await api.abandonTable(tb.id);
              e.target.closest("li").remove();
            } catch (error) {
              e.target.disabled = false;
              say(t("start.could_not_abandon", { error: serverText(error.data, error.message) }));
            }
          } }, t("start.abandon"))) : null)))) : null,
    done.length ? el("section", { class: "resume" }, el("h2", {}, t("start.finished")),
      el("ul", {}, done.map((tb) => el("li", {}, describe(games, tb), " · ",
        el("a", { href: `#/table/${encodeURIComponent(tb.id)}` }, t("start.the_table")),
        // a daily deal's replay shows every hand: it opens once its (UTC) day is over
        tb.mode === "daily" && tb.date >= new Date().toISOString().slice(0, 10) ? null
          : frag(" · ", el("a", { href: replayUrl(tb.id) }, t("start.replay"))))))) : null]);
  drawPicker();
  drawNew();
  drawStatus();
}

async function create(spec, say) {
  try {
    const answer = await api.createTable(spec);
    location.hash = `#/table/${encodeURIComponent(answer.table)}`;
  } catch (error) {
    say(t("start.could_not_start", { error: serverText(error.data, error.message) }));
  }
}

function describe(games, t) {
  const started = t.created ? new Date(t.created * 1000).toLocaleString() : "";
  const mode = t.mode === "daily" ? tr(t.ranked ? "start.daily_deal" : "start.daily_deal_unranked", { date: t.date }) : tr("start.a_new_game");
  return `${title(games, t.game)} · ${mode}${started ? ` · ${tr("start.started", { when: started })}` : ""}`;
}

function title(games, name) {
  const g = games.find((x) => x.name === name);
  return g ? gameTitle(g) : name;
}

function show(value) {
  if (value === false) return t("option.off");
  if (value === true) return t("option.on");
  if (value === null || value === undefined) return t("option.none");
  return String(value);
}

/** A form field for one game option; read() gives {set, value} or {error}. */
function optionField(option, game) {
  // its name, help and choices in the page's language where the game has them ("option:<name>",
  // "option_help:<name>", "choice:<name>:<value>" in its words), else as the game's option table says
  const id = `option-${option.name}`;
  const helpText = gameWord(game, `option_help:${option.name}`, option.help);
  const help = helpText ? el("small", { class: "hint" }, helpText) : null;
  const choice = (c) => gameWord(game, `choice:${option.name}:${String(c)}`, show(c));
  let input;
  let read;
  if (option.type === "bool") {
    input = el("input", { type: "checkbox", id, checked: option.default === true });
    read = () => ({ set: input.checked !== option.default, value: input.checked });
  } else if (option.type === "choice" && option.choices) {
    input = el("select", { id }, option.choices.map((c, i) => el("option", { value: i, selected: show(c) === show(option.default) }, choice(c))));
    read = () => {
      const value = option.choices[Number(input.value)];
      return { set: show(value) !== show(option.default), value };
    };
  } else {
    const attrs = { type: "number", id, step: 1, value: option.default ?? "", placeholder: option.default === null ? t("option.none") : "" };
    if (option.minimum !== undefined && option.minimum !== null) attrs.min = option.minimum;
    if (option.maximum !== undefined && option.maximum !== null) attrs.max = option.maximum;
    input = el("input", attrs);
    read = () => {
      const text = input.value.trim();
      if (text === "") return option.default === null ? { set: false } : { error: t("option.give_number", { name: option.name }) };
      const value = Number(text);
      if (!Number.isInteger(value)) return { error: t("option.not_whole", { name: option.name, text }) };
      if (option.minimum != null && value < option.minimum) return { error: t("option.at_least", { name: option.name, n: option.minimum }) };
      if (option.maximum != null && value > option.maximum) return { error: t("option.at_most", { name: option.name, n: option.maximum }) };
      return { set: value !== option.default, value };
    };
  }
  const node = el("div", { class: "field option" }, el("label", { for: id }, gameWord(game, `option:${option.name}`, option.name.replaceAll("_", " "))), input, help);
  return { name: option.name, node, read };
}
