// The second player of a hot-seat game: a RoomConnection of its own to the
// same room, with its token under a key of its own (the first player's stays
// under net.js's atelier.token.<CODE>, which a second join would overwrite).

import { RoomConnection } from "../net.js";

const open = new Map(); // room code -> SecondSeat

export const seatKey = (code) => `atelier.piet.hotseat.${code.toUpperCase()}`;
export const seatToken = (code) => localStorage.getItem(seatKey(code));

class SecondSeat extends RoomConnection {
  constructor(code, language) {
    super(code, language, {}, { keyOf: seatKey });
    this.player = null; // this seat's player id once welcomed
    this.seat = null;
    this.listeners = new Set();
    // Settled by the welcome (which says who we are) or by the socket closing first.
    this.welcomed = new Promise((resolve) => {
      this.handlers = {
        message: (msg) => {
          if (msg.t === "welcome") resolve(this);
          this.heard(msg);
        },
        closed: () => resolve(this),
      };
    });
  }

  heard(msg) {
    if (msg.t === "welcome") this.player = msg.you?.player ?? null;
    if (msg.t === "joined") this.player = msg.player?.id ?? this.player;
    if (msg.t === "error" && (msg.code === "bad_token" || msg.code === "kicked")) this.player = null;
    if (msg.t === "state") {
      this.player = msg.you?.player ?? null;
      this.seat = msg.you?.seat ?? null;
    }
    for (const fn of this.listeners) fn(msg);
  }

  listen(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  join(name, colour) {
    return this.request({ t: "join", name, colour });
  }

  async leave() {
    try {
      await this.request({ t: "leave" });
    } finally {
      this.keepToken(null);
      this.close();
    }
  }

  close() {
    open.delete(this.code);
    super.close();
  }
}

// The room's second-seat connection, opened once per page and shared by the
// lobby card and the game screen. Null when this browser holds no second seat.
export async function secondSeat(code, lang, { create = false } = {}) {
  const key = code.toUpperCase();
  if (open.has(key)) return open.get(key).welcomed;
  if (!create && !seatToken(key)) return null;
  const conn = new SecondSeat(key, lang);
  open.set(key, conn);
  conn.connect();
  await conn.welcomed;
  if (!create && !conn.player) {
    conn.close();
    return null;
  }
  return conn;
}
