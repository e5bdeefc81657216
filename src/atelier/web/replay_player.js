// A drawing played back as it was drawn, at 1x, 2x or 4x, with a scrubber
// (a labelled range input) and, in Pictomania, the guesses on the timeline
// at the moment the server logged them. The guesses come from
// GET .../{seat}.json, which the server fills only after the reveal; their
// place is the replay time the server computed from its log (replay_ms), so
// nothing here depends on this device's clock. Also: the replay as an
// animated image (.gif) to download or share.

import { colourCss, h, replace, wholeWords } from "./dom.js";
import { t } from "./i18n.js";
import { InkViewer } from "./ink/surface.js";
import { timeline } from "./ink/replay.js";
import { reducedMotion } from "./motion.js";

const SPEEDS = [1, 2, 4];
const MARK_ROOM = 14; // px a guess mark takes on the timeline (12 and its ring)

export function drawingUrl(code, key, seat, ext) {
  return `/api/rooms/${encodeURIComponent(code)}/drawings/${encodeURIComponent(key)}/${seat}.${ext}`;
}

function splitInk(buffer) {
  const view = new DataView(buffer);
  const out = [];
  let i = 0;
  while (i + 4 <= buffer.byteLength) {
    const n = view.getUint32(i);
    out.push(new Uint8Array(buffer, i + 4, n));
    i += 4 + n;
  }
  return out;
}

// m:ss, or m:ss.t with tenths (a guess two strokes in may be under a second)
function clock(ms, tenths = false) {
  const s = Math.floor(ms / 1000);
  const whole = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  return tenths ? `${whole}.${Math.floor((ms % 1000) / 100)}` : whole;
}

let serial = 0;

export class ReplayPlayer {
  // who: (seat) => {name, colour}; title: the heading (drawer and word when public)
  constructor({ code, key, seat, who, title }) {
    this.code = code;
    this.key = key;
    this.seat = seat;
    this.who = who;
    this.title = title;
    this.events = [];
    this.guesses = [];
    this.duration = 0;
    this.vt = 0;
    this.applied = 0;
    this.speed = 1;
    this.playing = false;
    this.raf = 0;
    this.viewer = null;
    this.id = `replay-${++serial}`;
  }

  build() {
    const colour = colourCss(this.who(this.seat).colour);
    this.canvasBox = h("div", {
      class: "ink-box replay-canvas",
      testid: "replay-canvas",
      role: "img",
      "aria-label": this.title,
    });
    this.playButton = h(
      "button",
      { class: "btn", type: "button", testid: "replay-play", onclick: () => this.toggle() },
      t("replay.play"),
    );
    this.speedButtons = SPEEDS.map((s) =>
      h(
        "button",
        {
          class: "btn small",
          type: "button",
          testid: `replay-speed-${s}`,
          "aria-pressed": String(s === this.speed),
          onclick: () => this.setSpeed(s),
        },
        `${s}×`,
      ),
    );
    this.range = h("input", {
      id: `${this.id}-range`,
      type: "range",
      min: "0",
      max: "0",
      step: "10",
      value: "0",
      testid: "replay-range",
      oninput: () => {
        this.pause(); // dragging the scrubber takes over from playback
        this.seek(Number(this.range.value));
      },
    });
    this.markers = h("div", { class: "replay-marks", testid: "replay-marks", "aria-hidden": "true" });
    this.readout = h("span", { class: "replay-time", testid: "replay-time" }, "0:00");
    this.list = h("ol", { class: "replay-guesses", testid: "replay-guesses" });
    this.live = h("p", { class: "sr-only", "aria-live": "polite", testid: "replay-live" });
    const gif = drawingUrl(this.code, this.key, this.seat, "gif");
    const file = `${this.code}-${this.key}-${this.seat}.gif`;
    this.shareButton = navigator.share
      ? h(
          "button",
          { class: "btn small", type: "button", testid: "replay-share", onclick: () => this.share(gif, file) },
          t("replay.share"),
        )
      : null;
    this.root = h(
      "div",
      { class: "replay", testid: "replay", style: { "--c": colour } },
      h("div", { class: "canvas-frame replay-frame" }, this.canvasBox),
      h(
        "div",
        { class: "replay-track" },
        h("label", { for: `${this.id}-range`, class: "replay-label" }, t("replay.position")),
        h("div", { class: "replay-scrub" }, this.markers, this.range),
        this.readout,
      ),
      h(
        "div",
        { class: "replay-controls" },
        this.playButton,
        h("div", { class: "replay-speeds", role: "group", "aria-label": t("replay.speed") }, this.speedButtons),
        h("a", { class: "btn small", href: gif, download: file, testid: "replay-download" }, t("replay.download")),
        this.shareButton,
      ),
      this.list,
      this.live,
    );
    this.viewer = new InkViewer(this.canvasBox, { colour });
    return this.root;
  }

  async load() {
    const [ink, marks] = await Promise.all([
      fetch(drawingUrl(this.code, this.key, this.seat, "ink")).then((r) =>
        r.ok ? r.arrayBuffer() : new ArrayBuffer(0),
      ),
      fetch(drawingUrl(this.code, this.key, this.seat, "json")).then((r) => (r.ok ? r.json() : null)),
    ]);
    if (!this.viewer) return; // closed meanwhile
    this.events = timeline(splitInk(ink));
    this.duration = this.events.length ? this.events[this.events.length - 1].vt : 0;
    this.guesses = marks?.revealed ? marks.guesses : [];
    this.range.max = String(this.duration);
    this.paintGuesses();
    this.root.dataset.duration = String(this.duration);
    this.root.dataset.loaded = "true";
    if (reducedMotion()) this.seek(this.duration);
    else this.play();
  }

