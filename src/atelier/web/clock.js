// The server's wall clock, for countdowns to deadlines it names: the offset
// comes from the HTTP Date header (second resolution is enough for a timer).

let offset = 0;

export function serverNow() {
  return Date.now() / 1000 + offset;
}

export async function syncClock() {
  try {
    const before = Date.now();
    const response = await fetch("/healthz", { cache: "no-store" });
    const after = Date.now();
    const date = Date.parse(response.headers.get("Date") || "");
    if (!Number.isNaN(date)) {
      // Date is truncated to the second: +0.5 s centres the error.
      offset = (date + 500 - (before + after) / 2) / 1000;
      if (Math.abs(offset) < 1) offset = 0;
    }
  } catch {
    offset = 0;
  }
}
