// Which seats this page moves for (its own, plus a hot-seat second player's
// through seat.js) and sending a move through the right connection.

import { toast } from "../dom.js";
import { errorText, lang } from "../i18n.js";
import { secondSeat } from "./seat.js";

export async function connectSecond(screen) {
  const conn = await secondSeat(screen.room.code, lang());
  if (!conn) return;
  screen.second = conn;
  screen.unlisten = conn.listen((msg) => {
    if (msg.t === "state") {
      screen.secondSeat = msg.you?.seat ?? null;
      if (screen.state) screen.refresh();
    }
  });
  screen.secondSeat = conn.seat;
  if (screen.state) screen.refresh();
}

// The connection that speaks for a seat this page controls.
export function connectionFor(screen, seat) {
  return seat === screen.mySeat ? screen.room.conn : screen.second;
}

export async function sendMove(screen, text) {
  const seat = screen.actor;
  if (seat === null) return;
  const action = { type: "move", move: text };
  screen.sending = true;
  try {
    await connectionFor(screen, seat).request({ t: "act", action });
    screen.resetChoice();
  } catch (error) {
    // The room toasts its own connection's errors; the second seat's are ours.
    if (seat !== screen.mySeat && error?.code) toast(errorText(error));
  } finally {
    screen.sending = false;
    screen.refresh();
  }
}
