// A number field that says why the browser refuses it, in the page and in the
// page's language: the browser's own bubble is in the browser's language, goes
// away after a moment and, on a phone, is often not seen at all. The message
// sits under the field and is its description (aria-describedby), so a screen
// reader reads it when the field gets focus.

import { h } from "./dom.js";
import { t } from "./i18n.js";

// The two values nearest to `value` the field's step allows (a browser counts
// steps from the minimum).
function nearest(input, value) {
  const step = Number(input.step) || 1;
  const base = input.min === "" ? 0 : Number(input.min);
  const below = base + Math.floor((value - base) / step) * step;
  const round = (x) => Math.round(x * 1e6) / 1e6;
  return [round(below), round(below + step)];
}

export function invalidText(input) {
  const v = input.validity;
  if (v.stepMismatch && !v.rangeUnderflow && !v.rangeOverflow) {
    const [lower, upper] = nearest(input, Number(input.value));
    return t("settings.invalid_step", { lower, upper, step: Number(input.step) || 1 });
  }
  return t("settings.invalid_range", { min: input.min, max: input.max });
}

// Adds the message to `input` (its id names the message); returns the message
// element for the caller to place right after the field.
export function explained(input) {
  const message = h("p", { class: "field-error", id: `${input.id}-error`, testid: `${input.id}-error`, hidden: true });
  input.setAttribute("aria-describedby", message.id);
  const show = (text) => {
    message.textContent = text;
    message.hidden = !text;
    if (text) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  };
  // The form's own check (a submit, or checkValidity()) fires "invalid": say
  // why here instead of in the browser's bubble.
  input.addEventListener("invalid", (event) => {
    event.preventDefault();
    show(invalidText(input));
  });
  // Once the value is right again, the message goes.
  input.addEventListener("input", () => {
    if (!message.hidden && (input.disabled || input.checkValidity())) show("");
  });
  // A field switched off (an optional limit unticked) cannot be wrong.
  input.clearMessage = () => show("");
  return message;
}

// Checks every field of `form`, shows why each refused one is refused, and
// moves focus to the first; true if all are fine.
export function formIsValid(form) {
  if (form.checkValidity()) return true;
  const first = form.querySelector(":invalid");
  first?.focus();
  return false;
}
