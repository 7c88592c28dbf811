"""The HTML replay viewer: one self-contained page per game (inline CSS and script, the record and
its precomputed frames embedded as JSON; no network). The frames are computed here, in Python, by
:func:`arena.replays.walk.walk` (the engine replays the record), so every game works; the page only
displays them, one step at a time: buttons, and the keys ← → (action), ↑ ↓ (hand), Home, End."""

from __future__ import annotations

import html
import json
from typing import Any

from arena.replays.walk import Walk


def page_data(walk: Walk) -> dict[str, Any]:
    game = walk.game
    seats = list(walk.record.get("seats") or [f"seat{i}" for i in range(game.players)])
    return {
        "game": game.name,
        "title": game.title,
        "seats": seats,
        "side_of": [game.side_of(s) for s in range(game.players)],
        "sides": [game.side_name(side) for side in range(game.num_sides)],
        "hands": len(walk.hands),
        "undealt": [{"name": v.undealt_name, "cards": v.undealt} for v in walk.hands],
        "frames": walk.frames,
        "result": walk.result,
        "termination": walk.record.get("termination"),
        "record": walk.record,
    }


def _embed(data: Any) -> str:
    """JSON safe inside a <script> element: no ``<`` at all (``</script>`` cannot end it early)."""
    return json.dumps(data, separators=(",", ":")).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def html_page(walk: Walk, title: str | None = None, back: tuple[str, str] | None = None) -> str:
    """The viewer page for ``walk``. ``back`` is an optional (link, text), e.g. to the board."""
    e = html.escape
    heading = title or f"{walk.game.title}: {', '.join(walk.record.get('seats') or [])}"
    back_link = f'<p><a id="back" href="{e(back[0])}">{e(back[1])}</a></p>' if back else ""
    return (_PAGE.replace("@TITLE@", e(heading)).replace("@BACK@", back_link)
            .replace("@DATA@", _embed(page_data(walk))))


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>@TITLE@ – Trick Arena replay</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
#controls button { font-size: 1em; margin-right: 0.3em; padding: 0.3em 0.7em; }
#position { margin-left: 1em; font-weight: 600; }
#note { margin: 0.8em 0; padding: 0.4em 0.6em; background: #f5f5e8; border-left: 4px solid #bb9; min-height: 1.3em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
.card { display: inline-block; min-width: 2.2em; padding: 0.1em 0.25em; margin: 0.1em; border: 1px solid #999;
        border-radius: 4px; background: #fff; text-align: center; font-weight: 600; }
.red { color: #c00; }
.joker { color: #070; }
.played { outline: 2px solid #36c; }
.winner { background: #ffd; outline: 2px solid #c90; }
tr.to-act th { background: #dfe9ff; }
.grid { display: flex; gap: 2em; flex-wrap: wrap; }
.small { color: #666; font-size: 0.9em; }
</style></head>
<body>
@BACK@
<h1>@TITLE@</h1>
<p class="small">Every seat's cards are shown: a replay is for reading a game afterwards.
Keys: ← → one action, ↑ ↓ one hand, Home / End the first / last step.
<a id="record-link" download="record.json" href="#">The record (JSON)</a></p>
<div id="controls">
<button id="first" title="Home">« first</button><button id="prev-hand" title="↑">‹‹ hand</button><button id="prev" title="←">‹ back</button><button id="next" title="→">next ›</button><button id="next-hand" title="↓">hand ››</button><button id="last" title="End">last »</button>
<span id="position"></span>
</div>
<div id="note"></div>
<div class="grid">
<div><h2>Hands</h2><table id="hands"></table><p id="undealt" class="small"></p></div>
<div><h2>Trick</h2><table id="trick"></table>
<h2>Score</h2><table id="scores"></table><p id="contract"></p></div>
<div><h2>Auction</h2><table id="auction"></table><p id="after-auction"></p></div>
</div>
<script type="application/json" id="replay-data">@DATA@</script>
<script>
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var frames = data.frames, at = 0;
  var SUITS = {S: "\\u2660", C: "\\u2663", D: "\\u2666", H: "\\u2665"};
  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  }
  function card(text, extra) {
    var suit = text.slice(-1), node;
    if (text === "JK") { node = el("span", "Joker", "card joker"); }
    else if (SUITS[suit]) { node = el("span", text.slice(0, -1) + SUITS[suit], "card" + (suit === "D" || suit === "H" ? " red" : "")); }
    else { node = el("span", text, "card"); }
    node.setAttribute("data-card", text);
    if (extra) node.className += " " + extra;
    return node;
  }
  function seatName(s) { return "seat " + s + " " + data.seats[s]; }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }
  function show() {
    var f = frames[at];
    document.getElementById("position").textContent = "hand " + (f.hand + 1) + " of " + data.hands +
      " \\u00b7 " + (f.action < 0 ? "the deal" : "action " + (f.action + 1)) + " \\u00b7 step " + (at + 1) + " of " + frames.length;
    document.getElementById("note").textContent = f.note;
    var hands = clear(document.getElementById("hands"));
    f.hands.forEach(function (cards, s) {
      var row = el("tr"), head = el("th", seatName(s) + (s === f.dealer ? " (dealer)" : ""));
      if (s === f.to_act) { row.className = "to-act"; head.textContent += " \\u2190 to act"; }
      row.appendChild(head);
      row.appendChild(el("td", data.sides[data.side_of[s]], "small"));
      var cell = el("td");
      cards.forEach(function (c) { cell.appendChild(card(c)); });
      if (!cards.length) cell.textContent = "\\u2014";
      row.appendChild(cell); hands.appendChild(row);
    });
    var undealt = data.undealt[f.hand];
    document.getElementById("undealt").textContent = undealt && undealt.cards.length ?
      undealt.name + " at the deal: " + undealt.cards.join(" ") : "";
    var trick = clear(document.getElementById("trick"));
    if (!f.trick.length) trick.appendChild(el("tr")).appendChild(el("td", "no card on the table", "small"));
    f.trick.forEach(function (pair, i) {
      var row = el("tr");
      row.appendChild(el("th", seatName(pair[0])));
      var cell = el("td");
      var cls = pair[0] === f.winner ? "winner" : (i === f.trick.length - 1 && f.seat === pair[0] ? "played" : "");
      cell.appendChild(card(pair[1], cls));
      if (pair[0] === f.winner) cell.appendChild(el("span", " wins the trick"));
      row.appendChild(cell); trick.appendChild(row);
    });
    var scores = clear(document.getElementById("scores"));
    var head = el("tr"); head.appendChild(el("th", ""));
    data.sides.forEach(function (name) { head.appendChild(el("th", name)); });
    scores.appendChild(head);
    [["score", f.scores], ["tricks this hand", f.tricks_won]].forEach(function (line) {
      if (!line[1]) return;
      var row = el("tr"); row.appendChild(el("th", line[0]));
      line[1].forEach(function (v) { row.appendChild(el("td", String(v))); });
      scores.appendChild(row);
    });
    document.getElementById("contract").textContent = (f.contract ? "Contract: " + f.contract : "No contract yet") +
      (f.trump ? " \\u00b7 trump " + f.trump : "");
    var auction = clear(document.getElementById("auction"));
    // the first phase in which two or more seats act is the table; the others (a discard, a trump
    // call, a beg) are listed under it
    var segments = [], order = [], calls = [], rest = [];
    f.bidding.forEach(function (b) {
      if (!segments.length || segments[segments.length - 1][0][2] !== b[2]) segments.push([]);
      segments[segments.length - 1].push(b);
    });
    segments.forEach(function (seg) {
      var seats = seg.map(function (b) { return b[0]; }).filter(function (x, i, all) { return all.indexOf(x) === i; });
      if (!calls.length && seats.length >= 2) calls = seg; else rest = rest.concat(seg);
    });
    document.getElementById("after-auction").textContent = rest.map(function (b) {
      return b[2] + ": seat " + b[0] + " " + b[1]; }).join(", ");
    calls.forEach(function (b) { if (order.indexOf(b[0]) < 0) order.push(b[0]); });
    if (!calls.length) { auction.appendChild(el("tr")).appendChild(el("td", "no call yet", "small")); }
    else {
      var hr = el("tr"); order.forEach(function (s) { hr.appendChild(el("th", "seat " + s)); }); auction.appendChild(hr);
      var row = null, last = order.length;
      calls.forEach(function (b) {
        var col = order.indexOf(b[0]);
        if (!row || col <= last) { row = el("tr"); order.forEach(function () { row.appendChild(el("td", "")); }); auction.appendChild(row); }
        row.children[col].textContent = b[1]; last = col;
      });
    }
  }
  function go(i) { at = Math.max(0, Math.min(frames.length - 1, i)); show(); }
  function hand(step) {
    var h = frames[at].hand + step, i;
    if (step < 0 && frames[at].action >= 0) h = frames[at].hand;  // back to this hand's deal first
    for (i = 0; i < frames.length; i++) if (frames[i].hand === h) return go(i);
    go(step < 0 ? 0 : frames.length - 1);
  }
  document.getElementById("first").onclick = function () { go(0); };
  document.getElementById("last").onclick = function () { go(frames.length - 1); };
  document.getElementById("prev").onclick = function () { go(at - 1); };
  document.getElementById("next").onclick = function () { go(at + 1); };
  document.getElementById("prev-hand").onclick = function () { hand(-1); };
  document.getElementById("next-hand").onclick = function () { hand(1); };
  document.addEventListener("keydown", function (ev) {
    var keys = {ArrowRight: function () { go(at + 1); }, ArrowLeft: function () { go(at - 1); },
                ArrowDown: function () { hand(1); }, ArrowUp: function () { hand(-1); }, PageDown: function () { hand(1); },
                PageUp: function () { hand(-1); }, Home: function () { go(0); }, End: function () { go(frames.length - 1); }};
    if (keys[ev.key]) { keys[ev.key](); ev.preventDefault(); }
  });
  var blob = new Blob([JSON.stringify(data.record, null, 1)], {type: "application/json"});
  document.getElementById("record-link").href = URL.createObjectURL(blob);
  show();
})();
</script>
</body></html>
"""
