// The table: one WebSocket to the server, and everything drawn from the latest `state` message only
// (protocol: docs/web.md), so a reload or a reconnect shows exactly what the server holds.

import { el, clear, frag, append } from "./dom.js";
import { cardFace, cardText, sortHand, parseCard, cardWords, suitIcon, SUIT_NAMES } from "./cards.js";
import { rulesOf, loadRules, actButton, games, gameTitle, botName, rulesText } from "./games.js";
import { t, tn, serverText } from "./i18n.js";
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
const COMPASS_CLOCKWISE = ["S", "W", "N", "E"]; // seat+1 sits on your left (catalogue keys seat.S ...)
const COMPASS_ANTICLOCKWISE = ["S", "E", "N", "W"]; // seat+1 sits on your right

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
      const greyed = event.target.closest("#decisions [aria-disabled=true][data-reason]");
      if (greyed) this.explain(greyed.dataset.reason);
    };
    root.addEventListener("click", this.onClick);
    // A greyed action says why it cannot be taken now, on a tap, a click or the focus (touch has no hover).
    this.why = null;
    this.onFocus = (event) => {
      const greyed = event.target && event.target.closest && event.target.closest("[aria-disabled=true][data-reason]");
      if (greyed && this.root.contains(greyed)) this.explain(greyed.dataset.reason, false);
    };
    document.addEventListener("focusin", this.onFocus);
    clear(root).appendChild(el("p", { class: "loading" }, t("table.connecting")));
  }

  close() {
    this.closed = true;
    clearTimeout(this.heldTimer);
    document.removeEventListener("keydown", this.onKey);
    document.removeEventListener("focusin", this.onFocus);
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
        this.setConnection(t("table.refused", { reason: this.lastError || event.reason || `code ${event.code}` }), true);
        return;
      }
      const wait = Math.min(5000, 300 * 2 ** this.retry++);
      this.setConnection(t("table.reconnecting", { seconds: Math.round(wait / 100) / 10 }));
      setTimeout(() => this.connect(), wait);
    };
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      this.flash(t("table.unreadable", { text: String(text).slice(0, 80) }));
      return;
    }
    if (msg.type === "error") {
      this.lastError = msg.message;
      this.pending = null;
      this.queue = [];
      this.flash(serverText(msg, t("table.server_refused")));
      this.render();
      return;
    }
    if (msg.type === "notice") {  // e.g. the person's bots wait for their share of the server's time
      this.flash(serverText(msg));
      return;
    }
    if (msg.type !== "state") return;
    // The game's presentation (and its page module) is loaded once, before its first state is drawn;
    // states keep their order behind the one promise.
    if (!this.ready) {
      this.ready = Promise.all([loadRules(msg.observation.game), games().then((list) => (this.game = list.get(msg.observation.game)))])
        .catch((error) => this.flash(t("table.module_failed", { error: error.message })));
    }
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
    if (!before || before.decision !== msg.decision) {
      this.typed = "";
      this.why = null;
    }
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
      this.flash(t("table.not_legal", { action }));
      return;
    }
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
      this.flash(t("table.not_connected"));
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
      if (seat === me) return t("seat.you");
      if (n === 4) return t(`seat.${compass[offset(seat)]}`);
      return t("seat.n", { n: seat });
    };
    const sideName = (side) => {
      const seats = [...Array(n).keys()].filter((seat) => sideOf(seat) === side);
      const you = t("seat.you");
      const names = seats.map(seatName);
      return (names.includes(you) ? [you, ...names.filter((x) => x !== you)] : names).join(t("side.and"));
    };
    // the phase's kind (bid, exchange, play, over: docs/game-interface.md, "Phases"), not its word
    const kind = rules.phaseKind(obs.phase);
    return { obs, n, me, rules, kind, sideOf, offset, seatName, sideName, numSides, options: s.table.options || {}, lines: s.lines || {}, t, gt: rules.gt };
  }

  // ------------------------------------------------------------------ drawing

  render() {
    const s = this.state;
    if (!s) return;
    const focus = this.focusKey();
    const ctx = this.context();
    const { obs, rules } = ctx;
    const title = gameTitle(this.game) || s.table.title || obs.game;
    document.title = t(s.your_turn ? "title.table_turn" : "title.table_game", { game: title });
    const view = el("section", { id: "table", class: `table-view game-${obs.game}`, "data-phase": obs.phase,
      "data-phase-kind": ctx.kind,
      "data-decision": s.decision, "data-your-turn": s.your_turn ? "true" : "false" });
    append(view, [
      this.bar(ctx),
      this.felt(ctx),
      el("div", { id: "status", class: "status" + (s.your_turn ? " your-turn" : ""), "aria-live": "polite" }, this.statusText(ctx),
        this.why ? el("span", { id: "why", class: "why" }, this.why) : null,
        this.typedLine(ctx), this.forcedLine(ctx), this.lastHandLine(ctx)),
      this.message ? el("div", { id: "message", class: "message", role: "alert" }, this.message) : null,
      this.connection ? el("div", { id: "connection", class: "connection", role: "status" }, this.connection) : null,
    ]);
    const { decisions, cardActions } = this.decisions(ctx);
    // A decision panel (an auction, a choice) sits beside the table on a wide screen, and on a
    // narrow one the table shrinks to a strip of seats above it: the hand stays in view under it.
    if (decisions.childElementCount) view.classList.add("with-panel");
    append(view, [decisions, this.handView(ctx, cardActions), this.sidebar(ctx), this.handEnd(ctx), this.rulesPanel(ctx)]);
    clear(this.root).appendChild(view);
    followLog(this.root, ctx, this.ui);
    this.restoreFocus(focus);
    const close = this.root.querySelector("#hand-end-close"); // a modal panel holds the focus
    if (close && !close.closest("#hand-end").contains(document.activeElement)) close.focus({ preventScroll: true });
  }

  bar(ctx) {
    const s = this.state;
    const tb = s.table;
    const { obs, rules } = ctx;
    const mode = tb.daily ? t(tb.ranked === false ? "daily.deal_of_unranked" : "daily.deal_of", { deal: tb.daily.deal + 1, deals: tb.daily.deals, date: tb.date || "" })
      : tb.mode === "daily" ? t(tb.ranked === false ? "table.daily_unranked" : "table.daily", { date: tb.date || "" }) : t("table.new_game");
    const scores = el("ul", { id: "scores", class: "scores", "aria-label": t("table.scores") },
      (obs.scores || []).map((score, side) => el("li", { class: (ctx.sideOf(ctx.me) === side ? "ours" : "") + (score < 0 ? " negative" : ""), "data-side": side },
        el("span", { class: "side" }, ctx.sideName(side)), el("b", {}, String(score)),
        obs.tricks_won && ctx.kind === "play" ? el("small", {}, " ", t("table.tricks_short", { n: obs.tricks_won[side] })) : null)));
    const contract = rules.contract(obs, ctx);
    const extra = rules.extraScores ? rules.extraScores(obs, ctx) : null;
    const lastShown = this.ui.get("lastTrick");
    return el("header", { class: "table-bar" },
      el("div", { class: "title" }, el("h2", {}, gameTitle(this.game) || tb.title || obs.game), el("span", { class: "mode" }, mode),
        el("span", { class: "deal" }, t("table.hand", { n: obs.hand_index + 1 }))),
      el("div", { id: "contract", class: "contract" }, trumpLine(obs), contract || ""),
      scores,
      extra ? el("div", { class: "extra-scores" }, extra) : null,
      el("div", { class: "bar-buttons" },
        el("button", { type: "button", id: "last-trick-button", class: "nav", "aria-pressed": lastShown ? "true" : "false",
          "aria-disabled": this.previousTrick() ? null : "true", "data-reason": this.previousTrick() ? null : t("why.no_last_trick"),
          onclick: () => (this.previousTrick() ? this.toggle("lastTrick") : this.explain(t("why.no_last_trick"))) },
        lastShown ? t("table.hide_last_trick") : t("table.last_trick")),
        el("button", { type: "button", id: "rules-button", class: "nav", "aria-pressed": this.ui.get("rules") ? "true" : "false",
          onclick: () => this.toggle("rules") }, t("table.rules")),
        el("a", { href: "#/", class: "nav button-link" }, t("table.leave"))));
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
      el("div", { class: "name" }, ctx.seatName(seat), el("small", {}, this.seatedBy(seat))),
      el("div", { class: "facts" },
        obs.dealer === seat ? el("span", { class: "badge dealer", title: t("seat.dealer") }, t("seat.dealer_mark")) : null,
        seat !== ctx.me ? el("span", { class: "count", title: t("seat.cards_in_hand") }, plural((obs.hand_sizes || [])[seat] ?? "?", "card")) : null,
        ctx.kind === "play" || (obs.tricks_won_by_seat || [])[seat] ? el("span", { class: "tricks", title: t("seat.tricks_won") }, t("table.tricks_short", { n: (obs.tricks_won_by_seat || [])[seat] ?? 0 })) : null,
        active.has(seat) ? null : el("span", { class: "badge" }, t("seat.sits_out")),
        (obs.passed || []).includes(seat) && ctx.kind === "bid" && !obs.contract ? el("span", { class: "badge passed" }, t("seat.passed")) : null),
      calls.has(seat) ? el("div", { class: "bubble" + (y < 35 ? " below" : "") }, calls.get(seat)) : null,
      exposedBy(obs) === seat && seat !== ctx.me
        ? el("div", { class: "exposed", role: "group", "aria-label": t("table.exposed") }, sortHand(ctx.rules.cards, obs.exposed, obs.trump).map((c) => cardText(c)))
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
    const trick = el("div", { id: "trick", class: "trick" + (done ? " done" : ""), role: "group", "aria-label": done ? t("table.trick_done") : t("table.trick_in_play") });
    const ledSuit = done ? obs.last_trick.led_suit : obs.led_suit;
    // A card new since the last render moves in from its player's seat (CSS: not under
    // prefers-reduced-motion); one seen before stays still, however often the table re-renders.
    const trickKey = `${obs.hand_index}:${(obs.tricks || []).length - (done ? 1 : 0)}`;
    const seen = this.trickSeen && this.trickSeen.key === trickKey ? this.trickSeen.cards : new Set();
    this.trickSeen = { key: trickKey, cards: new Set(cards.map(([seat, card]) => `${seat}:${card}`)) };
    cards.forEach(([seat, card], index) => {
      const [x, y] = ctx.n > 4 ? this.position(ctx, seat, 0.27, 0.25) : this.position(ctx, seat, 0.16, 0.17);
      const face = cardFace(card);
      face.dataset.seat = seat;
      face.style.left = `${x}%`;
      face.style.top = `${y}%`;
      if (!done && !seen.has(`${seat}:${card}`)) {
        const [fromX, fromY] = this.position(ctx, seat, ctx.n > 4 ? 0.36 : 0.385, 0.40);
        face.classList.add("arriving");
        face.style.setProperty("--from-left", `${fromX}%`);
        face.style.setProperty("--from-top", `${fromY}%`);
      }
      if (done && obs.last_trick.winner === seat) face.classList.add("winner");
      // The first card is the lead, marked; a led joker shows the suit it called for.
      const calls = index === 0 && parseCard(card)?.joker && SUIT_NAMES[ledSuit] ? ledSuit : null;
      if (index === 0) {
        face.classList.add("led");
        face.appendChild(el("span", { class: "led-mark", "aria-hidden": "true" }, t("trick.led_mark"), calls ? frag(" ", suitIcon(calls)) : ""));
      }
      const words = calls ? t("card.calling", { card: cardWords(card), suit: SUIT_NAMES[calls] }) : cardWords(card);
      face.setAttribute("aria-label", t(index === 0 ? "trick.seat_led" : "trick.seat_played", { seat: ctx.seatName(seat), card: words }));
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
    const tr = this.previousTrick();
    return el("div", { id: "last-trick", class: "last-trick", role: "dialog", "aria-label": t("table.last_trick") },
      el("h3", {}, t("table.last_trick")),
      el("ol", {}, tr.cards.map(([seat, card]) => el("li", { class: seat === tr.winner ? "winner" : "" },
        el("span", {}, seat === (tr.leader ?? tr.cards[0][0]) ? t("trick.who_led", { seat: ctx.seatName(seat) }) : ctx.seatName(seat)), cardFace(card)))),
      el("p", {}, typeof tr.points === "number" ? t("trick.won_by_points", { seat: ctx.seatName(tr.winner), points: tr.points })
        : t("trick.won_by", { seat: ctx.seatName(tr.winner) })),
      el("button", { type: "button", class: "nav", onclick: () => this.toggle("lastTrick") }, t("common.close")));
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
    return el("span", { id: "typed", class: "typed" }, exact.length === 1
      ? t("typed.enter_for", { typed: this.typed, action: actionWords(ctx, exact[0].action) }) : t("typed.keep_typing", { typed: this.typed }));
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
      this.flash(t("typed.no_move", { typed }));
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
    const what = CARD_VERBS.has(verb) && parseCard(card) ? frag(verb === "play" ? "" : `${t(`verb.${verb}`)} `, cardText(card))
      : ctx.rules.label(forced.action, ctx, ctx.obs) || forced.action;
    return el("span", { id: "forced", class: "forced" }, t("forced.before"), what, t("forced.after"));
  }

  lastHandLine(ctx) {
    // On a phone the summary panel is below the hand: its first line also shows here, until the
    // next hand's first trick.
    const hands = this.state.hands || [];
    if (!hands.length || hands.length <= (this.seenHands ?? 0) || (ctx.obs.tricks || []).length || this.state.result) return null;
    const [line] = ctx.rules.summary(hands[hands.length - 1], ctx) || [];
    return line ? el("span", { class: "last-hand" }, t("table.hand_colon", { n: hands.length }), line) : null;
  }

  statusText(ctx) {
    const s = this.state;
    const { obs, rules } = ctx;
    if (s.result) return t("status.over");
    if (s.your_turn) {
      if (this.pending !== null) return t("status.sending");
      if (ctx.kind === "exchange" && this.discardCount(ctx) > 1) {
        const left = this.discardCount(ctx) - this.selected.size;
        return left > 0 ? tn("status.pick_discards", left) : t("status.pick_no_more");
      }
      const only = (s.legal_actions || []).length === 1 ? t("status.only_move") : "";
      const prompt = rules.prompt(obs, s.legal_actions || [], ctx) + only;
      const left = typeof obs.time_left === "number" ? obs.time_left : null;
      return left !== null && left < 300 ? t("status.time_left", { prompt, seconds: Math.max(0, Math.floor(left)) }) : prompt;
    }
    if (obs.to_act === null || obs.to_act === undefined) return t("status.next_deal");
    return t("status.waiting_for", { seat: ctx.seatName(obs.to_act) });
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
    const box = el("div", { id: "decisions", class: "decisions", role: "group", "aria-label": t("table.your_decision"), tabindex: "-1" });
    rows.filter(Boolean).forEach((r) => box.appendChild(r));
    // A card with several actions (the suitless joker led in no trumps): one button per choice.
    for (const [card, actions] of cardActions) {
      if (actions.length < 2) continue;
      const joker = card === "JK";
      box.appendChild(el("div", { class: "decision-row choose-card", id: joker ? "joker-suit" : null },
        el("span", { class: "row-title" }, joker ? t("joker.lead_calling") : t("common.colon", { text: cardWords(card) })),
        actions.map((a) => {
          const named = a.split(" ")[2];
          return actButton(a, joker && named ? jokerCall(named) : a, {
            words: joker && named ? t("card.calling", { card: t("card.joker"), suit: SUIT_NAMES[named] || named }) : a, extra: "suit-choice" });
        })));
    }
    // Anything no rule recognised is still offered, labelled with its action string.
    const rest = leftovers.filter((a) => !used.has(a));
    if (rest.length) {
      box.appendChild(el("div", { class: "decision-row other" }, el("span", { class: "row-title" }, t("table.other")),
        rest.map((a) => actButton(a, a, { extra: "fallback" }))));
    }
    if (ctx.kind === "exchange" && s.your_turn && this.discardCount(ctx) > 1) {
      const need = this.discardCount(ctx);
      box.appendChild(el("div", { class: "decision-row" },
        el("button", { type: "button", id: "discard-confirm", class: "act confirm", disabled: this.pending !== null,
          "aria-disabled": this.selected.size !== need ? "true" : null,
          "data-reason": this.selected.size !== need ? tn("why.pick_discards", need - this.selected.size) : null,
          onclick: () => (this.selected.size === need ? this.confirmDiscard(ctx) : this.explain(tn("why.pick_discards", need - this.selected.size))) },
        t("table.discard_these", { n: need }))));
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
    const row = el("div", { id: "hand", class: "hand" + (cardTurn ? " active" : ""), role: "group", "aria-label": t("table.your_hand"), tabindex: "-1" });
    cards.forEach((card, index) => {
      const actions = cardActions.get(card) || [];
      const button = cardFace(card, "button");
      button.type = "button";
      button.dataset.index = index;
      const key = `${card}#${index}`;
      if (kitty.has(card)) {
        button.classList.add("from-kitty");
        button.dataset.mark = t("table.kitty_mark"); // drawn by the style sheet (content: attr(data-mark))
      }
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
        button.setAttribute("aria-label", actions.length === 1 ? cardWords(card) : t("joker.then_choose", { card: cardWords(card) }));
      } else {
        // Not playable now: shown at full strength (a card you hold is always legible), flat on
        // the felt; on your turn to play a card, marked as not playable beside the raised legal ones.
        // It says why when tapped or focused (#why: a title alone does not show on touch).
        if (cardTurn) {
          const reason = this.cardReason(ctx, card, cardActions);
          button.classList.add("unplayable");
          button.setAttribute("aria-disabled", "true");
          button.dataset.reason = reason;
          button.title = `${cardWords(card)}: ${reason}`;
          button.addEventListener("click", () => this.explain(reason));
        } else {
          button.disabled = true;
        }
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
      // (greyed ones are left to Tab, which says why they are greyed)
      const items = [...this.root.querySelectorAll("#decisions button:not([disabled]):not([aria-disabled=true]), #hand button.legal:not([disabled])")];
      if (!items.length) return;
      const at = items.indexOf(document.activeElement);
      const step = event.key === "ArrowLeft" || event.key === "ArrowUp" ? -1 : 1;
      const next = at < 0 ? (step > 0 ? 0 : items.length - 1) : (at + step + items.length) % items.length;
      items[next].focus();
      event.preventDefault();
    } else if (event.key === "l" || event.key === "L") {
      this.toggleLast();
    } else if (event.key === "Escape" && this.ui.get("rules")) {
      this.toggle("rules");
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
    if (name === "rules") {
      const target = this.root.querySelector(this.ui.get("rules") ? "#rules-close" : "#rules-button");
      if (target) target.focus({ preventScroll: true });
    }
  }

  explain(reason, redraw = true) {
    // Why a greyed action cannot be taken now, shown under the prompt until the next move.
    this.why = reason;
    this.whyDecision = this.state ? this.state.decision : null;
    if (redraw) this.render();
    else {
      const shown = this.root.querySelector("#why");
      if (shown) shown.textContent = reason;
      else this.render();
    }
  }

  cardReason(ctx, card, cardActions) {
    // Why a card may not be played now: the game says (its module's reason()), else: follow suit.
    const rules = ctx.rules;
    const own = rules.reason ? rules.reason(`play ${card}`, ctx.obs, ctx) : null;
    if (own) return own;
    const led = ctx.obs.led_suit || (ctx.obs.trick && ctx.obs.trick.length ? parseCard(ctx.obs.trick[0][1])?.suit : null);
    if (led && SUIT_NAMES[led]) return t("why.follow_suit", { suit: SUIT_NAMES[led] });
    return t("why.card_not_now");
  }

  seatedBy(seat) {
    // Who sits there: you (your nickname), or the bot's plain name and strength ("Steady (medium)").
    const tb = this.state.table;
    if (seat === tb.seat) return tb.nickname ? t("seat.you_named", { name: tb.nickname }) : t("seat.you_lower");
    const bot = (tb.bots || [])[seat] ?? (tb.seating || [])[seat];
    return bot ? botName(this.game, bot) : "";
  }

  rulesPanel(ctx) {
    // The game's rules for players (its package's rules text, in the page's language), over the
    // table while play goes on; the Rules button or Escape closes it.
    if (!this.ui.get("rules")) return null;
    return el("section", { id: "rules-panel", class: "panel rules-panel", role: "dialog", "aria-labelledby": "rules-title",
      onkeydown: (e) => e.key === "Escape" && this.toggle("rules") },
    el("h2", { id: "rules-title" }, t("rules.title", { game: gameTitle(this.game) || ctx.obs.game })),
    el("div", { class: "rules-text" }, rulesText(this.game)),
    el("button", { type: "button", id: "rules-close", class: "nav", onclick: () => this.toggle("rules") }, t("common.close")));
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
        el("p", {}, text || t("table.waiting_table")), final ? el("p", {}, el("a", { href: "#/" }, t("nav.back_to_start"))) : null));
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
    const words = named && SUIT_NAMES[named] ? t("card.calling", { card: cardWords(card), suit: SUIT_NAMES[named] }) : cardWords(card);
    return verb === "play" ? words : t(`verb.${verb}.card`, { card: words });
  }
  const words = ctx.rules.words(action, ctx.obs);
  if (words && words !== action) return words;
  const label = ctx.rules.label(action, ctx, ctx.obs);
  return typeof label === "string" ? label : action;
}

/** "1 card", "2 cards" ("? cards" when unknown), from the catalogue's `<word>s.one` and `.other`. */
export function plural(n, word) {
  return tn(`count.${word}`, n);
}

function trumpLine(obs) {
  if (!obs.trump) return null;
  const s = obs.trump;
  return el("span", { class: "trump" }, t("bar.trumps"), s === "NT" ? t("bar.no_trumps") : suitName(s), " · ");
}

function suitName(s) {
  return el("span", { class: "suit-name" }, suitIcon(s), ` ${SUIT_NAMES[s] || s}`);
}

function jokerCall(suit) {
  return frag(t("joker.short"), suitName(suit));
}

function exposedBy(obs) {
  // Five Hundred's open misère: the contractor's cards are public after the first trick.
  return Array.isArray(obs.exposed) && obs.exposed.length && obs.contract ? obs.contract.contractor : null;
}
