// The page's words: one message catalogue per language (arena/web/static/lang/<code>.json, flat
// {key: text} with {name} placeholders), the language chosen from the browser's languages or the
// picker (kept in this browser), and each game's own words (its package's text, served in
// /api/games as page.text: docs/game-interface.md, "The page"). Every string the page shows goes
// through t() (or a game's gt()); a key missing in a language falls back to English, then to the key.
// Keys are namespaced by where they are used ("start.", "table.", "board."...): another module's own
// English strings fold in as one more namespace in every catalogue (its {name}s kept), its calls
// becoming t("<namespace>.<key>", params); tests/test_web_languages.py then checks them in each language.

export const LANGUAGES = { en: "English", hi: "हिन्दी", gu: "ગુજરાતી" }; // each in its own script
export const LANG_KEY = "trick-arena-lang";

const catalogues = {}; // code -> {key: text}
const games = {}; // game name -> {code: {key: text}}
let current = "en";

/** The language to show: the one picked on this page before, else the browser's first we have. */
export function preferred() {
  try {
    const kept = localStorage.getItem(LANG_KEY);
    if (kept && kept in LANGUAGES) return kept;
  } catch {
    /* no storage: the browser's choice */
  }
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = String(tag).toLowerCase().split("-")[0];
    if (code in LANGUAGES) return code;
  }
  return "en";
}

async function load(code) {
  if (catalogues[code]) return;
  const response = await fetch(`/static/lang/${code}.json`);
  catalogues[code] = response.ok ? await response.json() : {};
}

/** Load the catalogues (English, the fallback, and `code`) and make `code` the page's language. */
export async function setLanguage(code, remember = false) {
  if (!(code in LANGUAGES)) code = "en";
  await Promise.all([load("en"), load(code)]);
  current = code;
  document.documentElement.lang = code;
  if (remember) {
    try {
      localStorage.setItem(LANG_KEY, code);
    } catch {
      /* kept for this visit only */
    }
  }
}

export function language() {
  return current;
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

function find(tables, key) {
  for (const table of tables) if (table && typeof table[key] === "string") return table[key];
  return null;
}

/** The page's text for `key` in the page's language ({name} filled from `params`). */
export function t(key, params) {
  const text = find([catalogues[current], catalogues.en], key);
  return fill(text === null ? key : text, params);
}

/** `key.one` or `key.other` by the count `n` (also passed as {n}). */
export function tn(key, n, params) {
  return t(`${key}.${n === 1 ? "one" : "other"}`, { n, ...params });
}

/** Whether the page's catalogue (or English) has `key`. */
export function has(key) {
  return find([catalogues[current], catalogues.en], key) !== null;
}

/** Register a game's own words ({code: {key: text}}, from its package: Game.page()["text"]). */
export function addGameText(game, text) {
  games[game] = text || {};
}

/** A game's translator: its own words in the page's language, else its English, else the page's
 * catalogue, else the key. A game's page module gets it from present.js: gameText("<its name>"). */
export function gameText(game) {
  const gt = (key, params) => {
    const own = games[game] || {};
    const text = find([own[current], own.en, catalogues[current], catalogues.en], key);
    return fill(text === null ? key : text, params);
  };
  gt.has = (key) => {
    const own = games[game] || {};
    return find([own[current], own.en], key) !== null;
  };
  gt.n = (key, n, params) => gt(`${key}.${n === 1 ? "one" : "other"}`, { n, ...params });
  return gt;
}

/** A <select> choosing the page's language (it reloads the view in the new one). */
export function languagePicker(onchange) {
  const select = document.createElement("select");
  select.id = "language";
  select.setAttribute("aria-label", t("lang.label"));
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    option.selected = code === current;
    select.appendChild(option);
  }
  select.addEventListener("change", async () => {
    await setLanguage(select.value, true);
    if (onchange) onchange(select.value);
  });
  return select;
}

/** What the server said (a WebSocket message, or the body of a refused request) in the page's
 * language: its `code` through the catalogue (`server.<code>`, with the message's other fields as
 * placeholders), else the server's own words (English). */
export function serverText(message, fallback = "") {
  if (message && message.code && has(`server.${message.code}`)) return t(`server.${message.code}`, message);
  return (message && (message.message || message.error)) || fallback;
}
