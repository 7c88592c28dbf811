// The start screen: the nickname (kept by the server against the arena_player cookie), the game,
// Daily (the day's deal, ranked on the first play) or New game (fresh deals, players, options and
// the bots of the other seats), and the player's earlier tables to resume.

import { el, clear, append } from "./dom.js";
import { api, replayUrl } from "./api.js";
import { trickPause, PAUSE_KEY, confirmForced, FORCED_KEY } from "./table.js";
import { rulesText } from "./games.js";
import { dailyStatus } from "./dailyview.js";
import { dailyText } from "./daily_text.js";

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
    placeholder: "your name on the leaderboard", "aria-label": "nickname" });
  const saved = el("span", { class: "saved", "aria-live": "polite" }, me.nickname ? "" : "No sign-up: pick a nickname for the leaderboard.");
  const saveNick = async () => {
    const value = nick.value.trim();
    if (!value || value === (me.nickname || "")) return true;
    try {
      const answer = await api.setNickname(value);
      me.nickname = answer.nickname ?? value;
      saved.textContent = `Saved: ${me.nickname}`;
      return true;
    } catch (error) {
      say(`Nickname not saved: ${error.message}`);
      return false;
    }
  };
  const nickForm = el("form", { class: "nickname", onsubmit: (e) => (e.preventDefault(), saveNick()) },
    el("label", { for: "nickname" }, "Nickname"), nick, el("button", { type: "submit", id: "save-nickname" }, "Save"), saved);

  // Game picker
  const picker = el("div", { class: "game-picker", role: "radiogroup", "aria-label": "game" });
  const details = el("div", { class: "new-game" });
  const rules = el("details", { id: "game-rules", class: "rules" });
  const drawPicker = () => {
    clear(picker);
    clear(rules).append(el("summary", {}, `How to play ${chosen.title}`), ...rulesText(chosen.page));
    for (const g of games) {
      const id = `game-${g.name}`;
      picker.appendChild(el("label", { class: "game-choice" + (g === chosen ? " chosen" : ""), for: id },
        el("input", { type: "radio", name: "game", id, value: g.name, checked: g === chosen,
          onchange: () => { chosen = g; localStorage.setItem(LAST_GAME, g.name); drawPicker(); drawNew(); drawStatus(); } }),
        el("b", {}, g.title), el("small", {}, `${g.players.join(", ")} players`)));
    }
  };

  // New game: players, options, bots
  let players = chosen.default_players;
  const drawNew = () => {
    clear(details);
    if (!chosen.players.includes(players)) players = chosen.default_players;
    const count = el("select", { id: "players", name: "players", onchange: () => { players = Number(count.value); drawNew(); } },
      chosen.players.map((n) => el("option", { value: n, selected: n === players }, `${n} players`)));
    const bots = [];
    for (let seat = 1; seat < players; seat++) {
      const select = el("select", { id: `bot-${seat}`, name: `bot-${seat}`, "aria-label": `bot in seat ${seat}` },
        chosen.bots.map((b) => el("option", { value: b, selected: b === (chosen.default_bot || "heuristic") }, b)));
      bots.push(select);
    }
    const options = (chosen.options || []).filter((o) => o.name !== "players").map(optionField);
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
      } }, "Start a new game");
    append(details, [
      el("h3", {}, "New game"),
      el("p", { class: "hint" }, "A completely new game with new deals (not ranked)."),
      el("div", { class: "field" }, el("label", { for: "players" }, "Players"), count),
      el("fieldset", { class: "bots" }, el("legend", {}, "Bots in the other seats"),
        bots.map((b, i) => el("div", { class: "field" }, el("label", { for: b.id }, `Seat ${i + 1}`), b))),
      options.length ? el("details", { class: "options" }, el("summary", {}, "Options"), options.map((f) => f.node)) : null,
      start]);
  };

  const daily = el("button", { type: "button", id: "start-daily", class: "primary",
    onclick: async () => {
      say("");
      if (!(await saveNick())) return;
      await create({ game: chosen.name, mode: "daily" }, say);
    } }, dailyText("start_button"));
  const statusBox = el("div", { class: "daily-status-box" });
  const drawStatus = () => clear(statusBox).appendChild(dailyStatus(chosen.name));

  const pause = el("input", { type: "checkbox", id: "trick-pause", checked: trickPause(),
    onchange: () => localStorage.setItem(PAUSE_KEY, pause.checked ? "on" : "off") });
  const forced = el("input", { type: "checkbox", id: "confirm-forced", checked: confirmForced(),
    onchange: () => localStorage.setItem(FORCED_KEY, forced.checked ? "on" : "off") });
  const settings = el("div", { class: "settings" },
    el("p", {}, el("label", { for: "trick-pause" }, pause, " Pause a moment on each finished trick (the bots play quickly)")),
    el("p", {}, el("label", { for: "confirm-forced" }, forced,
      " Ask me to confirm a move that is my only legal one (else it is played for me, and the table says so)")));
  const mine = tables.filter((t) => !t.finished);
  const done = tables.filter((t) => t.finished).sort((a, b) => (b.created || 0) - (a.created || 0)).slice(0, 5);
  append(view, [
    el("h1", {}, "Trick Arena"),
    el("p", { class: "lead" }, "Card games in the browser: you take a seat, bots take the others. Nothing to install, no sign-up."),
    nickForm,
    settings,
    el("h2", {}, "Choose a game"),
    picker,
    rules,
    status,
    el("div", { class: "modes" },
      el("div", { class: "daily" }, el("h3", {}, dailyText("heading")),
        el("p", { class: "hint" }, dailyText("start_hint")),
        statusBox, daily, el("p", {}, el("a", { id: "leaderboard-link", href: "#/leaderboard", onclick: (e) => {
          e.preventDefault();
          location.hash = `#/leaderboard?game=${chosen.name}&date=today`;
        } }, dailyText("today_board")))),
      details),
    mine.length ? el("section", { class: "resume" }, el("h2", {}, "Your unfinished games"),
      el("ul", {}, mine.map((t) => el("li", {}, el("a", { href: `#/table/${encodeURIComponent(t.id)}`, "data-table": t.id },
        describe(games, t)))))) : null,
    done.length ? el("section", { class: "resume" }, el("h2", {}, "Your finished games"),
      el("ul", {}, done.map((t) => el("li", {}, describe(games, t), " · ",
        el("a", { href: `#/table/${encodeURIComponent(t.id)}` }, "the table"), " · ",
        el("a", { href: replayUrl(t.id) }, "replay"))))) : null]);
  drawPicker();
  drawNew();
  drawStatus();
}

