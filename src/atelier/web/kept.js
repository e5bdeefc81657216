// Finished games this device keeps, so they open with no network: the last
// state the server sent (localStorage) and the drawings' ink, timelines and
// pictures (the service worker's cache, sw.js). The newest few only.

import { keepDrawings } from "./pwa.js";

const LIST_KEY = "atelier.kept"; // the kept rooms' codes, oldest first
const stateKey = (code) => `atelier.kept.${code.toUpperCase()}`;
const KEPT = 12; // as many as sw.js keeps drawings for
const PICTURE_SIZE = 512; // the gallery's (gallery.js)

export function keptGame(code) {
  try {
    return JSON.parse(localStorage.getItem(stateKey(code)) || "null");
  } catch {
    return null;
  }
}

// A finished game's state, kept once per game (its ink prefix tells games of
// the same room apart), and its drawings fetched by the worker.
export function keepGame(code, state) {
  const upper = code.toUpperCase();
  const before = keptGame(upper);
  const same = before && (before.room.ink_prefix || "") === (state.room.ink_prefix || "");
  try {
    localStorage.setItem(stateKey(upper), JSON.stringify(state));
  } catch {
    return; // the storage is full: this game opens online only
  }
  const list = JSON.parse(localStorage.getItem(LIST_KEY) || "[]").filter((c) => c !== upper);
  list.push(upper);
  for (const old of list.splice(0, Math.max(0, list.length - KEPT))) localStorage.removeItem(stateKey(old));
  localStorage.setItem(LIST_KEY, JSON.stringify(list));
  if (!same) keepRoomDrawings(upper);
}

async function keepRoomDrawings(code) {
  const base = `/api/rooms/${encodeURIComponent(code)}/drawings`;
  const response = await fetch(base).catch(() => null);
  if (!response?.ok) return;
  const { drawings } = await response.json();
  const urls = [base];
  for (const { key, seat } of drawings) {
    const at = `${base}/${encodeURIComponent(key)}/${seat}`;
    urls.push(`${at}.ink`, `${at}.json`, `${at}.png?size=${PICTURE_SIZE}`);
  }
  keepDrawings(code, urls);
}
