// The host's controls during a drawing game, in one sheet behind one button:
// what the screen offers (End round), going on without absent players, and
// taking a player out. A sheet, not a panel on the page, so however many
// players are away it never takes the canvas's room or covers anything.

import { colourCss, h, nameList, replace } from "./dom.js";
import { t, tn } from "./i18n.js";
import { onlyAbsentWaiting } from "./absent.js";

export class HostMenu {
  constructor(room) {
    this.room = room;
    this.dialog = null;
    this.body = null;
  }

  // The button that opens the sheet (a screen puts it in its bar); null unless host.
  button() {
    if (!this.room.state?.you?.host) return null;
    return h(
      "button",
      {
        class: "btn host-menu-btn",
        type: "button",
        testid: "host-menu",
        "aria-haspopup": "dialog",
        title: t("host.menu"),
        onclick: () => this.open(),
      },
      h("span", { "aria-hidden": "true" }, "⋯"),
      h("span", { class: "sr-only" }, t("host.menu")),
    );
  }

  open() {
    if (!this.dialog) {
      this.body = h("div", { class: "sheet-body host-sheet-body" });
      this.dialog = h(
        "dialog",
        { class: "sheet host-sheet", testid: "host-sheet", "aria-labelledby": "host-sheet-title" },
        h("h2", { class: "host-sheet-title", id: "host-sheet-title" }, t("host.menu")),
        this.body,
        h(
          "div",
          { class: "sheet-actions" },
          h(
            "button",
            { class: "btn", type: "button", testid: "host-sheet-close", onclick: () => this.close() },
            t("common.close"),
          ),
        ),
      );
      this.dialog.addEventListener("close", () => this.dialog?.remove());
    }
    document.body.append(this.dialog);
    this.paint();
    if (!this.dialog.open) this.dialog.showModal();
  }

  close() {
    if (this.dialog?.open) this.dialog.close();
    this.dialog?.remove();
  }

  get isOpen() {
    return Boolean(this.dialog?.open);
  }

  // A new state: repaint the open sheet, or close it once there is nothing to host.
  update(state) {
    if (!this.isOpen) return;
    if (!state?.you?.host || state.room.phase !== "playing") this.close();
    else this.paint();
  }

  // Runs a control, then closes the sheet (the state that follows shows the result).
  run(action) {
    if (action.confirm && !window.confirm(action.confirm)) return;
    this.close();
    action.run();
  }

  paint() {
    const state = this.room.state;
    const items = [];
    for (const action of this.room.screen?.hostActions?.() || []) {
      items.push(
        h(
          "button",
          { class: "btn host-action", type: "button", testid: action.testid, onclick: () => this.run(action) },
          action.label,
        ),
      );
    }
    const waiting = onlyAbsentWaiting(state);
    if (waiting) {
      items.push(
        h("p", { class: "hint" }, t("party.go_on_hint")),
        h(
          "button",
          {
            class: "btn primary host-action",
            type: "button",
            testid: "sheet-go-on",
            onclick: () => this.run({ run: () => this.room.send({ t: "go_on" }) }),
          },
          tn("party.go_on", { names: nameList(waiting.map((p) => p.name)) }),
        ),
      );
    }
    const players = state.room.players.filter((p) => p.seat !== null && p.seat !== undefined);
    const others = players.filter((p) => !p.removed && p.id !== state.you.player);
    if (others.length) {
      items.push(
        h("h3", { class: "host-sheet-sub" }, t("party.remove_menu")),
        h(
          "ul",
          { class: "host-remove-list", testid: "remove-players" },
          others.map((p) =>
            h(
              "li",
              { class: "host-remove-item" },
              h("span", { class: "swatch small", style: { background: colourCss(p.colour) } }),
              h("span", { class: "host-remove-name", title: p.name }, p.name),
              h(
                "button",
                {
                  class: "btn small ghost",
                  type: "button",
                  testid: `remove-${p.id}`,
                  "aria-label": t("party.remove", { name: p.name }),
                  onclick: () =>
                    this.run({
                      confirm: t("party.remove_confirm", { name: p.name }),
                      run: () => this.room.send({ t: "kick", player: p.id }),
                    }),
                },
                t("party.remove_short"),
              ),
            ),
          ),
        ),
      );
    }
    replace(this.body, items);
  }
}
