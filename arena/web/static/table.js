// The table: one WebSocket to the server, and everything drawn from the latest `state` message only
// (protocol: docs/web.md), so a reload or a reconnect shows exactly what the server holds.

import { dailyText } from "./daily_text.js";
import { el, clear, frag, append } from "./dom.js";
import { cardFace, cardText, sortHand, parseCard, cardWords, suitIcon, SUIT_NAMES } from "./cards.js";
import { rulesOf, loadRules, actButton } from "./games.js";
import { tableSocketUrl } from "./api.js";
import { handSummary, handEndPanel, scoreSheet, finishedPanel, dealLog, followLog } from "./panels.js";

const CARD_VERBS = new Set(["play", "discard", "give"]);
const TRICK_PAUSE = 1200; // ms a finished trick stays in view (the start screen's setting turns it off)
export const PAUSE_KEY = "trick-arena-trick-pause";

/** Whether finished tricks pause in view (on unless the person turned it off; kept in this browser). */
export function trickPause() {
  try {
    return localStorage.getItem(PAUSE_KEY) !== "off";
  } catch {
    return true;
  }
}
export const FORCED_KEY = "trick-arena-confirm-forced";

/** Whether the person confirms their forced moves (off unless they turned it on; kept in this browser). */
export function confirmForced() {
  try {
    return localStorage.getItem(FORCED_KEY) === "on";
  } catch {
    return false;
  }
}
const COMPASS_CLOCKWISE = ["South", "West", "North", "East"]; // seat+1 sits on your left
const COMPASS_ANTICLOCKWISE = ["South", "East", "North", "West"]; // seat+1 sits on your right

/** Open table `id` inside `root`. Returns {close} to leave it. */
export function openTable(root, id) {
  const view = new TableView(root, id);
  view.connect();
  return { close: () => view.close() };
}

