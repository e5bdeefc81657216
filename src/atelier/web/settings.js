// Room settings: a form built from the game's own settings object, so the
// editor follows the engine. Bounds, choices and defaults come from the game's
// declaration, served as a JSON schema (GET /api/games/<game>/settings-schema);
// a game's hints (its descriptor's ``hints``, games.js) only add what a form
// needs besides (order of choices, which fields go together); its
// ``startFields`` are offered on the start page. A number field's step and the
// value a ticked optional field starts at are declared with its bounds (the
// schema's "step" and "examples"), so a test on the server can check that every
// value a form starts at is one the browser accepts. Labels:
// settings.<game>.<field> (option: .<value>).
//
// A hint: type (select, bool, int, optional, levels, numbers, count, text,
// readonly), options, labels (a string prefix for the options),
// patch(value) (the settings change a choice makes), when(settings)
// (shown only then), disabled(settings).

import { h } from "./dom.js";
import { explained } from "./field_check.js";
import { gameNames, gameOf } from "./games.js";
import { has, t } from "./i18n.js";

const LEVEL_CHOICES = [1, 2, 3, 4];

const schemas = new Map(); // game -> its settings schema (null if it could not be read)

// Reads every game's settings schema once; the forms wait for it (app.js).
export function loadSettingsSchemas() {
  return Promise.all(
    gameNames().map(async (game) => {
      if (schemas.has(game)) return;
      const response = await fetch(`/api/games/${game}/settings-schema`).catch(() => null);
      schemas.set(game, response?.ok ? await response.json() : null);
    }),
  );
}

// What the declaration says of a field: number bounds and step, choices,
// default, and the value a ticked optional field is offered (its first example).
function declared(game, field) {
  const spec = schemas.get(game)?.properties?.[field];
  if (!spec) return {};
  const found = { default: spec.default, offered: spec.examples?.[0] };
  for (const option of spec.anyOf || [spec]) {
    if (option.enum) found.options = option.enum;
    if (option.type === "integer" || option.type === "number") {
      found.min = option.minimum;
      found.max = option.maximum;
      found.step = option.step;
      found.exclusiveMin = option.exclusiveMinimum;
    }
  }
  return found;
}

export function label(game, field) {
  for (const key of [`settings.${game}.${field}`, `settings.${field}`]) if (has(key)) return t(key);
  return field.replace(/_/g, " ");
}

function optionLabel(game, field, value, hint) {
  if (hint?.labels) return t(`${hint.labels}.${value}`);
  const key = `settings.${game}.${field}.${value}`;
  return has(key) ? t(key) : String(value);
}

function hintFor(game, field, value) {
  const { exclusiveMin, offered, ...known } = declared(game, field);
  delete known.default; // a hint's default is what a ticked optional field starts at
  const hint = { ...known, default: offered, ...(gameOf(game).hints?.[field] || inferred(value)) };
  // A bound the value may not reach (a time limit above 0) starts one step above it.
  if (hint.min === undefined && exclusiveMin !== undefined) hint.min = exclusiveMin + (hint.step || 1);
  return hint;
}

function inferred(value) {
  if (typeof value === "boolean") return { type: "bool" };
  if (typeof value === "number") return { type: "int" };
  if (typeof value === "string") return { type: "text" };
  return { type: "readonly" };
}

function parseNumbers(text) {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  if (parts.length === 0) return null;
  return parts.map(Number);
}

function control(game, field, value, hint, change) {
  const id = `setting-${field}`;
  const onChange = (v) => change(hint.patch ? hint.patch(v) : { [field]: v });
  switch (hint.type) {
    case "select":
      return h(
        "select",
        { class: "input", id, testid: id, onchange: (e) => onChange(e.target.value) },
        hint.options.map((opt) =>
          h("option", { value: opt, selected: opt === value }, optionLabel(game, field, opt, hint)),
        ),
      );
    case "bool":
      return h("input", {
        type: "checkbox",
        class: "toggle",
        id,
        testid: id,
        checked: Boolean(value),
        onchange: (e) => onChange(e.target.checked),
      });
    case "int": {
      const number = numberInput(id, value, hint, onChange);
      return h("span", { class: "number-field" }, number, explained(number));
    }
    case "optional": {
      const on = value !== null && value !== undefined;
      const number = numberInput(`${id}-value`, on ? value : hint.default, hint, onChange);
      number.disabled = !on;
      const message = explained(number);
      number.setAttribute("aria-label", `${label(game, field)} (${t("settings.seconds")})`);
      const toggle = h("input", {
        type: "checkbox",
        class: "toggle",
        id,
        testid: id,
        checked: on,
        onchange: (e) => {
          // Enabled at once: the start page does not re-render after a change.
          number.disabled = !e.target.checked;
          if (number.disabled) number.clearMessage();
          onChange(e.target.checked ? Number(number.value) : null);
        },
      });
      return h(
        "span",
        { class: "number-field" },
        h("span", { class: "inline" }, toggle, number, h("span", { class: "unit" }, t("settings.seconds"))),
        message,
      );
    }
    case "levels": {
      const selects = (value || []).map((level, i) =>
        h(
          "select",
          {
            class: "input level",
            testid: `${id}-${i}`,
            "aria-label": t("settings.round_n", { n: i + 1 }),
            onchange: () => onChange(selects.map((x) => Number(x.value))),
          },
          LEVEL_CHOICES.map((n) => h("option", { value: n, selected: n === level }, t(`level.${n}`))),
        ),
      );
      return h("span", { class: "levels", id }, selects);
    }
    case "numbers":
      return h("input", {
        class: "input",
        id,
        testid: id,
        inputmode: "numeric",
        placeholder: t("settings.default"),
        value: value ? value.join(", ") : "",
        onchange: (e) => onChange(parseNumbers(e.target.value)),
      });
    case "text":
      return h("input", {
        class: "input",
        id,
        testid: id,
        value,
        onchange: (e) => onChange(e.target.value),
      });
    default:
      return h("span", { class: "value" }, display(game, field, value, hint));
  }
}

