// Moving a seat to another device (docs/protocol.md, "Seats and nudges"): the
// device with the seat asks for a one-time link (and its QR code); the device
// that opens it claims the seat, which gets a new token there. The old
// device's token stops working; a link works once.

import { h, toast } from "./dom.js";
import { errorText, t } from "./i18n.js";
import { storedToken } from "./net.js";
import { forgetNudges } from "./push.js";

const TRANSFER = /^#transfer=([A-Za-z0-9_-]{8,128})$/;
const tokenKey = (code) => `atelier.token.${code.toUpperCase()}`;

// On a room page opened from a transfer link: claim the seat before the room
// connects (it then says hello with the new token). The link leaves the address
// bar and the history at once, so it is not shared or used again by mistake.
export async function claimFromLink(code) {
  const found = TRANSFER.exec(location.hash);
  if (!found) return;
  history.replaceState(history.state, "", location.pathname);
  try {
    const response = await fetch(`/api/rooms/${code}/claim`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ transfer: found[1] }),
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw data;
    localStorage.setItem(tokenKey(code), data.token);
    forgetNudges(code); // this device's nudges are its own to turn on
    toast(t("corr.transfer_done"), "info");
  } catch (error) {
    toast(errorText(error));
  }
}

// The panel's part: a button, then the link, its QR code and a copy button.
export function transferPanel(code) {
  const box = h("div", { class: "seat-move", testid: "seat-move" });
  const button = h(
    "button",
    { class: "btn", type: "button", testid: "seat-move-offer", onclick: () => offer() },
    t("corr.transfer"),
  );
  box.append(button);
  async function offer() {
    button.disabled = true;
    try {
      const response = await fetch(`/api/rooms/${code}/transfer`, {
        method: "POST",
        headers: { Authorization: `Bearer ${storedToken(code)}` },
      });
      const data = await response.json().catch(() => ({}));
      if (!response.ok) throw data;
      const link = h("input", {
        class: "input",
        readonly: true,
        value: data.url,
        testid: "seat-move-link",
        "aria-label": t("corr.transfer"),
      });
      box.replaceChildren(
        h("p", { class: "hint" }, t("corr.transfer_help")),
        h("img", {
          class: "seat-move-qr",
          alt: t("corr.transfer"),
          src: `data:image/svg+xml;base64,${btoa(data.qr)}`,
          testid: "seat-move-qr",
        }),
        link,
        h(
          "button",
          {
            class: "btn",
            type: "button",
            onclick: async () => {
              await navigator.clipboard?.writeText(data.url).catch(() => link.select());
              toast(t("corr.transfer_copied"), "info");
            },
          },
          t("corr.transfer_copy"),
        ),
      );
    } catch (error) {
      button.disabled = false;
      toast(errorText(error));
    }
  }
  return box;
}
