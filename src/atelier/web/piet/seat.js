// The second player of a hot-seat game: a connection of its own to the same
// room, with its token under a key of its own (net.js keeps the first
// player's under atelier.token.<CODE>, and would overwrite it on a join).

import { setPalette } from "../dom.js";

const PROTOCOL_VERSION = 1;
const open = new Map(); // room code -> SeatConnection

export const seatKey = (code) => `atelier.piet.hotseat.${code.toUpperCase()}`;
export const seatToken = (code) => localStorage.getItem(seatKey(code));

function storeSeatToken(code, token) {
  if (token) localStorage.setItem(seatKey(code), token);
  else localStorage.removeItem(seatKey(code));
}

export class SeatConnection {
  constructor(code, lang) {
    this.code = code.toUpperCase();
    this.lang = lang;
    this.socket = null;
    this.nextId = 1;
    this.pending = new Map();
    this.player = null; // this seat's player id once welcomed
    this.seat = null;
    this.state = null;
    this.listeners = new Set();
    this.stopped = false;
    this.retry = 0;
    this.ready = null;
  }

  // Resolves once the server has welcomed us (and told us who we are).
  connect() {
    this.stopped = false;
    this.ready = new Promise((resolve) => {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      const socket = new WebSocket(`${scheme}://${location.host}/ws/${this.code}`);
      this.socket = socket;
      socket.addEventListener("open", () => {
        this.retry = 0;
        socket.send(JSON.stringify({ t: "hello", v: PROTOCOL_VERSION, token: seatToken(this.code), lang: this.lang }));
      });
      socket.addEventListener("message", (event) => {
        if (typeof event.data !== "string") return;
        let msg;
        try {
          msg = JSON.parse(event.data);
        } catch {
          return;
        }
        if (msg.t === "welcome") {
          setPalette(msg.colours);
          this.player = msg.you?.player ?? null;
          resolve(this);
        }
        this.receive(msg);
      });
      socket.addEventListener("close", (event) => {
        if (this.socket !== socket) return;
        this.socket = null;
        for (const { reject } of this.pending.values()) reject({ code: "disconnected" });
        this.pending.clear();
        resolve(this);
        if (!this.stopped && event.code !== 4404 && event.code !== 4400) {
          const delay = Math.min(8000, 300 * 2 ** this.retry);
          this.retry += 1;
          setTimeout(() => this.connect(), delay);
        }
      });
    });
    return this.ready;
  }

  receive(msg) {
    if (msg.t === "joined" && msg.token) {
      storeSeatToken(this.code, msg.token);
      this.player = msg.player?.id ?? this.player;
    }
    if (msg.t === "error" && (msg.code === "bad_token" || msg.code === "kicked")) {
      storeSeatToken(this.code, null);
      this.player = null;
    }
    if (msg.t === "state") {
      this.state = msg;
      this.player = msg.you?.player ?? this.player;
      this.seat = msg.you?.seat ?? null;
    }
    if ((msg.t === "ack" || msg.t === "error") && msg.id !== undefined) {
      const waiter = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (waiter) (msg.t === "ack" ? waiter.resolve : waiter.reject)(msg);
    }
    if (msg.t === "joined" || msg.t === "error") {
      const waiter = this.pending.get("join");
      if (waiter) {
        this.pending.delete("join");
        (msg.t === "joined" ? waiter.resolve : waiter.reject)(msg);
      }
    }
    for (const fn of this.listeners) fn(msg);
  }

  listen(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  get isOpen() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  request(msg) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (!this.isOpen) {
        reject({ code: "disconnected" });
        return;
      }
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ ...msg, id }));
    });
  }

  // The join answer has no id: wait for `joined` or the next error.
  join(name, colour) {
    return new Promise((resolve, reject) => {
      if (!this.isOpen) {
        reject({ code: "disconnected" });
        return;
      }
      this.pending.set("join", { resolve, reject });
      this.socket.send(JSON.stringify({ t: "join", name, colour }));
    });
  }

  setLanguage(code) {
    this.lang = code;
    if (this.isOpen) this.socket.send(JSON.stringify({ t: "lang", lang: code }));
  }

  async leave() {
    try {
      await this.request({ t: "leave" });
    } finally {
      storeSeatToken(this.code, null);
      this.close();
    }
  }

  close() {
    this.stopped = true;
    open.delete(this.code);
    this.socket?.close();
    this.socket = null;
  }
}

// The room's second-seat connection, opened once per page and shared by the
// lobby card and the game screen. Null when this browser holds no second seat.
export async function secondSeat(code, lang, { create = false } = {}) {
  const key = code.toUpperCase();
  if (open.has(key)) return open.get(key);
  if (!create && !seatToken(key)) return null;
  const conn = new SeatConnection(key, lang);
  open.set(key, conn);
  await conn.connect();
  if (!create && !conn.player) {
    conn.close();
    return null;
  }
  return conn;
}

export function dropSecondSeat(code) {
  open.get(code.toUpperCase())?.close();
}
