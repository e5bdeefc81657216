// Awake at the table: during a round the screen stays on (the Screen Wake
// Lock API), taken again when the page is shown again (the browser drops the
// lock whenever the page is hidden), and let go in the lobby and after the game.
//
// Browsers offer the API only to secure pages (HTTPS, or localhost): on a
// plain-HTTP LAN address there is nothing that keeps a phone awake reliably,
// so the lobby says once how to keep the screen on (docs/party.md).

import { h } from "./dom.js";
import { t } from "./i18n.js";

const NOTE_KEY = "atelier.awake.noted";
let wanted = false;
let sentinel = null;
let asking = false;

export const canKeepAwake = () => "wakeLock" in navigator;

// Called on every render of a room: whether this moment is a round's.
export function keepAwake(on) {
  wanted = Boolean(on);
  if (wanted) take();
  else release();
}

async function take() {
  if (!wanted || sentinel || asking || !canKeepAwake() || document.visibilityState !== "visible") return;
  asking = true;
  try {
    const lock = await navigator.wakeLock.request("screen");
    lock.addEventListener("release", () => {
      if (sentinel === lock) sentinel = null;
    });
    sentinel = lock;
    if (!wanted) release(); // the round ended while the browser was answering
  } catch {
    // refused (battery saver, a hidden page, a policy): the screen may dim
  } finally {
    asking = false;
  }
}

function release() {
  const lock = sentinel;
  sentinel = null;
  lock?.release().catch(() => {});
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") take();
});

// The lobby's note where the page cannot keep the screen on, until read.
export function awakeNote() {
  if (canKeepAwake() || localStorage.getItem(NOTE_KEY)) return null;
  const note = h(
    "section",
    { class: "card awake-note", testid: "awake-note" },
    h("p", {}, t("app.awake_note")),
    h(
      "button",
      {
        class: "btn small",
        type: "button",
        testid: "awake-note-ok",
        onclick: () => {
          localStorage.setItem(NOTE_KEY, "1");
          note.remove();
        },
      },
      t("app.awake_note_ok"),
    ),
  );
  return note;
}
