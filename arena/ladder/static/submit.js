// The submission page: register a name (the token is shown once and kept in this browser), submit
// a version of each kind (a file is read here and POSTed as base64 JSON to /api/ladder/bots), and
// the author's own view of their bots (/api/ladder/me), which updates on every change.

import { el, clear } from "/static/dom.js";
import { getJSON, postJSON, live, KIND_NAMES, when } from "./common.js";

const KEY = "arena-ladder-token";
const tokenInput = document.getElementById("token");
const mine = document.getElementById("my-bots");
tokenInput.value = localStorage.getItem(KEY) || "";

function show(id, text) {
  const node = document.getElementById(id);
  node.textContent = text || "";
  node.hidden = !text;
}

function setToken(token) {
  tokenInput.value = token;
  if (token) localStorage.setItem(KEY, token);
  else localStorage.removeItem(KEY);
  refreshMine();
}

tokenInput.addEventListener("change", () => setToken(tokenInput.value.trim()));
document.getElementById("forget").addEventListener("click", () => setToken(""));

document.getElementById("register-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  show("register-error", "");
  try {
    const made = await postJSON("/api/ladder/authors", { name: document.getElementById("author-name").value.trim() });
    document.getElementById("token-shown").textContent = made.token;
    document.getElementById("token-box").hidden = false;
    setToken(made.token);
  } catch (err) {
    show("register-error", err.message);
  }
});

// -- the kind's fields ---------------------------------------------------------------------------
const kind = () => document.querySelector("input[name=kind]:checked").value;
for (const radio of document.querySelectorAll("input[name=kind]")) {
  radio.addEventListener("change", () => {
    for (const k of ["python", "program", "grpc"]) document.querySelector(`.kind-${k}`).hidden = k !== kind();
  });
}

async function loadGames() {
  const board = await getJSON("/api/ladder/board");
  const games = [...new Set((board.ladders || []).map((l) => l.split("/")[0]))];
  const box = document.getElementById("games");
  for (const game of games) {
    box.appendChild(el("label", {}, el("input", { type: "checkbox", name: "games", value: game, checked: games.length === 1 }), ` ${game} `));
  }
  if (!games.length) box.appendChild(el("p", { class: "hint" }, "This ladder has no game configured."));
}

function base64Of(file) {
  // FileReader's data: URL is "data:<type>;base64,<content>": the part after the comma.
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^[^,]*,/, ""));
    reader.onerror = () => reject(new Error(`${file.name} cannot be read: ${reader.error}`));
    reader.readAsDataURL(file);
  });
}

async function request() {
  const body = { name: document.getElementById("bot-name").value.trim(), kind: kind(),
    games: [...document.querySelectorAll("input[name=games]:checked")].map((box) => box.value) };
  if (body.kind === "python") {
    const file = document.getElementById("python-file").files[0];
    if (!file) throw new Error("choose the bot's file (.py, .whl or .tar.gz)");
    body.filename = file.name;
    body.content_base64 = await base64Of(file);
    const bot = document.getElementById("python-bot").value.trim();
    if (bot) body.bot = bot;
  } else if (body.kind === "program") {
    const file = document.getElementById("program-file").files[0];
    if (!file) throw new Error("choose the program's archive (.tar.gz or .zip)");
    body.archive_base64 = await base64Of(file);
    body.command = document.getElementById("program-command").value.trim();
  } else {
    body.endpoint = document.getElementById("endpoint").value.trim();
  }
  return body;
}

document.getElementById("submit-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  show("submit-error", "");
  show("submit-result", "");
  const token = tokenInput.value.trim();
  if (!token) return show("submit-error", "register a name or give your token first");
  try {
    const version = await postJSON("/api/ladder/bots", await request(), token);
    show("submit-result", `${version.bot} v${version.number}: ${version.status}${version.reason ? `: ${version.reason}` : ""}`
      + (version.status === "validating" ? ` (${queued(version.queue)}; its status below updates by itself)` : ""));
    refreshMine();
  } catch (err) {
    show("submit-error", err.message);
  }
});

// A version's place in the ladder's install queue (0: being installed or validated now).
function queued(place) {
  if (place === 0) return "being installed and validated now";
  if (place > 0) return place === 1 ? "next in the install queue" : `${place - 1} ahead of it in the install queue`;
  return "waiting for its validation";
}

// -- the author's own view -------------------------------------------------------------------------
async function refreshMine() {
  const token = tokenInput.value.trim();
  if (!token) {
    clear(mine).appendChild(el("p", { class: "hint" }, "Give your token above to see them."));
    return;
  }
  let data;
  try {
    data = await getJSON("/api/ladder/me", token);
  } catch (err) {
    clear(mine).appendChild(el("p", { class: "error", role: "alert" }, err.message));
    return;
  }
  mine.dataset.author = data.author;
  mine.dataset.changes = String(data.changes);
  const rows = data.versions.map((v) => el("tr", { class: `status-${v.status}`, "data-bot": v.bot, "data-version": v.version, "data-status": v.status },
    el("td", {}, el("a", { href: v.url }, v.bot)), el("td", {}, `v${v.version}`), el("td", {}, KIND_NAMES[v.kind] || v.kind),
    el("td", {}, v.games.join(", ")), el("td", { class: "status" }, v.status === "validating" ? `${v.status}: ${queued(v.queue)}` : v.status), el("td", { class: "reason" }, v.reason || ""),
    el("td", {}, when(v.created)),
    el("td", {}, ["active", "probation", "validating"].includes(v.status)
      ? el("button", { type: "button", class: "nav retire", onclick: () => retire(v.bot) }, "Retire") : "")));
  clear(mine).append(el("p", {}, `Signed in as ${data.author}.`),
    rows.length ? el("table", { class: "leaderboard" }, el("thead", {}, el("tr", {},
      ["Bot", "Version", "Kind", "Games", "Status", "Why", "Submitted", ""].map((h) => el("th", {}, h)))), el("tbody", {}, rows))
      : el("p", { class: "hint" }, "No bot yet."));
}

async function retire(bot) {
  if (!confirm(`Retire ${bot}? Every version of it stops playing; its history stays.`)) return;
  try {
    await postJSON(`/api/ladder/bots/${encodeURIComponent(bot)}/retire`, {}, tokenInput.value.trim());
  } catch (err) {
    show("submit-error", err.message);
  }
  refreshMine();
}

loadGames().catch((err) => show("submit-error", err.message));
live(refreshMine, () => {}, 1000);
