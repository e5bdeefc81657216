// The room's WebSocket (docs/protocol.md): hello with the stored token,
// reconnect with backoff, acks by id, binary ink frames passed through.

import { setPalette } from "./dom.js";

const PROTOCOL_VERSION = 1;

// Each binary message is an ink bundle (we ask for them with ?ink=bundles):
// entries of [length u16 BE][seat u8][batch], length counting seat and batch.
// Calls onFrame(seat, batch) for each; a truncated entry ends the bundle.
export function splitBundle(bytes, onFrame) {
  let i = 0;
  while (i + 2 <= bytes.length) {
    const size = (bytes[i] << 8) | bytes[i + 1];
    const end = i + 2 + size;
    if (size < 1 || end > bytes.length) return;
    onFrame(bytes[i + 2], bytes.subarray(i + 3, end));
    i = end;
  }
}

const tokenKey = (code) => `atelier.token.${code.toUpperCase()}`;
// The creator's host credential from POST /api/rooms: sent with the join, so
// the creator is host even if a friend sat down first.
const hostKeyKey = (code) => `atelier.hostkey.${code.toUpperCase()}`;

function keep(key, value) {
  if (value) localStorage.setItem(key, value);
  else localStorage.removeItem(key);
}

export const storedToken = (code) => localStorage.getItem(tokenKey(code));
export const storedHostKey = (code) => localStorage.getItem(hostKeyKey(code));
export const storeHostKey = (code, key) => keep(hostKeyKey(code), key);

export class RoomConnection {
  // handlers: {message(msg), ink(seat, bytes), status(state), closed(code)}
  // keyOf: where this connection keeps its player's token (a second player on
  // the same device, Piet's hot seat, keeps theirs under a key of its own).
  // hostKey: the creator's key to say hello with (the room's own page, not
  // the TV or a second seat): while the creator is here unseated, nobody else
  // becomes host.
  constructor(code, language, handlers, { keyOf = tokenKey, hostKey = false } = {}) {
    this.code = code.toUpperCase();
    this.sendsHostKey = hostKey;
    this.language = language;
    this.handlers = handlers;
    this.tokenKey = keyOf(this.code);
    this.socket = null;
    this.nextId = 1;
    this.pending = new Map();
    this.retry = 0;
    this.stopped = true; // until connect()
    this.lastSeq = -1;
    this.seatedAs = null;
    this.pingTimer = null;
    this.retryTimer = null;
    // The network's own news: gone, the socket is dead (say so, stop trying);
    // back, reconnect at once instead of at the end of a backoff.
    this.onOffline = () => {
      this.socket?.close();
      this.handlers.status?.("offline");
    };
    this.onOnline = () => {
      if (this.stopped || this.socket) return;
      clearTimeout(this.retryTimer);
      this.retry = 0;
      this.connect();
    };
  }

  // No network: the page says so until it is back (the "online" event reconnects).
  get offline() {
    return !navigator.onLine || (!this.open && this.retry >= 2);
  }

  connect() {
    if (this.stopped) {
      window.addEventListener("offline", this.onOffline);
      window.addEventListener("online", this.onOnline);
    }
    this.stopped = false;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/${this.code}?ink=bundles`);
    socket.binaryType = "arraybuffer";
    this.socket = socket;
    this.handlers.status?.("connecting");
    socket.addEventListener("open", () => {
      this.retry = 0;
      socket.send(
        JSON.stringify({
          t: "hello",
          v: PROTOCOL_VERSION,
          token: this.spectator ? null : localStorage.getItem(this.tokenKey),
          lang: this.language,
          ...(this.sendsHostKey && !this.spectator && storedHostKey(this.code)
            ? { host_key: storedHostKey(this.code) }
            : {}),
        }),
      );
      this.handlers.status?.("open");
      clearInterval(this.pingTimer);
      // Keeps idle connections alive through proxies and notices dead ones.
      this.pingTimer = setInterval(() => this.sendRaw({ t: "ping" }), 20000);
    });
    socket.addEventListener("message", (event) => this.receive(event.data));
    socket.addEventListener("close", (event) => {
      clearInterval(this.pingTimer);
      if (this.socket !== socket) return;
      this.socket = null;
      for (const { reject } of this.pending.values()) reject({ code: "disconnected" });
      this.pending.clear();
      const fatal = event.code === 4404 || event.code === 4400;
      if (!this.stopped && !fatal && navigator.onLine) {
        const delay = Math.min(8000, 300 * 2 ** this.retry) * (0.75 + Math.random() / 2);
        this.retry += 1;
        clearTimeout(this.retryTimer);
        this.retryTimer = setTimeout(() => this.connect(), delay);
      }
      this.handlers.status?.(navigator.onLine ? "closed" : "offline");
      this.handlers.closed?.(event.code);
    });
  }

  receive(data) {
    if (data instanceof ArrayBuffer) {
      splitBundle(new Uint8Array(data), (seat, batch) => this.handlers.ink?.(seat, batch));
      return;
    }
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (msg.t === "welcome") setPalette(msg.colours);
    if (msg.t === "joined" && msg.token) this.keepToken(msg.token);
    if (msg.t === "error" && (msg.code === "bad_token" || msg.code === "kicked")) this.keepToken(null);
    if (msg.t === "state") {
      if (typeof msg.seq === "number" && msg.seq < this.lastSeq) return;
      if (typeof msg.seq === "number") this.lastSeq = msg.seq;
      // this connection's player left the room: the stored token seats no one now
      // (a connection that never sat, a spectator tab, leaves the token alone)
      const player = msg.you ? msg.you.player : null;
      if (player === null && this.seatedAs) this.keepToken(null);
      this.seatedAs = player;
    }
    if ((msg.t === "ack" || msg.t === "error") && msg.id !== undefined) {
      const waiter = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (waiter) {
        if (msg.t === "ack") waiter.resolve(msg);
        else waiter.reject(msg);
        if (waiter.quiet && msg.t === "error") return; // the asker shows it its own way
      }
    }
    this.handlers.message?.(msg);
  }

  keepToken(token) {
    keep(this.tokenKey, token);
  }

  get open() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  sendRaw(msg) {
    if (!this.open) return false;
    this.socket.send(JSON.stringify(msg));
    return true;
  }

  // Resolves on ack, rejects with the error message (already shown by the
  // app's error handler, so callers rarely need to catch; with quiet, the
  // caller shows it instead).
  request(msg, { quiet = false } = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (!this.sendRaw({ ...msg, id })) {
        reject({ code: "disconnected" });
        return;
      }
      this.pending.set(id, { resolve, reject, quiet });
    });
  }

  send(msg) {
    return this.sendRaw(msg);
  }

  sendInk(bytes) {
    if (!this.open) return false;
    this.socket.send(bytes);
    return true;
  }

  setLanguage(code) {
    this.language = code;
    this.sendRaw({ t: "lang", lang: code });
  }

  close() {
    this.stopped = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    window.removeEventListener("offline", this.onOffline);
    window.removeEventListener("online", this.onOnline);
    if (this.socket) this.socket.close();
    this.socket = null;
  }
}
