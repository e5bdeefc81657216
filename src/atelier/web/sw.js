// The service worker: keeps the app's shell so it opens with no network, and
// the drawings of finished games so their replays do too (docs/deploy.md).
//
// Served at /sw.js by the server (server/http/pwa.py), which writes two constants
// above this file: VERSION, a hash of every file the worker keeps, and SHELL,
// those files' URLs. A deploy of new files changes VERSION, so the browser
// installs the new worker beside the old one, into a cache of its own; the
// page (pwa.js) says a new version is ready and switches on the next load. A
// page therefore runs on one version's files, never a mix.
//
// Sections: install and activate (the shell's cache), fetch (what comes from
// where), messages from the pages, and notifications (push and clicks).

/* global VERSION, SHELL, KEPT_POSTS */

const SHELL_CACHE = `atelier-shell-${VERSION}`;
const ROOM_CACHE = "atelier-room-"; // + the room's code: its drawings, kept across versions
const ANSWERS_CACHE = "atelier-answers"; // POST answers that read the same every time (puzzles)
const KEPT_ROOMS = 12; // the finished games whose drawings stay on this device
const DRAWING = /^\/api\/rooms\/([A-Za-z0-9]{1,16})\/drawings(\/|$)/;
const PAGE = /^\/(r\/[A-Za-z0-9]{1,16}(\/tv)?\/?)?$/; // what index.html serves

// --- install and activate ---------------------------------------------------

self.addEventListener("install", (event) => {
  // cache: "reload" skips the HTTP cache, which may still hold the old files
  event.waitUntil(
    Promise.all([
      caches.open(SHELL_CACHE).then((cache) => cache.addAll(SHELL.map((url) => new Request(url, { cache: "reload" })))),
      // the puzzles' list, so the puzzles open offline even if never opened
      // online (a tried move needs the server); without it the worker still installs
      ...KEPT_POSTS.map((url) => keptAnswer(postOf(url)).catch(() => null)),
    ]),
  );
  // No skipWaiting here: an open page keeps the version it started with.
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("atelier-shell-") && name !== SHELL_CACHE) await caches.delete(name);
      }
      // the first install takes over the page that registered it, so that page
      // already opens offline next time without a reload first
      await self.clients.claim();
    })(),
  );
});

// --- fetch ------------------------------------------------------------------

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && KEPT_POSTS.includes(url.pathname)) {
    event.respondWith(keptAnswer(request));
    return;
  }
  if (request.method !== "GET") return;
  if (request.mode === "navigate" && PAGE.test(url.pathname)) {
    event.respondWith(fromShell("/", request)); // one page, index.html, routes on the client
  } else if (SHELL.includes(url.pathname) && !url.search) {
    event.respondWith(fromShell(url.pathname, request));
  } else {
    const room = DRAWING.exec(url.pathname);
    if (room) event.respondWith(drawing(request, room[1].toUpperCase()));
  }
  // anything else (the room socket, /healthz, the API) goes to the network untouched
});

async function fromShell(key, request) {
  const cache = await caches.open(SHELL_CACHE);
  return (await cache.match(key)) || fetch(request);
}

// A drawing (its ink, timeline, picture): the network's answer, kept for when
// there is none; a finished drawing never changes.
async function drawing(request, code) {
  try {
    const response = await fetch(request);
    if (response.ok) {
      const cache = await roomCache(code);
      await cache.put(request, response.clone());
    }
    return response;
  } catch (error) {
    const kept = await caches.match(request, { cacheName: ROOM_CACHE + code });
    if (kept) return kept;
    throw error;
  }
}

// The room's cache; the oldest rooms' go when there are more than KEPT_ROOMS
// (CacheStorage lists caches in the order they were made).
async function roomCache(code) {
  const name = ROOM_CACHE + code;
  const names = (await caches.keys()).filter((n) => n.startsWith(ROOM_CACHE));
  if (!names.includes(name)) {
    for (const old of names.slice(0, Math.max(0, names.length + 1 - KEPT_ROOMS))) await caches.delete(old);
  }
  return caches.open(name);
}

// What the page sends for a kept POST's answer (piet/puzzles.js: an empty body).
function postOf(url) {
  return new Request(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
}

// The answer to a POST that reads the same for everyone (KEPT_POSTS): the
// network's, kept under its URL (the Cache API keeps GETs only) for when there
// is no network.
async function keptAnswer(request) {
  const key = new Request(request.url);
  try {
    const response = await fetch(request);
    if (response.ok) await (await caches.open(ANSWERS_CACHE)).put(key, response.clone());
    return response;
  } catch (error) {
    const kept = await caches.match(key, { cacheName: ANSWERS_CACHE });
    if (kept) return kept;
    throw error;
  }
}

// --- messages from the pages (pwa.js, room.js) --------------------------------

self.addEventListener("message", (event) => {
  const msg = event.data || {};
  if (msg.t === "activate") {
    self.skipWaiting(); // the user asked for the new version: the pages reload
  } else if (msg.t === "activate-if-alone") {
    // a page loading while this version waits: switch now if no other page
    // would be left running on the old files
    event.waitUntil(
      self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((pages) => {
        const alone = pages.length <= 1;
        event.ports[0]?.postMessage({ switching: alone });
        return alone ? self.skipWaiting() : null;
      }),
    );
  } else if (msg.t === "version") {
    (event.ports[0] || event.source)?.postMessage({ t: "version", version: VERSION });
  } else if (msg.t === "keep-room" && typeof msg.code === "string" && Array.isArray(msg.urls)) {
    // a game just ended: its drawings, so its replays open offline later
    event.waitUntil(keepRoom(msg.code.toUpperCase(), msg.urls));
  }
});

async function keepRoom(code, urls) {
  const cache = await roomCache(code);
  const prefix = `/api/rooms/${code}/drawings`;
  for (const url of urls) {
    if (typeof url !== "string" || !url.toUpperCase().startsWith(prefix.toUpperCase())) continue;
    if (await cache.match(url)) continue;
    const response = await fetch(url).catch(() => null);
    if (response?.ok) await cache.put(url, response);
  }
}

// --- notifications ----------------------------------------------------------
// A notification's data.url is the page it opens: a tap focuses a tab already
// there, or opens one. Web Push's "push" listener (turn nudges) is its own file,
// push_sw.js, loaded at the worker's start as importScripts requires.

importScripts("/static/push_sw.js");

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || "/", self.location.origin);
  if (target.origin !== self.location.origin) return;
  event.waitUntil(
    (async () => {
      const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = pages.find((page) => new URL(page.url).pathname === target.pathname);
      if (open) return open.focus();
      return self.clients.openWindow(target.href);
    })(),
  );
});