class TableView {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.state = null;
    this.socket = null;
    this.closed = false;
    this.retry = 0;
    this.pending = null; // the decision we answered and await the next state for
    this.queue = []; // further actions to send, one per state (the kitty discards)
    this.selected = new Set(); // discard picks (card strings, by hand position)
    this.ui = new Map(); // small view settings: chosen 56 amount, last trick shown
    this.seenHands = null; // the number of hand results when the page opened
    this.donePause = trickPause() ? TRICK_PAUSE : 0;
    this.held = null; // a state waiting for the finished trick's pause to end
    this.heldTimer = null;
    this.doneKey = null;
    this.doneSince = null;
    this.message = null;
    this.ready = null; // the game's presentation loading (games.js loadRules)
    this.typed = ""; // keys typed toward an action ("6h", "p"): typedForm below
    // Plays and calls are read out here (a polite live region that outlives the redraws).
    this.announcer = el("div", { id: "announce", class: "visually-hidden", "aria-live": "polite" });
    document.body.appendChild(this.announcer);
    this.onKey = (event) => this.key(event);
    document.addEventListener("keydown", this.onKey);
    // Decision buttons (games.js) carry only data-action; one listener sends whichever is clicked.
    this.onClick = (event) => {
      const button = event.target.closest("#decisions [data-action]");
      if (button && !button.disabled) this.send(button.dataset.action);
    };
    root.addEventListener("click", this.onClick);
    clear(root).appendChild(el("p", { class: "loading" }, "Connecting to the table…"));
  }

  close() {
    this.closed = true;
    clearTimeout(this.heldTimer);
    document.removeEventListener("keydown", this.onKey);
    this.announcer.remove();
    this.root.removeEventListener("click", this.onClick);
    if (this.socket) this.socket.close(1000, "left the table");
  }

  connect() {
    if (this.closed) return;
    const socket = new WebSocket(tableSocketUrl(this.id));
    this.socket = socket;
    socket.onopen = () => {
      this.retry = 0;
      // A move that is the only legal one is played for the person unless they asked to confirm it.
      socket.send(JSON.stringify({ type: "settings", confirm_forced: confirmForced() }));
      this.setConnection(null);
    };
    socket.onmessage = (event) => this.receive(event.data);
    socket.onclose = (event) => {
      if (this.closed || socket !== this.socket) return;
      this.pending = null;
      if (event.code >= 4000 && event.code < 5000) {
        // The server refused the table itself (not ours, unknown): retrying cannot help.
        this.setConnection(`The server refused this table: ${this.lastError || event.reason || `code ${event.code}`}`, true);
        return;
      }
      const wait = Math.min(5000, 300 * 2 ** this.retry++);
      this.setConnection(`Connection lost: reconnecting in ${Math.round(wait / 100) / 10} s…`);
      setTimeout(() => this.connect(), wait);
    };
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      this.flash(`The server sent something unreadable: ${String(text).slice(0, 80)}`);
      return;
    }
    if (msg.type === "error") {
      this.lastError = msg.message;
      this.pending = null;
      this.queue = [];
      this.flash(msg.message || "The server refused that.");
      this.render();
      return;
    }
    if (msg.type === "notice") {  // e.g. the person's bots wait for their share of the server's time
      this.flash(msg.message);
      return;
    }
    if (msg.type !== "state") return;
    // The game's presentation (and its page module) is loaded once, before its first state is drawn;
    // states keep their order behind the one promise.
    if (!this.ready) this.ready = loadRules(msg.observation.game).catch((error) => this.flash(`The game's page did not load: ${error.message}`));
    this.ready.then(() => !this.closed && this.incoming(msg));
  }

  // A finished trick stays on the table at least TRICK_PAUSE ms (if the person keeps the setting
  // on) before the next lead or the next hand replaces it: the bots may play faster than that.
  incoming(msg) {
    if (this.heldTimer) {
      this.held = msg; // the latest state wins; it is shown when the pause is over
      return;
    }
    const wait = this.pauseLeft(msg);
    if (wait > 0) {
      this.held = msg;
      this.heldTimer = setTimeout(() => {
        this.heldTimer = null;
        const next = this.held;
        this.held = null;
        this.incoming(next);
      }, wait);
      return;
    }
    this.apply(msg);
  }

  pauseLeft(msg) {
    if (!this.donePause || !this.state || !this.doneSince) return 0;
    const now = this.state.observation;
    const next = msg.observation;
    const playing = (obs) => rulesOf(obs.game).phaseKind(obs.phase) === "play";
    const showing = playing(now) && !(now.trick || []).length && now.last_trick;
    const same = playing(next) && !(next.trick || []).length && next.hand_index === now.hand_index
      && (next.tricks || []).length === (now.tricks || []).length;
    if (!showing || same) return 0;
    return Math.max(0, this.donePause - (performance.now() - this.doneSince));
  }

  apply(msg) {
    const before = this.state;
    this.state = msg;
    if (this.seenHands === null) this.seenHands = (msg.hands || []).length;
    if (this.pending !== null && msg.decision !== this.pending) this.pending = null;
    if (!msg.your_turn || (before && before.observation.phase !== msg.observation.phase)) this.selected.clear();
    const newTurn = msg.your_turn && (!before || !before.your_turn || before.decision !== msg.decision);
    if (!before || before.decision !== msg.decision) this.typed = "";
    if (before) this.announce(before, msg);
    const o = msg.observation;
    const doneKey = rulesOf(o.game).phaseKind(o.phase) === "play" && !(o.trick || []).length && o.last_trick ? `${o.hand_index}:${(o.tricks || []).length}` : null;
    if (doneKey !== this.doneKey) this.doneSince = doneKey && before ? performance.now() : null;
    this.doneKey = doneKey;
    this.render();
    if (this.queue.length && msg.your_turn && this.pending === null) {
      const next = this.queue.shift();
      if ((msg.legal_actions || []).includes(next)) this.send(next);
      else this.queue = [];
    } else if (newTurn) {
      this.focusFirst();
    }
  }

  announce(before, msg) {
    // The calls and cards played since the state before, said in words ("West: 10 of hearts").
    const was = before.observation, now = msg.observation;
    const history = now.history || [];
    const from = was.hand_index === now.hand_index ? Math.min((was.history || []).length, history.length) : 0;
    const ctx = this.context();
    const said = history.slice(from).map(([seat, action]) => `${ctx.seatName(seat)}: ${actionWords(ctx, action)}`);
    if (said.length) this.announcer.textContent = said.join(". ") + ".";
  }

  send(action) {
    const s = this.state;
    if (!s || !s.your_turn || this.pending !== null) return;
    if (!(s.legal_actions || []).includes(action)) {
      this.flash(`'${action}' is not a legal action now.`);
      return;
    }
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
      this.flash("Not connected: your move was not sent; it can be made once the table reconnects.");
      return;
    }
    this.pending = s.decision;
    this.socket.send(JSON.stringify({ type: "act", action, decision: s.decision }));
    this.root.querySelectorAll("[data-action], #discard-confirm").forEach((b) => (b.disabled = true));
  }

  // ------------------------------------------------------------------ context for labels

  context() {
    const s = this.state;
    const obs = s.observation;
    const n = s.table.players || obs.players;
    const me = s.table.seat ?? obs.seat;
    const rules = rulesOf(obs.game);
    const sides = obs.sides || obs.seat_sides;
    const numSides = (obs.scores || []).length || n;
    const sideOf = (seat) => (sides ? sides[seat] : numSides === n ? seat : seat % numSides);
    const offset = (seat) => (seat - me + n) % n;
    const compass = rules.clockwise ? COMPASS_CLOCKWISE : COMPASS_ANTICLOCKWISE;
    const seatName = (seat) => {
      if (seat === null || seat === undefined) return "";
      if (seat === me) return "You";
      if (n === 4) return compass[offset(seat)];
      return `Seat ${seat}`;
    };
    const sideName = (side) => {
      const seats = [...Array(n).keys()].filter((seat) => sideOf(seat) === side);
      const names = seats.map(seatName);
      return names.includes("You") ? ["You", ...names.filter((x) => x !== "You")].join(" & ") : names.join(" & ");
    };
    // the phase's kind (bid, exchange, play, over: docs/game-interface.md, "Phases"), not its word
    const kind = rules.phaseKind(obs.phase);
    return { obs, n, me, rules, kind, sideOf, offset, seatName, sideName, numSides, options: s.table.options || {}, lines: s.lines || {} };
  }

  // ------------------------------------------------------------------ drawing

  render() {
    const s = this.state;
    if (!s) return;
    const focus = this.focusKey();
    const ctx = this.context();
    const { obs, rules } = ctx;
    document.title = `${s.table.title || obs.game}${s.your_turn ? ": your turn" : ""} – Trick Arena`;
    const view = el("section", { id: "table", class: `table-view game-${obs.game}`, "data-phase": obs.phase,
      "data-phase-kind": ctx.kind,
      "data-decision": s.decision, "data-your-turn": s.your_turn ? "true" : "false" });
    append(view, [
      this.bar(ctx),
      this.felt(ctx),
      el("div", { id: "status", class: "status" + (s.your_turn ? " your-turn" : ""), "aria-live": "polite" }, this.statusText(ctx),
        this.typedLine(ctx), this.forcedLine(ctx), this.lastHandLine(ctx)),
      this.message ? el("div", { id: "message", class: "message", role: "alert" }, this.message) : null,
      this.connection ? el("div", { id: "connection", class: "connection", role: "status" }, this.connection) : null,
    ]);
    const { decisions, cardActions } = this.decisions(ctx);
    // A decision panel (an auction, a choice) sits beside the table on a wide screen, and on a
    // narrow one the table shrinks to a strip of seats above it: the hand stays in view under it.
    if (decisions.childElementCount) view.classList.add("with-panel");
    append(view, [decisions, this.handView(ctx, cardActions), this.sidebar(ctx), this.handEnd(ctx)]);
    clear(this.root).appendChild(view);
    followLog(this.root, ctx, this.ui);
    this.restoreFocus(focus);
    const close = this.root.querySelector("#hand-end-close"); // a modal panel holds the focus
    if (close && !close.closest("#hand-end").contains(document.activeElement)) close.focus({ preventScroll: true });
  }

  bar(ctx) {
    const s = this.state;
    const t = s.table;
    const { obs, rules } = ctx;
    const mode = t.daily ? `${dailyText("deal_of", { deal: t.daily.deal + 1, deals: t.daily.deals })} ${t.date || ""}${t.ranked === false ? " (unranked replay)" : ""}`
      : t.mode === "daily" ? `Daily deal ${t.date || ""}${t.ranked === false ? " (unranked replay)" : ""}` : "New game";
    const scores = el("ul", { id: "scores", class: "scores", "aria-label": "scores" },
      (obs.scores || []).map((score, side) => el("li", { class: (ctx.sideOf(ctx.me) === side ? "ours" : "") + (score < 0 ? " negative" : ""), "data-side": side },
        el("span", { class: "side" }, ctx.sideName(side)), el("b", {}, String(score)),
        obs.tricks_won && ctx.kind === "play" ? el("small", {}, ` ${obs.tricks_won[side]} tr`) : null)));
    const contract = rules.contract(obs, ctx);
    const extra = rules.extraScores ? rules.extraScores(obs, ctx) : null;
    const lastShown = this.ui.get("lastTrick");
    return el("header", { class: "table-bar" },
      el("div", { class: "title" }, el("h2", {}, t.title || obs.game), el("span", { class: "mode" }, mode),
        el("span", { class: "deal" }, `Hand ${obs.hand_index + 1}`)),
      el("div", { id: "contract", class: "contract" }, trumpLine(obs), contract || ""),
      scores,
      extra ? el("div", { class: "extra-scores" }, extra) : null,
      el("div", { class: "bar-buttons" },
        el("button", { type: "button", id: "last-trick-button", class: "nav", "aria-pressed": lastShown ? "true" : "false",
          disabled: !this.previousTrick(), onclick: () => this.toggle("lastTrick") }, lastShown ? "Hide last trick" : "Last trick"),
        el("a", { href: "#/", class: "nav button-link" }, "Leave")));
  }

  felt(ctx) {
    const { obs, n, rules } = ctx;
    const felt = el("div", { class: `felt players-${n}`, id: "felt" });
    const active = new Set(obs.active_seats || [...Array(n).keys()]);
    const calls = this.lastCalls(ctx);
    for (let seat = 0; seat < n; seat++) {
      const [x, y] = this.position(ctx, seat, ctx.n > 4 ? 0.36 : 0.385, 0.40);
      const plate = el("div", {
        class: "seat" + (seat === ctx.me ? " me" : "") + (obs.to_act === seat ? " to-act" : "") + (active.has(seat) ? "" : " out"),
        "data-seat": seat, style: `left:${x}%;top:${y}%;order:${ctx.offset(seat)}`,
      },
      el("div", { class: "name" }, ctx.seatName(seat), el("small", {}, this.state.table.seating?.[seat] || "")),
      el("div", { class: "facts" },
        obs.dealer === seat ? el("span", { class: "badge dealer", title: "dealer" }, "D") : null,
        seat !== ctx.me ? el("span", { class: "count", title: "cards in hand" }, plural((obs.hand_sizes || [])[seat] ?? "?", "card")) : null,
        ctx.kind === "play" || (obs.tricks_won_by_seat || [])[seat] ? el("span", { class: "tricks", title: "tricks won" }, `${(obs.tricks_won_by_seat || [])[seat] ?? 0} tr`) : null,
        active.has(seat) ? null : el("span", { class: "badge" }, "sits out"),
        (obs.passed || []).includes(seat) && ctx.kind === "bid" && !obs.contract ? el("span", { class: "badge passed" }, "passed") : null),
      calls.has(seat) ? el("div", { class: "bubble" + (y < 35 ? " below" : "") }, calls.get(seat)) : null,
      exposedBy(obs) === seat && seat !== ctx.me
        ? el("div", { class: "exposed", role: "group", "aria-label": "the open misère hand" }, sortHand(ctx.rules.cards, obs.exposed, obs.trump).map((c) => cardText(c)))
        : null,
      obs.to_act === seat && seat !== ctx.me ? el("div", { class: "thinking" }, "…") : null);
      felt.appendChild(plate);
    }
    // The trick in play; between tricks, the one just finished (greyed) until the next lead.
    let cards = obs.trick || [];
    let done = false;
    if (!cards.length && obs.last_trick && ctx.kind === "play") {
      cards = obs.last_trick.cards;
      done = true;
    }
    const trick = el("div", { id: "trick", class: "trick" + (done ? " done" : ""), role: "group", "aria-label": done ? "the last trick" : "the trick in play" });
    const ledSuit = done ? obs.last_trick.led_suit : obs.led_suit;
    cards.forEach(([seat, card], index) => {
      const [x, y] = ctx.n > 4 ? this.position(ctx, seat, 0.27, 0.25) : this.position(ctx, seat, 0.16, 0.17);
      const face = cardFace(card);
      face.dataset.seat = seat;
      face.style.left = `${x}%`;
      face.style.top = `${y}%`;
      if (done && obs.last_trick.winner === seat) face.classList.add("winner");
      // The first card is the lead, marked; a led joker shows the suit it called for.
      const calls = index === 0 && parseCard(card)?.joker && SUIT_NAMES[ledSuit] ? ledSuit : null;
      if (index === 0) {
        face.classList.add("led");
        face.appendChild(el("span", { class: "led-mark", "aria-hidden": "true" }, "led", calls ? frag(" ", suitIcon(calls)) : ""));
      }
      const words = `${cardWords(card)}${calls ? `, calling ${SUIT_NAMES[calls]}` : ""}`;
      face.setAttribute("aria-label", `${ctx.seatName(seat)}${index === 0 ? " led" : ""}: ${words}`);
      face.title = words;
      trick.appendChild(face);
    });
    felt.appendChild(trick);
    const centre = rules.centre ? rules.centre(obs, ctx) : null;
    if (centre) felt.appendChild(centre);
    if (this.ui.get("lastTrick") && this.previousTrick()) felt.appendChild(this.lastTrick(ctx));
    return felt;
  }

  handEnd(ctx) {
    // A hand that ended while the person watched stays in a panel until they dismiss it (the game
    // goes on behind it; the sidebar keeps the summary).
    const hands = this.state.hands || [];
    const seen = this.ui.get("handsSeen") ?? this.seenHands ?? 0;
    if (this.state.result || hands.length <= seen) return null;
    return handEndPanel(ctx, hands[hands.length - 1], hands.length, () => {
      this.ui.set("handsSeen", hands.length);
      this.render();
      this.focusFirst();
    });
  }

  previousTrick() {
    // This hand's last finished trick; before the first trick of a hand, the previous hand's last.
    const s = this.state;
    const obs = s.observation;
    if (obs.last_trick) return obs.last_trick;
    if ((obs.tricks || []).length) return null;
    const hands = s.hands || [];
    const tricks = hands.length ? hands[hands.length - 1].tricks || [] : [];
    return tricks.length ? tricks[tricks.length - 1] : null;
  }

  lastTrick(ctx) {
    const t = this.previousTrick();
    return el("div", { id: "last-trick", class: "last-trick", role: "dialog", "aria-label": "last trick" },
      el("h3", {}, "Last trick"),
      el("ol", {}, t.cards.map(([seat, card]) => el("li", { class: seat === t.winner ? "winner" : "" },
        el("span", {}, ctx.seatName(seat), seat === (t.leader ?? t.cards[0][0]) ? " (led)" : ""), cardFace(card)))),
      el("p", {}, `Won by ${ctx.seatName(t.winner)}${typeof t.points === "number" ? ` (${t.points} points)` : ""}`),
      el("button", { type: "button", class: "nav", onclick: () => this.toggle("lastTrick") }, "Close"));
  }

  position(ctx, seat, rx, ry) {
    const k = ctx.offset(seat);
    const turn = (ctx.rules.clockwise ? 1 : -1) * (2 * Math.PI * k) / ctx.n;
    const angle = Math.PI / 2 + turn; // screen coordinates, y down: +angle goes clockwise
    return [50 + 100 * rx * Math.cos(angle), 50 + 100 * ry * Math.sin(angle)];
  }

  lastCalls(ctx) {
    // During the auction each seat's latest call shows in a bubble by its name.
    const calls = new Map();
    const obs = ctx.obs;
    if (ctx.kind === "play" || ctx.kind === "over") return calls;
    for (const [seat, action] of obs.history || []) {
      const label = ctx.rules.bubble(action, obs);
      if (label) calls.set(seat, label);
    }
    return calls;
  }

  typedLine(ctx) {
    if (!this.typed) return null;
    const exact = this.typedMatches().filter((m) => m.form === this.typed);
    return el("span", { id: "typed", class: "typed" }, `Typed “${this.typed}”`,
      exact.length === 1 ? `: Enter for ${actionWords(ctx, exact[0].action)}` : ": keep typing (Escape clears)");
  }

  typedMatches() {
    // The legal actions whose typed form begins with what was typed (no kitty picks: they are confirmed together).
    const s = this.state;
    if (!s || !s.your_turn || this.pending !== null) return [];
    const ctx = this.context();
    if (ctx.kind === "exchange" && this.discardCount(ctx) > 1) return [];
    return (s.legal_actions || []).flatMap((action) => typedForms(action).map((form) => ({ action, form })))
      .filter((m) => m.form.startsWith(this.typed));
  }

  type(key) {
    // Typing acts: "p" passes, "6h" bids six hearts, "10h" plays the ten of hearts; an action that
    // is also the start of another waits for Enter.
    this.typed += key.toLowerCase();
    const matches = this.typedMatches();
    const actions = new Set(matches.map((m) => m.action));
    const exact = matches.filter((m) => m.form === this.typed);
    if (!matches.length) {
      const typed = this.typed;
      this.typed = "";
      this.flash(`No move of yours now is typed “${typed}”.`);
      return;
    }
    if (actions.size === 1 && exact.length) {
      this.typed = "";
      this.send(exact[0].action);
    }
    this.render();
  }

  forcedLine(ctx) {
    // The person's latest move, if the server played it for them (their only legal move), until
    // they are next asked: nothing happens at the table unseen.
    const forced = this.state.forced;
    if (!forced || this.state.result) return null;
    const [verb, card] = forced.action.split(" ");
    const what = CARD_VERBS.has(verb) && parseCard(card) ? frag(verb === "play" ? "" : `${verb} `, cardText(card))
      : ctx.rules.label(forced.action, ctx, ctx.obs) || forced.action;
    return el("span", { id: "forced", class: "forced" }, "Played for you: ", what, ", your only legal move.");
  }

  lastHandLine(ctx) {
    // On a phone the summary panel is below the hand: its first line also shows here, until the
    // next hand's first trick.
    const hands = this.state.hands || [];
    if (!hands.length || hands.length <= (this.seenHands ?? 0) || (ctx.obs.tricks || []).length || this.state.result) return null;
    const [line] = ctx.rules.summary(hands[hands.length - 1], ctx) || [];
    return line ? el("span", { class: "last-hand" }, `Hand ${hands.length}: `, line) : null;
  }

  statusText(ctx) {
    const s = this.state;
    const { obs, rules } = ctx;
    if (s.result) return "The game is over.";
    if (s.your_turn) {
      if (this.pending !== null) return "Sending…";
      if (ctx.kind === "exchange" && this.discardCount(ctx) > 1) {
        const left = this.discardCount(ctx) - this.selected.size;
        return `You took the kitty: pick ${left > 0 ? `${left} more card${left > 1 ? "s" : ""}` : "no more cards"} to discard, then confirm`;
      }
      const only = (s.legal_actions || []).length === 1 ? " (your only legal move: confirm it)" : "";
      const prompt = rules.prompt(obs, s.legal_actions || [], ctx) + only;
      const left = typeof obs.time_left === "number" ? obs.time_left : null;
      return left !== null && left < 300 ? `${prompt} (${Math.max(0, Math.floor(left))} s left for this decision)` : prompt;
    }
    if (obs.to_act === null || obs.to_act === undefined) return "Waiting for the next deal…";
    return `Waiting for ${ctx.seatName(obs.to_act)}…`;
  }

  discardCount(ctx) {
    // Cards discarded at one go, confirmed together (the game says: a kitty exchange); else one at a time.
    const { obs } = ctx;
    if (ctx.kind !== "exchange") return 1;
    return Math.max(1, ctx.rules.discards(obs));
  }

  decisions(ctx) {
    const s = this.state;
    const { obs, rules } = ctx;
    const legal = s.your_turn ? s.legal_actions || [] : [];
    const hand = new Set(obs.hand || []);
    const cardActions = new Map(); // card -> its actions
    const leftovers = [];
    for (const action of legal) {
      const parts = action.split(" ");
      if (CARD_VERBS.has(parts[0]) && parts.length >= 2 && hand.has(parts[1]) && parseCard(parts[1])) {
        if (!cardActions.has(parts[1])) cardActions.set(parts[1], []);
        cardActions.get(parts[1]).push(action);
      } else {
        leftovers.push(action);
      }
    }
    const ui = { get: (k) => this.ui.get(k), set: (k, v) => (this.ui.set(k, v), this.render()) };
    const { rows, used } = rules.panel(obs, leftovers, ctx, ui);
    const box = el("div", { id: "decisions", class: "decisions", role: "group", "aria-label": "your decision", tabindex: "-1" });
    rows.filter(Boolean).forEach((r) => box.appendChild(r));
    // A card with several actions (the suitless joker led in no trumps): one button per choice.
    for (const [card, actions] of cardActions) {
      if (actions.length < 2) continue;
      const joker = card === "JK";
      box.appendChild(el("div", { class: "decision-row choose-card", id: joker ? "joker-suit" : null },
        el("span", { class: "row-title" }, joker ? "Lead the joker and call for:" : `${cardWords(card)}:`),
        actions.map((a) => {
          const named = a.split(" ")[2];
          return actButton(a, joker && named ? jokerCall(named) : a, {
            words: joker && named ? `joker, calling ${SUIT_NAMES[named] || named}` : a, extra: "suit-choice" });
        })));
    }
    // Anything no rule recognised is still offered, labelled with its action string.
    const rest = leftovers.filter((a) => !used.has(a));
    if (rest.length) {
      box.appendChild(el("div", { class: "decision-row other" }, el("span", { class: "row-title" }, "Other:"),
        rest.map((a) => actButton(a, a, { extra: "fallback" }))));
    }
    if (ctx.kind === "exchange" && s.your_turn && this.discardCount(ctx) > 1) {
      const need = this.discardCount(ctx);
      box.appendChild(el("div", { class: "decision-row" },
        el("button", { type: "button", id: "discard-confirm", class: "act confirm", disabled: this.selected.size !== need || this.pending !== null,
          onclick: () => this.confirmDiscard(ctx) }, `Discard these ${need}`)));
    }
    if (this.pending !== null) box.querySelectorAll("button").forEach((b) => (b.disabled = true));
    return { decisions: box, cardActions };
  }

  handView(ctx, cardActions) {
    const s = this.state;
    const { obs } = ctx;
    const cards = sortHand(ctx.rules.cards, obs.hand || [], obs.trump);
    const kitty = new Set(ctx.kind === "exchange" ? obs.kitty || [] : []);
    const discarding = ctx.kind === "exchange" && s.your_turn && this.discardCount(ctx) > 1;
    const cardTurn = s.your_turn && this.pending === null && cardActions.size > 0;
    const row = el("div", { id: "hand", class: "hand" + (cardTurn ? " active" : ""), role: "group", "aria-label": "your hand", tabindex: "-1" });
    cards.forEach((card, index) => {
      const actions = cardActions.get(card) || [];
      const button = cardFace(card, "button");
      button.type = "button";
      button.dataset.index = index;
      const key = `${card}#${index}`;
      if (kitty.has(card)) button.classList.add("from-kitty");
      if (actions.length && this.pending === null) {
        button.classList.add("legal");
        if (actions.length === 1) button.dataset.action = actions[0];
        else button.dataset.choices = actions.join("|");
        if (discarding) {
          const chosen = this.selected.has(key);
          button.classList.toggle("selected", chosen);
          button.setAttribute("aria-pressed", chosen ? "true" : "false");
          button.addEventListener("click", () => this.pick(ctx, key));
        } else if (actions.length === 1) {
          button.addEventListener("click", () => this.send(actions[0]));
        } else {
          button.addEventListener("click", () => {
            const first = this.root.querySelector("#decisions .choose-card [data-action]");
            if (first) first.focus();
          });
        }
        button.setAttribute("aria-label", actions.length === 1 ? cardWords(card) : `${cardWords(card)}, then choose the suit it calls for`);
      } else {
        // Not playable now: shown at full strength (a card you hold is always legible), flat on
        // the felt; on your turn to play a card, marked as not playable beside the raised legal ones.
        if (cardTurn) button.classList.add("unplayable");
        button.disabled = true;
      }
      row.appendChild(button);
    });
    return row;
  }

  pick(ctx, key) {
    if (this.selected.has(key)) this.selected.delete(key);
    else if (this.selected.size < this.discardCount(ctx)) this.selected.add(key);
    this.render();
  }

  confirmDiscard(ctx) {
    const actions = [...this.selected].map((key) => `discard ${key.split("#")[0]}`);
    if (actions.length !== this.discardCount(ctx)) return;
    this.selected.clear();
    this.queue = actions.slice(1);
    this.send(actions[0]);
  }

  sidebar(ctx) {
    const s = this.state;
    const side = el("aside", { class: "info" });
    const ui = { get: (k) => this.ui.get(k), set: (k, v) => this.ui.set(k, v) }; // no redraw: <details> keeps itself
    if (s.result) side.appendChild(finishedPanel(ctx, s.table, s.result, this.id));
    const hands = s.hands || [];
    if (hands.length) {
      const latest = hands[hands.length - 1];
      // Marked new from the end of a hand until the next hand's first trick is played.
      const fresh = hands.length > (this.seenHands ?? 0) && !(ctx.obs.tricks || []).length;
      side.appendChild(handSummary(ctx, latest, hands.length, fresh));
      if (hands.length > 1) side.appendChild(scoreSheet(ctx, hands, ui));
    }
    side.appendChild(dealLog(ctx, ui));
    return side;
  }

  // ------------------------------------------------------------------ keyboard and focus

  focusKey() {
    const a = document.activeElement;
    if (!a || !this.root.contains(a)) return null;
    return a.dataset.action || a.id || a.dataset.amount ? { action: a.dataset.action, id: a.id, amount: a.dataset.amount, index: a.dataset.index } : null;
  }

  restoreFocus(key) {
    if (!key) return;
    let target = null;
    if (key.id) target = this.root.querySelector(`#${CSS.escape(key.id)}`);
    else if (key.amount) target = this.root.querySelector(`[data-amount="${CSS.escape(key.amount)}"]`);
    else if (key.action) target = this.root.querySelector(`[data-action="${CSS.escape(key.action)}"]`);
    if (target && !target.disabled) target.focus({ preventScroll: true });
    else this.focusFirst();
  }

  focusFirst() {
    // A new turn focuses the decision's group, not a button in it, so a stray Enter acts on
    // nothing: the arrow keys (or Tab) reach the buttons, and typing names an action.
    const legal = this.root.querySelector("#decisions .legal, #hand .legal");
    const first = this.root.querySelector("#hand-end-close") || (legal && legal.closest("#decisions, #hand"));
    if (first) first.focus({ preventScroll: true });
  }

  key(event) {
    if (!this.state || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")) return;
    if (this.root.querySelector("#hand-end")) return; // the hand-end panel has the keyboard (Enter, Escape)
    const typing = event.key.length === 1 && /[0-9a-z+]/i.test(event.key);
    if (typing && (this.typed || this.typedMatchesOf(event.key.toLowerCase()))) {
      this.type(event.key);
      event.preventDefault();
      return;
    }
    if (this.typed && (event.key === "Enter" || event.key === "Escape" || event.key === "Backspace")) {
      const exact = this.typedMatches().filter((m) => m.form === this.typed);
      if (event.key === "Enter" && exact.length === 1) this.send(exact[0].action);
      this.typed = event.key === "Backspace" ? this.typed.slice(0, -1) : "";
      this.render();
      event.preventDefault();
      return;
    }
    if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(event.key)) {
      // Arrows move among the legal cards and buttons (Tab also works, Enter or Space acts).
      const items = [...this.root.querySelectorAll("#decisions button:not([disabled]), #hand button.legal:not([disabled])")];
      if (!items.length) return;
      const at = items.indexOf(document.activeElement);
      const step = event.key === "ArrowLeft" || event.key === "ArrowUp" ? -1 : 1;
      const next = at < 0 ? (step > 0 ? 0 : items.length - 1) : (at + step + items.length) % items.length;
      items[next].focus();
      event.preventDefault();
    } else if (event.key === "l" || event.key === "L") {
      this.toggleLast();
    } else if (event.key === "Escape" && this.ui.get("lastTrick")) {
      this.toggle("lastTrick");
    }
  }

  typedMatchesOf(text) {
    const kept = this.typed;
    this.typed = text;
    const any = this.typedMatches().length > 0;
    this.typed = kept;
    return any;
  }

  toggleLast() {
    if (this.previousTrick()) this.toggle("lastTrick");
  }

  toggle(name) {
    this.ui.set(name, !this.ui.get(name));
    this.render();
  }

  flash(text) {
    this.message = text;
    clearTimeout(this.messageTimer);
    this.messageTimer = setTimeout(() => {
      this.message = null;
      this.render();
    }, 6000);
    this.render();
  }

  setConnection(text, final = false) {
    this.connection = text;
    if (!this.state) {
      clear(this.root).appendChild(el("div", { class: final ? "error" : "loading", id: "connection", role: final ? "alert" : "status" },
        el("p", {}, text || "Connected, waiting for the table…"), final ? el("p", {}, el("a", { href: "#/" }, "Back to the start")) : null));
    } else {
      this.render();
    }
  }
}

