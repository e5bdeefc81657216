// Turning a seat's turn nudges on (Web Push): one tap asks the browser's
// permission (only then, never on load), subscribes with the server's VAPID
// key, and hands the subscription to the server with the seat's token. The
// browser needs a secure context for this (HTTPS, or localhost): on a plain
// HTTP LAN address the button says so instead (docs/deploy.md).

import { storedToken } from "./net.js";

const onKey = (code) => `atelier.push.${code.toUpperCase()}`;

export function pushSupported() {
  return window.isSecureContext && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

export const nudgesOn = (code) => Boolean(localStorage.getItem(onKey(code)));

function base64urlBytes(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

// The page's service worker: the app's own (sw.js, registered by the page) if
// there is one, else registered here.
async function worker() {
  const found = await navigator.serviceWorker.getRegistration("/");
  if (!found) await navigator.serviceWorker.register("/sw.js", { scope: "/", updateViaCache: "none" });
  return navigator.serviceWorker.ready;
}

async function post(path, code, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${storedToken(code)}` },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw await response.json().catch(() => ({ code: "internal" }));
}

// "denied", "unsupported", or "on"; a refusal by the server is thrown as its error.
export async function enableNudges(code, language) {
  if (!pushSupported()) return "unsupported";
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return "denied";
  const registration = await worker();
  const key = (await (await fetch("/api/push/key")).json()).public_key;
  const subscription =
    (await registration.pushManager.getSubscription()) ||
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64urlBytes(key) }));
  await post(`/api/rooms/${code}/push`, code, { subscription: subscription.toJSON(), lang: language });
  localStorage.setItem(onKey(code), subscription.endpoint);
  return "on";
}

export async function disableNudges(code) {
  const endpoint = localStorage.getItem(onKey(code));
  localStorage.removeItem(onKey(code));
  if (endpoint) await post(`/api/rooms/${code}/push/off`, code, { endpoint }).catch(() => {});
}

export const forgetNudges = (code) => localStorage.removeItem(onKey(code));