  paintGuesses() {
    const span = Math.max(this.duration, 1);
    const at = (g) => Math.min(g.replay_ms, span) / span;
    // Guesses close in time would cover each other: each mark goes on the
    // first row (from the track up) where it clears the marks already there.
    const width = this.markers.clientWidth || 300;
    const rowOf = new Map();
    const lastX = []; // per row, where its last mark sits (px)
    for (const g of [...this.guesses].sort((a, b) => a.replay_ms - b.replay_ms)) {
      const x = at(g) * width;
      let row = lastX.findIndex((last) => x - last >= MARK_ROOM);
      if (row < 0) row = lastX.length;
      lastX[row] = x;
      rowOf.set(g, row);
    }
    const rows = Math.max(1, lastX.length);
    this.markers.style.height = `${rows * MARK_ROOM}px`;
    this.markers.parentElement.style.paddingTop = `${rows * MARK_ROOM}px`;
    replace(
      this.markers,
      this.guesses.map((g) => {
        const who = this.who(g.by);
        const verdict = g.correct === true ? "right" : g.correct === false ? "wrong" : "returned";
        return h("span", {
          class: `replay-mark ${verdict}`,
          testid: "replay-mark",
          dataset: { by: String(g.by), ms: String(g.replay_ms), verdict, row: String(rowOf.get(g)) },
          style: {
            left: `${100 * at(g)}%`,
            bottom: `${rowOf.get(g) * MARK_ROOM}px`,
            background: colourCss(who.colour),
          },
          title: who.name,
        });
      }),
    );
    replace(
      this.list,
      this.guesses.map((g) => {
        const who = this.who(g.by);
        const verdict = g.correct === true ? "right" : g.correct === false ? "wrong" : "returned";
        return h(
          "li",
          {
            class: `replay-guess ${verdict}`,
            testid: "replay-guess",
            dataset: { by: String(g.by), ms: String(g.replay_ms) },
          },
          h("span", { class: "swatch small", style: { background: colourCss(who.colour) } }),
          h("span", {}, t(`replay.guess_${verdict}`, { name: who.name, time: clock(g.replay_ms, true) })),
        );
      }),
    );
  }

  setSpeed(speed) {
    this.speed = speed;
    for (const [i, b] of this.speedButtons.entries()) b.setAttribute("aria-pressed", String(SPEEDS[i] === speed));
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  play() {
    if (!this.viewer) return;
    if (this.vt >= this.duration) this.seek(0);
    this.playing = true;
    this.playButton.textContent = t("replay.pause");
    this.root.dataset.playing = "true";
    let last = performance.now();
    const step = (now) => {
      this.advance(this.vt + (now - last) * this.speed);
      last = now;
      if (this.vt >= this.duration) this.pause();
      else this.raf = requestAnimationFrame(step);
    };
    this.raf = requestAnimationFrame(step);
  }

  pause() {
    cancelAnimationFrame(this.raf);
    this.playing = false;
    if (this.playButton) this.playButton.textContent = t("replay.play");
    if (this.root) this.root.dataset.playing = "false";
  }

  // Jump anywhere: backwards starts again from an empty canvas.
  seek(vt) {
    if (vt < this.vt) {
      this.viewer.reset();
      this.applied = 0;
    }
    this.advance(vt, true);
  }

  advance(vt, seeking = false) {
    const before = this.vt;
    this.vt = Math.max(0, Math.min(vt, this.duration));
    const drawing = this.viewer.drawing;
    while (this.applied < this.events.length && this.events[this.applied].vt <= this.vt) {
      this.events[this.applied++].apply(drawing);
    }
    this.viewer._changed();
    if (!seeking) this.range.value = String(Math.round(this.vt));
    this.readout.textContent = `${clock(this.vt)} / ${clock(this.duration)}`;
    this.root.dataset.vt = String(Math.round(this.vt));
    for (const [i, mark] of [...this.markers.children].entries()) {
      const g = this.guesses[i];
      const passed = g.replay_ms <= this.vt;
      mark.classList.toggle("passed", passed);
      this.list.children[i]?.classList.toggle("passed", passed);
      // announce a guess as the replay passes it while playing
      if (!seeking && passed && g.replay_ms > before) this.live.textContent = this.list.children[i]?.textContent ?? "";
    }
  }

  async share(url, file) {
    try {
      const blob = await (await fetch(url)).blob();
      const data = new File([blob], file, { type: blob.type });
      if (navigator.canShare?.({ files: [data] })) await navigator.share({ files: [data], title: this.title });
      else await navigator.share({ url: new URL(url, location.href).href, title: this.title });
    } catch {
      // the person closed the share sheet
    }
  }

  destroy() {
    this.pause();
    this.viewer?.destroy();
    this.viewer = null;
  }
}

// Opens the replay in a modal dialog (Escape or the button closes it).
export function openReplay(options) {
  const player = new ReplayPlayer(options);
  const close = h(
    "button",
    { class: "btn small", type: "button", testid: "replay-close", onclick: () => dialog.close() },
    t("common.close"),
  );
  const dialog = h(
    "dialog",
    { class: "replay-dialog", testid: "replay-dialog", "aria-labelledby": `${player.id}-title` },
    h("header", { class: "replay-head" }, h("h2", { id: `${player.id}-title` }, wholeWords(options.title)), close),
  );
  dialog.append(player.build());
  dialog.addEventListener("close", () => {
    player.destroy();
    dialog.remove();
  });
  document.body.append(dialog);
  dialog.showModal();
  player.load();
  return player;
}

export function replayButton(options) {
  return h(
    "button",
    { class: "btn small", type: "button", testid: "replay-open", onclick: () => openReplay(options()) },
    t("replay.open"),
  );
}
