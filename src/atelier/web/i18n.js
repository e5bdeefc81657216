// Interface strings, fetched from the server per language (every area's
// strings.json merged), so server errors and the interface share one source.

export const LANGUAGES = ["en", "de", "uk"];
const STORE_KEY = "atelier.lang";
const listeners = new Set();
let current = "en";
let strings = {};

export function preferredLanguage() {
  const saved = localStorage.getItem(STORE_KEY);
  if (LANGUAGES.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).split("-")[0].toLowerCase();
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

export function lang() {
  return current;
}

export async function setLanguage(code) {
  const next = LANGUAGES.includes(code) ? code : "en";
  const response = await fetch(`/api/strings/${next}`);
  if (!response.ok) throw new Error(`strings ${next}: ${response.status}`);
  strings = await response.json(); // {key: text}, as docs/protocol.md says
  current = next;
  localStorage.setItem(STORE_KEY, next);
  document.documentElement.lang = next;
  for (const fn of listeners) fn(next);
}

export function onLanguage(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function has(key) {
  return Object.prototype.hasOwnProperty.call(strings, key);
}

// A text that counts something is an object of plural forms ({one, other}, and
// few/many in Ukrainian); the count field (or the field its "by" names) picks
// the form by the language's CLDR rules, as the server's i18n.py does.
let rules = null;
function template(key, params) {
  const text = has(key) ? strings[key] : key;
  if (typeof text === "string") return text;
  const number = params[text.by || "count"];
  if (typeof number !== "number") return text.other;
  if (!rules || rules.resolvedOptions().locale.split("-")[0] !== current) {
    rules = new Intl.PluralRules(current);
  }
  return text[rules.select(number)] ?? text.other;
}

// t("lobby.players", {count: 3}) with {name} fields, like the server's str.format.
export function t(key, params = {}) {
  const text = template(key, params);
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole,
  );
}

// Like t(), for text with elements in it: a DOM node given as a field is put
// in as it is (a name that must stay whole), so the result is a list for h().
export function tn(key, params = {}) {
  const text = template(key, params);
  return text
    .split(/(\{\w+\})/)
    .filter((part) => part)
    .map((part) => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      if (!name || !Object.prototype.hasOwnProperty.call(params, name)) return part;
      const value = params[name];
      return value instanceof Node || Array.isArray(value) ? value : String(value);
    });
}

// A column heading for scoreTable(): with its short form for phones
// ("key_short") where the language has one.
export function heading(key, params = {}) {
  const short = `${key}_short`;
  return has(short) ? { full: t(key, params), short: t(short, params) } : t(key, params);
}

// A server error {code, params, message?}: our own translation wins, so the
// toast follows a language switch even for errors sent before it.
export function errorText(error) {
  if (!error) return t("app.error_unknown");
  const key = `error.${error.code}`;
  if (has(key)) return t(key, error.params || {});
  return error.message || t("app.error_unknown");
}

// A player's name as shown: a computer player comes with its level as data
// ("computer": "easy"), named here in the reader's language.
export function playerName(player) {
  if (!player) return "";
  const level = player.computer;
  if (level && has(`computer.level.${level}`)) {
    return t("computer.name", { level: t(`computer.level.${level}`) });
  }
  return player.name;
}

// The room's deck language (words, locations): may differ from the interface's.
// Elements holding deck words carry it as their lang, so they hyphenate right.
let deck = null;
export function setDeckLanguage(code) {
  deck = code || null;
}
export function deckLanguage() {
  return deck || current;
}
