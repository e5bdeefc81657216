// The game record (docs/piet.md, Records): download it as a .txt file, or start
// a room from one. The server reads the record (the room setting "record"):
// in the lobby the host sets it; during a game a new room is made from it.

import { h, toast } from "../dom.js";
import { errorText, lang, t } from "../i18n.js";

// The engine's limit (game.py MAX_RECORD_CHARS); checked here only to answer at once.
const MAX_RECORD_CHARS = 8000;

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

// A refused record names its line and the reason, both in the reader's language.
export function recordErrorText(error) {
  const p = error?.params;
  if (error?.code === "piet.bad_record" && p?.reason_code) {
    const reason = errorText({ code: p.reason_code, params: p.reason_params || {} });
    return t("error.piet.bad_record", { line: p.line, reason });
  }
  return errorText(error);
}

// Moves in a record the server keeps (canonical: headers, then one move a line).
export function recordMoves(text) {
  return String(text || "")
    .split("\n")
    .filter((line) => line && !line.includes(":")).length;
}

export function readFile(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const text = String(reader.result);
      if (text.length > MAX_RECORD_CHARS) reject({ code: "piet.record_too_long", params: { max: MAX_RECORD_CHARS } });
      else resolve(text);
    };
    reader.onerror = () => reject({ code: "piet.record_unreadable_file" });
    reader.readAsText(file, "utf-8");
  });
}

// A hidden file input and the button that opens it.
export function fileButton({ testid, label, hint, onText, cls = "btn ghost" }) {
  const input = h("input", {
    type: "file",
    accept: ".txt,text/plain",
    hidden: true,
    testid: `${testid}-file`,
    onchange: async (e) => {
      const file = e.target.files?.[0];
      e.target.value = "";
      if (!file) return;
      let text;
      try {
        text = await readFile(file);
      } catch (error) {
        toast(recordErrorText(error));
        return;
      }
      onText(text);
    },
  });
  const button = h("button", { class: cls, type: "button", testid, title: hint, onclick: () => input.click() }, label);
  return [button, input];
}

// During a game: a new room (same opponent) that starts where the record ends.
export async function newRoomFromRecord(text, settings) {
  const wanted = { record: text, opponent: settings?.opponent ?? null };
  if (wanted.opponent) wanted.computer_seat = settings?.computer_seat ?? 1;
  try {
    const response = await fetch(`/api/rooms?lang=${lang()}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game: "piet", settings: wanted, language: lang() }),
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw data;
    location.assign(`/r/${data.code}`);
  } catch (error) {
    toast(recordErrorText(error));
  }
}

export function recordPanel(screen, { onReview } = {}) {
  const [load, input] = fileButton({
    testid: "piet-load",
    label: t("pietui.record.new_room"),
    hint: t("pietui.record.new_room_hint"),
    onText: (text) => newRoomFromRecord(text, screen.state?.room.settings),
  });
  const [review, reviewInput] = onReview
    ? fileButton({
        testid: "piet-review-record",
        label: t("learn.review.record"),
        hint: t("learn.review.record_hint"),
        onText: onReview,
      })
    : [null, null];
  const download = h(
    "button",
    { class: "btn", type: "button", testid: "piet-download", onclick: () => downloadRecord(screen) },
    t("pietui.record.download"),
  );
  // Shown only where advice is allowed (recordAllowed): a record taken out of a
  // live game is a way to an engine its players did not agree to.
  screen.adviceParts = [download, review].filter(Boolean);
  return h("div", { class: "actions piet-record" }, download, load, input, review, reviewInput);
}

// The record and a review are offered once the game is over, or during a game
// that allows hints (against the computer, or both people agreed); the server
// refuses a review that would advise a live game anyway (docs/piet.md).
export function recordAllowed(model) {
  return Boolean(model && (model.phase === "over" || model.hints));
}

export function showRecordParts(screen) {
  const allowed = recordAllowed(screen.model);
  for (const el of screen.adviceParts || []) el.hidden = !allowed;
}
