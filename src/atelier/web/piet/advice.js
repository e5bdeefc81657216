// Asking the server for the engine's advice (docs/piet.md, Learning): it runs
// in the server's analysis pool, so the answer may take a moment.

import { lang } from "../i18n.js";
import { storedToken } from "../net.js";

async function answer(response) {
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw data;
  return data;
}

// A room's advice is its seated players' own: the token this device's player
// joined with proves the seat (a header, so no other site can send it).
export async function roomAdvice(code, kind, params = {}) {
  const query = new URLSearchParams({ ...params, lang: lang() });
  const token = storedToken(code);
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  return answer(await fetch(`/api/rooms/${code}/advice/${kind}?${query}`, { headers }));
}

export async function recordReview(record) {
  return answer(
    await fetch(`/api/games/piet/advice/review?lang=${lang()}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ record }),
    }),
  );
}

// Points as people say them: whole numbers, with a sign.
export function points(margin) {
  const n = Math.round(Number(margin) || 0);
  return n > 0 ? `+${n}` : String(n);
}

// How far an estimate may be off: one decimal, as the page's language writes it.
export function spread(noise) {
  const format = new Intl.NumberFormat(lang(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return format.format(Number(noise) || 0);
}
