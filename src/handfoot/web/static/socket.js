// The table's WebSocket: hello with the last seq, reconnect with back-off, keep-alive,
// request ids so that replies (ack/error/checked/hint) find their caller.
//
//   const sock = new GameSocket({gameId, token, onWelcome, onState, onPresence, onStatus, onRematch, onError, onTalk});
//   sock.connect();
//   await sock.request({type: "move", move: "draw"})   // resolves with the ack or error frame
//   sock.request({type: "move", move: "draw"}, (reply) => ...)  // ... called at once, before
//                                                       // the state that shows the move
//
// The hello asks for "acks": "state": a move's ack comes within the state that shows it
// (that state carries the move's id), one frame where there were two; the socket hands the
// caller an ack made from it before the state goes to onState, as when the ack came first.
//   await sock.request({type: "check", move: "meld K K K"})  // resolves with "checked"

const PING_MS = 25000;
const REPLY_TIMEOUT_MS = 15000;

export class GameSocket {
  constructor({ gameId, token, url = null, onWelcome, onState, onPresence, onStatus, onRematch, onError, onTalk }) {
    this.gameId = gameId;
    this.token = token;
    this.url = url || `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${encodeURIComponent(gameId)}`;
    this.handlers = { onWelcome, onState, onPresence, onStatus, onRematch, onError, onTalk };
    this.seq = 0;
    this.ws = null;
    this.attempt = 0;
    this.nextId = 1;
    // request ids are unique across page loads too: the server answers a repeated id
    // with the ack of the move it first came with (a reloaded page starting again at c1
    // had its moves taken for duplicates and silently dropped)
    this.idPrefix = `c${Math.random().toString(36).slice(2, 10)}-`;
    this.pending = new Map(); // id -> {resolve, timer}
    this.closedByUs = false;
    this.pingTimer = null;
    this.status = "connecting";
  }

  setStatus(status, detail = "") {
    this.status = status;
    this.handlers.onStatus?.(status, detail);
  }

  connect() {
    this.closedByUs = false;
    this.setStatus(this.attempt ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch (err) {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "hello", token: this.token, seq: this.seq, acks: "state" }));
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), PING_MS);
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.dispatch(msg);
    };
    ws.onclose = (ev) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      // fail every request in flight: the state after reconnecting tells what happened
      for (const [id, p] of this.pending) {
        clearTimeout(p.timer);
        p.resolve({ type: "error", id, code: "disconnected", message: "connection lost; reconnecting" });
      }
      this.pending.clear();
      if (this.closedByUs) return;
      if (ev.code === 4401 || ev.code === 4403 || this.status === "auth") {
        this.setStatus("auth", "this link is not valid for this game");
        return;
      }
      this.scheduleReconnect();
    };
    ws.onerror = () => {};
  }

  scheduleReconnect() {
    this.attempt += 1;
    const base = Math.min(15000, 500 * 2 ** Math.min(this.attempt - 1, 5));
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    this.setStatus("reconnecting", `reconnecting in ${Math.ceil(delay / 1000)} s`);
    setTimeout(() => this.connect(), delay);
  }

  close() {
    this.closedByUs = true;
    this.ws?.close();
  }

  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Send a message with a fresh id; resolves with the reply frame carrying that id (for a
   * move, its ack or error), which is also given to onReply at once, before any later frame
   * is dispatched (a move's ack before the state that shows the move). */
  request(msg, onReply = null) {
    const id = `${this.idPrefix}${this.nextId++}`;
    const full = { ...msg, id };
    if (msg.type === "move") full.seq = this.seq;
    return new Promise((resolve) => {
      if (!this.send(full)) {
        resolve({ type: "error", id, code: "disconnected", message: "not connected; reconnecting" });
        return;
      }
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve({ type: "error", id, code: "timeout", message: "no answer from the server" });
      }, REPLY_TIMEOUT_MS);
      this.pending.set(id, { resolve, timer, onReply });
    });
  }

  dispatch(msg) {
    switch (msg.type) {
      case "welcome":
        this.attempt = 0;
        this.setStatus("online");
        this.handlers.onWelcome?.(msg);
        return;
      case "state":
        if (typeof msg.seq === "number") this.seq = msg.seq;
        if (msg.id && this.pending.has(msg.id)) { // the ack of a move, within its state
          this.settle({ type: "ack", id: msg.id, seq: msg.seq });
        }
        this.handlers.onState?.(msg);
        return;
      case "presence":
        this.handlers.onPresence?.(msg.presence);
        return;
      case "pong":
        return;
      case "rematch":
        this.handlers.onRematch?.(msg);
        return;
      case "talk":
      case "talk_settings":
        this.handlers.onTalk?.(msg);
        break;
      case "pace":
        this.handlers.onPace?.(msg);
        break;
      case "error":
        if (msg.code === "auth") {
          this.setStatus("auth", msg.message || "this link is not valid for this game");
        }
        break;
      case "ack":
        if (typeof msg.seq === "number" && msg.seq > this.seq) this.seq = msg.seq;
        break;
      default:
        break;
    }
    if (msg.id && this.pending.has(msg.id)) {
      this.settle(msg);
    } else if (msg.type === "error") {
      this.handlers.onError?.(msg);
    }
  }

  /** The reply to a pending request: its caller's onReply now, then its promise. */
  settle(msg) {
    const p = this.pending.get(msg.id);
    this.pending.delete(msg.id);
    clearTimeout(p.timer);
    p.onReply?.(msg);
    p.resolve(msg);
  }
}