async function create(spec, say) {
  try {
    const answer = await api.createTable(spec);
    location.hash = `#/table/${encodeURIComponent(answer.table)}`;
  } catch (error) {
    say(`The game could not start: ${error.message}`);
  }
}

function describe(games, t) {
  const started = t.created ? new Date(t.created * 1000).toLocaleString() : "";
  const mode = t.mode === "daily" ? `daily deal ${t.date}${t.ranked ? "" : " (unranked)"}` : "new game";
  return `${title(games, t.game)} · ${mode}${started ? ` · started ${started}` : ""}`;
}

function title(games, name) {
  const g = games.find((x) => x.name === name);
  return g ? g.title : name;
}

function show(value) {
  if (value === false) return "off";
  if (value === true) return "on";
  if (value === null || value === undefined) return "none";
  return String(value);
}

/** A form field for one game option; read() gives {set, value} or {error}. */
function optionField(option) {
  const id = `option-${option.name}`;
  const help = option.help ? el("small", { class: "hint" }, option.help) : null;
  let input;
  let read;
  if (option.type === "bool") {
    input = el("input", { type: "checkbox", id, checked: option.default === true });
    read = () => ({ set: input.checked !== option.default, value: input.checked });
  } else if (option.type === "choice" && option.choices) {
    input = el("select", { id }, option.choices.map((c, i) => el("option", { value: i, selected: show(c) === show(option.default) }, show(c))));
    read = () => {
      const value = option.choices[Number(input.value)];
      return { set: show(value) !== show(option.default), value };
    };
  } else {
    const attrs = { type: "number", id, step: 1, value: option.default ?? "", placeholder: option.default === null ? "none" : "" };
    if (option.minimum !== undefined && option.minimum !== null) attrs.min = option.minimum;
    if (option.maximum !== undefined && option.maximum !== null) attrs.max = option.maximum;
    input = el("input", attrs);
    read = () => {
      const text = input.value.trim();
      if (text === "") return option.default === null ? { set: false } : { error: `option ${option.name}: give a number` };
      const value = Number(text);
      if (!Number.isInteger(value)) return { error: `option ${option.name}: '${text}' is not a whole number` };
      if (option.minimum != null && value < option.minimum) return { error: `option ${option.name}: at least ${option.minimum}` };
      if (option.maximum != null && value > option.maximum) return { error: `option ${option.name}: at most ${option.maximum}` };
      return { set: value !== option.default, value };
    };
  }
  const node = el("div", { class: "field option" }, el("label", { for: id }, option.name.replaceAll("_", " ")), input, help);
  return { name: option.name, node, read };
}
