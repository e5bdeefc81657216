// The installable app, on the page's side: registers the service worker
// (sw.js), switches to a new version of the client at the next load, and says
// when one is ready meanwhile. Also: the manifest's language follows the page's.

import { h } from "./dom.js";
import { onLanguage, t } from "./i18n.js";

const supported = "serviceWorker" in navigator;
let reloading = false;
let notice = null;
let waitingOn = null; // the registration whose new version the notice offers

// Before the page shows anything: a version that finished installing while the
// last page was open takes over now, if no other page still runs the old one
// (the worker checks), and the page reloads on it. Resolves false when the page
// goes on with the version it has.
export async function takeWaitingVersion() {
  if (!supported || !navigator.serviceWorker.controller) return false;
  const registration = await navigator.serviceWorker.getRegistration().catch(() => null);
  if (!registration?.waiting) return false;
  const switched = new Promise((resolve) => {
    navigator.serviceWorker.addEventListener("controllerchange", () => resolve(true), { once: true });
    // another page still on the old version: it stays, and this one says so
    setTimeout(() => resolve(false), 1500);
  });
  registration.waiting.postMessage({ t: "activate-if-alone" });
  if (!(await switched)) return false;
  reloading = true;
  location.reload();
  return true;
}

export function registerWorker() {
  followLanguage();
  if (!supported) return;
  const hadController = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (reloading) return;
    // another page switched to the new version: this one keeps running its
    // own files until it reloads, and says so
    if (hadController) showUpdate(null);
  });
  navigator.serviceWorker
    .register("/sw.js", { scope: "/", updateViaCache: "none" })
    .then((registration) => {
      if (registration.waiting && navigator.serviceWorker.controller) showUpdate(registration);
      registration.addEventListener("updatefound", () => {
        const worker = registration.installing;
        worker?.addEventListener("statechange", () => {
          if (worker.state === "installed" && navigator.serviceWorker.controller) showUpdate(registration);
        });
      });
    })
    .catch(() => {}); // no worker (a private window, an insecure address): the page works online
}

// "A new version is ready": reload now (the new worker takes over and every
// page on it reloads), or later (the next load takes it).
function showUpdate(registration) {
  notice?.remove();
  waitingOn = registration;
  const reload = () => {
    reloading = true;
    const waiting = registration?.waiting;
    if (waiting) {
      navigator.serviceWorker.addEventListener("controllerchange", () => location.reload(), { once: true });
      waiting.postMessage({ t: "activate" });
    } else {
      location.reload();
    }
  };
  notice = h(
    "div",
    { class: "app-notice", role: "status", testid: "update-ready" },
    h("p", {}, t("app.update_ready")),
    h(
      "div",
      { class: "app-notice-actions" },
      h(
        "button",
        { class: "btn primary small", type: "button", testid: "update-reload", onclick: reload },
        t("app.update_reload"),
      ),
      h(
        "button",
        { class: "btn ghost small", type: "button", testid: "update-later", onclick: () => notice?.remove() },
        t("app.update_later"),
      ),
    ),
  );
  document.body.appendChild(notice);
}

// The manifest in the page's language (its description and lang), for a
// browser that reads it when the app is installed.
function followLanguage() {
  const link = document.querySelector("link[rel=manifest]");
  const update = (code) => {
    if (link) link.href = `/manifest.webmanifest?lang=${code}`;
    if (notice?.isConnected) showUpdate(waitingOn); // in the new language
  };
  onLanguage(update);
}

// This page's client version, as the worker that serves it knows it (null
// without a worker).
export function clientVersion() {
  const worker = supported ? navigator.serviceWorker.controller : null;
  if (!worker) return Promise.resolve(null);
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => resolve(event.data.version);
    worker.postMessage({ t: "version" }, [channel.port2]);
  });
}

// A finished game's drawings, fetched now by the worker so that its replays
// open later with no network.
export function keepDrawings(code, urls) {
  navigator.serviceWorker?.controller?.postMessage({ t: "keep-room", code, urls });
}
