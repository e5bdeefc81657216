// Short cues made in the browser with Web Audio (nothing is fetched), and a
// vibration where the device has one. One switch mutes both; the choice is
// remembered on this device. Without a choice: on for players, off for
// spectators (a TV or an onlooker should not beep unasked).
//
// Every cue asked for is recorded in window.atelierCues ({name, played}),
// so tests can see the cues fire although headless audio cannot be heard.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const STORE_KEY = "atelier.sound";

// name: [notes as [frequency Hz, start s, length s, wave]], vibration pattern
const CUES = {
  round: {
    notes: [
      [523.25, 0, 0.16, "triangle"],
      [783.99, 0.14, 0.26, "triangle"],
    ],
    vibrate: [60],
  },
  guessed: {
    notes: [
      [880, 0, 0.09, "sine"],
      [1174.66, 0.07, 0.14, "sine"],
    ],
    vibrate: [35],
  },
  tick: { notes: [[1046.5, 0, 0.05, "sine"]], vibrate: null, gain: 0.12 },
  last: {
    notes: [
      [659.25, 0, 0.12, "square"],
      [659.25, 0.18, 0.12, "square"],
    ],
    vibrate: [40, 60, 40],
    gain: 0.08,
  },
  turn: {
    notes: [
      [587.33, 0, 0.12, "triangle"],
      [739.99, 0.1, 0.12, "triangle"],
      [880, 0.2, 0.22, "triangle"],
    ],
    vibrate: [80, 40, 80],
  },
  reveal: {
    notes: [
      [523.25, 0, 0.5, "sine"],
      [659.25, 0.08, 0.45, "sine"],
      [783.99, 0.16, 0.4, "sine"],
      [1046.5, 0.24, 0.5, "sine"],
    ],
    vibrate: [30, 30, 30],
  },
};

let audio = null;
let playerDefault = false;
const listeners = new Set();

window.atelierCues = window.atelierCues || [];

// Players hear cues unless they turned them off; spectators only if they turned them on.
export function setRole(isPlayer) {
  if (playerDefault !== isPlayer) {
    playerDefault = isPlayer;
    for (const fn of listeners) fn();
  }
}

export function soundOn() {
  const saved = localStorage.getItem(STORE_KEY);
  if (saved === "on") return true;
  if (saved === "off") return false;
  return playerDefault;
}

export function setSound(on) {
  localStorage.setItem(STORE_KEY, on ? "on" : "off");
  if (on) context(); // a tap on the switch is the gesture that lets audio start
  for (const fn of listeners) fn();
}

export function onSoundChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function context() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!audio) audio = new Ctx();
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

// Audio may only start after a gesture: a tap anywhere wakes it (again,
// if the browser suspended it meanwhile).
window.addEventListener(
  "pointerdown",
  () => {
    if (soundOn() && (!audio || audio.state === "suspended")) context();
  },
  { capture: true, passive: true },
);

export function cue(name) {
  const spec = CUES[name];
  if (!spec) return;
  const played = soundOn();
  window.atelierCues.push({ name, played });
  document.documentElement.dataset.lastCue = name;
  if (!played) return;
  if (spec.vibrate && typeof navigator.vibrate === "function") navigator.vibrate(spec.vibrate);
  const ctx = context();
  if (!ctx) return;
  const now = ctx.currentTime + 0.01;
  const level = spec.gain ?? 0.18;
  for (const [freq, start, length, wave] of spec.notes) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = wave;
    osc.frequency.value = freq;
    // a soft attack and an exponential fade: pleasant, no clicks
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(level, now + start + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now + start);
    osc.stop(now + start + length + 0.05);
  }
}

// The one switch (in the top bar): a toggle button that says what it does.
export function soundButton() {
  const button = h("button", {
    class: "sound-toggle",
    type: "button",
    testid: "sound-toggle",
    onclick: () => setSound(!soundOn()),
  });
  paintButton(button);
  return button;
}

function paintButton(button) {
  const on = soundOn();
  button.setAttribute("aria-pressed", String(on));
  button.setAttribute("aria-label", t("sound.toggle"));
  button.title = on ? t("sound.on") : t("sound.off");
  button.replaceChildren(speaker(on));
}

// A speaker with sound waves, or crossed out (drawn, so no emoji font is needed).
function speaker(on) {
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "22");
  svg.setAttribute("height", "22");
  svg.setAttribute("aria-hidden", "true");
  const paths = ["M3 9h4l5-4v14l-5-4H3z"];
  if (on) paths.push("M15.5 8.5a5 5 0 0 1 0 7", "M18.5 5.5a9 9 0 0 1 0 13");
  else paths.push("M16 9l6 6", "M22 9l-6 6");
  for (const d of paths) {
    const path = document.createElementNS(NS, "path");
    path.setAttribute("d", d);
    path.setAttribute("fill", d.startsWith("M3") ? "currentColor" : "none");
    path.setAttribute("stroke", "currentColor");
    path.setAttribute("stroke-width", "2");
    path.setAttribute("stroke-linecap", "round");
    svg.append(path);
  }
  return svg;
}

onSoundChange(() => {
  for (const button of document.querySelectorAll("[data-testid=sound-toggle]")) paintButton(button);
});