/** The ways to type `action` on the keyboard: its words after the verb, without spaces, in lower
 * case ("bid 6H" -> "6h", "play 10H" -> "10h", "bid 28 noes" -> "28noes"); a one-word action is
 * itself, and "pass" is also "p". */
export function typedForms(action) {
  const words = action.toLowerCase().split(" ");
  if (words.length === 1) return action === "pass" ? ["p", "pass"] : [words[0]];
  return [words.slice(1).join("")];
}

/** An action in words, for the live region: cards by name, other actions as the game words them. */
function actionWords(ctx, action) {
  const [verb, card, named] = action.split(" ");
  if (CARD_VERBS.has(verb) && parseCard(card)) {
    return `${verb === "play" ? "" : `${verb} `}${cardWords(card)}${named && SUIT_NAMES[named] ? `, calling ${SUIT_NAMES[named]}` : ""}`;
  }
  const words = ctx.rules.words(action, ctx.obs);
  if (words && words !== action) return words;
  const label = ctx.rules.label(action, ctx, ctx.obs);
  return typeof label === "string" ? label : action;
}

/** "1 card", "2 cards" ("? cards" when unknown). */
export function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function trumpLine(obs) {
  if (!obs.trump) return null;
  const s = obs.trump;
  return el("span", { class: "trump" }, "Trumps: ", s === "NT" ? "none" : suitName(s), " · ");
}

function suitName(s) {
  return el("span", { class: "suit-name" }, suitIcon(s), ` ${SUIT_NAMES[s] || s}`);
}

function jokerCall(suit) {
  return frag("JK: ", suitName(suit));
}

function exposedBy(obs) {
  // Five Hundred's open misère: the contractor's cards are public after the first trick.
  return Array.isArray(obs.exposed) && obs.exposed.length && obs.contract ? obs.contract.contractor : null;
}