function numberInput(id, value, hint, onValue) {
  return h("input", {
    type: "number",
    inputmode: "numeric",
    class: "input number",
    id,
    testid: id,
    value: value ?? "",
    min: hint.min,
    max: hint.max,
    step: hint.step || 1,
    // an empty field is refused (and says so), not sent as 0
    required: true,
    onchange: (e) => {
      if (e.target.validity.valid) onValue(Number(e.target.value));
      // A field sent as it changes (the lobby's) says at once why it is not
      // (checkValidity() fires "invalid": field_check.js); one in a form says
      // so when the form is sent: a message shown as the field loses focus
      // would move the button under the finger about to tap it.
      else if (!e.target.form) e.target.checkValidity();
    },
  });
}

// The start page keeps every keystroke (no change event may come before "create").
function liveNumber(input, onValue) {
  input.addEventListener("input", (e) => {
    // validity, not checkValidity(): a half-typed number is not yet an error to show
    if (e.target.validity.valid) onValue(Number(e.target.value));
  });
  return input;
}

function display(game, field, value, hint) {
  // a secret list arrives as its count (Incognito's own words), a public one as a list
  if (hint.type === "count") return String(typeof value === "number" ? value : (value || []).length);
  if (value === null || value === undefined) {
    return hint.type === "numbers" ? t("settings.default") : t("settings.off");
  }
  if (hint.type === "select") return optionLabel(game, field, value, hint);
  if (hint.type === "levels") return value.map((n) => t(`level.${n}`)).join(" · ");
  if (hint.type === "optional") return t("settings.n_seconds", { n: value });
  if (typeof value === "boolean") return value ? t("settings.on") : t("settings.off");
  if (Array.isArray(value)) return value.join(" · ");
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

// The lobby's settings: controls for the host, a summary for others.
// onChange receives a partial settings object (the protocol merges it); skip
// lists fields the form leaves out (the room's agreements: no host sets them).
export function settingsEditor(game, settings, { editable, onChange, skip = [] }) {
  const rows = [];
  for (const [field, value] of Object.entries(settings || {})) {
    if (skip.includes(field)) continue;
    const hint = hintFor(game, field, value);
    if (hint.when && !hint.when(settings)) continue;
    const body = editable
      ? control(game, field, value, hint, onChange)
      : h("span", { class: "value", testid: `setting-${field}` }, display(game, field, value, hint));
    if (editable && hint.disabled?.(settings)) {
      // a number comes wrapped with its message: the field inside is what is disabled
      for (const el of [body, ...body.querySelectorAll("input, select")]) el.disabled = true;
    }
    rows.push(
      h(
        "div",
        { class: "setting-row" },
        h("label", { class: "label", for: `setting-${field}` }, label(game, field)),
        body,
      ),
    );
  }
  return h("div", { class: "settings", testid: "settings" }, rows);
}

// The start page's few choices; fills `choices` with what the user picks.
export function startChoices(game, choices) {
  const fields = gameOf(game).startFields || [];
  const defaults = Object.fromEntries(fields.map((field) => [field, declared(game, field).default ?? null]));
  const rows = fields.map((field) => {
    const value = defaults[field];
    const hint = hintFor(game, field, value);
    const onPatch = (patch) => {
      Object.assign(choices, patch);
      showWhenRelevant();
    };
    const body = control(game, field, value, hint, onPatch);
    if (hint.type === "optional") {
      const number = body.querySelector("input[type=number]");
      liveNumber(number, (v) => {
        if (!number.disabled) onPatch(hint.patch ? hint.patch(v) : { [field]: v });
      });
    }
    // A div, not a label: a label around a checkbox and a number would make
    // every tap on the number toggle the checkbox.
    const row = h(
      "div",
      { class: "field" },
      h("label", { class: "label", for: `setting-${field}` }, label(game, field)),
      body,
    );
    return { row, hint };
  });
  // A choice that only matters with another one (who starts against the
  // computer) hides while it does not, as in the lobby's editor.
  function showWhenRelevant() {
    const current = { ...defaults, ...choices };
    for (const { row, hint } of rows) row.hidden = Boolean(hint.when && !hint.when(current));
  }
  showWhenRelevant();
  return rows.map(({ row }) => row);
}
