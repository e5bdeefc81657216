// The game record (RULINGS.md notation): download it as a .txt file, and
// load one by playing its moves, one by one, into a fresh hot-seat game.

import { h, toast } from "../dom.js";
import { errorText, t } from "../i18n.js";
import { parseRecord } from "./moves.js";

export function downloadRecord(screen) {
  const text = screen.model?.record;
  if (!text) return;
  const blob = new Blob([text], { type: "text/plain;charset=utf-8" });
  const url = URL.createObjectURL(blob);
  const link = h("a", { href: url, download: `piet-${screen.room.code}.txt`, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// Resolves when the screen shows a position with `count` moves (or fails after a while).
function movesReached(screen, count) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = () => {
      if ((screen.model?.moves.length ?? 0) >= count) resolve();
      else if (Date.now() - started > 10000) reject({ code: "disconnected" });
      else setTimeout(poll, 30);
    };
    poll();
  });
}

async function playRecord(screen, record) {
  const m = screen.model;
  const settings = screen.state.room.settings || {};
  if ((settings.setup || "beginner") !== record.setup || Boolean(settings.brushes) !== record.brushes) {
    toast(t("pietui.record.settings_differ", { setup: t(`settings.piet.setup.${record.setup}`), brushes: record.brushes ? t("settings.on") : t("settings.off") }));
    return;
  }
  if (m.moves.length > 0 || !screen.hotseat) {
    toast(t("pietui.record.needs_hotseat"));
    return;
  }
  screen.loading = true;
  try {
    for (let i = 0; i < record.moves.length; i += 1) {
      await movesReached(screen, i);
      const seat = screen.model.toMove;
      if (seat === null) throw { code: "game_over" };
      const conn = seat === screen.mySeat ? screen.room.conn : screen.second;
      try {
        await conn.request({ t: "act", action: { type: "move", move: record.moves[i] } });
      } catch (error) {
        toast(t("pietui.record.bad_move", { n: i + 1, move: record.moves[i], reason: errorText(error) }));
        return;
      }
    }
    toast(t("pietui.record.loaded", { n: record.moves.length }), "info");
  } finally {
    screen.loading = false;
  }
}

function loadFile(screen, file) {
  const reader = new FileReader();
  reader.onload = () => {
    let record;
    try {
      record = parseRecord(String(reader.result));
    } catch (error) {
      toast(t("pietui.record.unreadable", { line: error.line ?? "?", text: error.text ?? "" }));
      return;
    }
    playRecord(screen, record);
  };
  reader.readAsText(file, "utf-8");
}

export function recordPanel(screen) {
  const input = h("input", {
    type: "file",
    accept: ".txt,text/plain",
    hidden: true,
    testid: "piet-load-file",
    onchange: (e) => {
      const file = e.target.files?.[0];
      e.target.value = "";
      if (file) loadFile(screen, file);
    },
  });
  return h(
    "div",
    { class: "actions piet-record" },
    h("button", { class: "btn", type: "button", testid: "piet-download", onclick: () => downloadRecord(screen) }, t("pietui.record.download")),
    h("button", { class: "btn ghost", type: "button", testid: "piet-load", title: t("pietui.record.load_hint"), onclick: () => input.click() }, t("pietui.record.load")),
    input,
  );
}
