// Reactions and chat at the table (docs/web.md: `react`, `chat`, `talk_settings`, `talk`):
// the React menu (the presets and emoji the server lists, a chat line where the table allows
// it, the host's three settings), a bubble by the seat of whoever spoke, and each message in
// the moves list after the move it followed. What people write is only ever set as
// `textContent`: never HTML, never a link.

import { $, app, isSpectator, link, seatName } from "./table-state.js";

const BUBBLE_MS = 4500;
const SETTING_LABELS = [
  ["reactions", "Reactions from the seats"],
  ["watchers", "Watchers may react too"],
  ["chat", "Free-text chat"],
];

export const talk = {
  settings: null, // {reactions, watchers, chat}
  host: null, // the seat that may change them
  presets: [], // [{id, text, emoji}]
  maxChat: 200,
  bubbles: new Map(), // "seat-N" | "watcher" -> {item, until}
  seen: new Set(), // message ids already in the moves list
  onChange: () => {},
};

const el = (tag, attrs = {}, text = null) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  return node;
};

const isHost = () => !isSpectator() && talk.host !== null && app.seat === talk.host;

/** Whether this connection may send a reaction now (by the table's settings). */
export function maySpeak(kind = "react") {
  const s = talk.settings;
  if (!s) return false;
  if (isSpectator() && !s.watchers) return false;
  return kind === "chat" ? s.chat : s.reactions;
}

/** Start: `onChange` re-renders the moves list after messages arrive. */
export function initTalk({ onChange }) {
  talk.onChange = onChange;
  const menu = $("#talk-menu");
  if (!menu) return;
  menu.addEventListener("toggle", () => {
    if (!menu.open) return;
    // on a phone the menu spans the screen just under the button (talk.css)
    const pop = $("#talk-pop");
    const below = menu.querySelector("summary").getBoundingClientRect().bottom + 4;
    pop.style.top = window.innerWidth < 900 ? `${Math.round(below)}px` : "";
    pop.querySelector("button:not([disabled]), input")?.focus();
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && menu.open) {
      menu.open = false;
      menu.querySelector("summary").focus();
    }
  });
  document.addEventListener("click", (ev) => {
    if (menu.open && !menu.contains(ev.target)) menu.open = false;
  });
}

/** The `talk` part of a `welcome`: the settings, the presets and the latest messages. */
export function talkWelcome(data) {
  if (!data) return;
  talk.settings = data.settings;
  talk.host = data.host ?? null;
  talk.presets = data.presets || [];
  talk.maxChat = data.max_chat || 200;
  addItems(data.recent || [], { live: false });
  buildMenu();
}

/** A `talk` or `talk_settings` message. */
export function onTalk(msg) {
  if (msg.type === "talk_settings") {
    const before = talk.settings;
    talk.settings = msg.settings;
    buildMenu();
    if (before && !msg.id) note(settingsWords(before, msg.settings));
    return;
  }
  addItems(msg.items || [], { live: true });
}

function settingsWords(before, after) {
  const changed = SETTING_LABELS.filter(([k]) => before[k] !== after[k]);
  return changed.map(([k, label]) => `${label}: ${after[k] ? "on" : "off"}`).join("; ");
}

function addItems(items, { live }) {
  let added = false;
  for (const item of items) {
    if (talk.seen.has(item.id)) continue;
    talk.seen.add(item.id);
    const entry = { key: `talk:${item.id}`, seat: item.seat, talk: item, mine: !isSpectator() && item.seat === app.seat };
    insertInLog(entry, item.seq);
    added = true;
    if (live) showBubble(item);
  }
  if (added) talk.onChange();
}

/** Put a message after the move it followed (the last entry of that move or before). */
function insertInLog(entry, seq) {
  const log = app.log;
  let at = log.length;
  if (log.some((e) => e.event?.n > seq)) {
    at = 0;
    for (let i = 0; i < log.length; i++) {
      const n = log[i].event?.n ?? log[i].talk?.seq;
      if (n !== undefined && n > seq) break;
      at = i + 1;
    }
  }
  log.splice(at, 0, entry);
}

/** The moves list's lines of messages, filled as text (called after the list is drawn). */
export function fillTalk(list, items) {
  items.forEach((it, i) => {
    if (!it.talk) return;
    const li = list.children[i];
    if (!li) return;
    const item = it.talk;
    const who = item.seat === null ? item.name : seatName(item.seat);
    li.replaceChildren(
      el("span", { class: "talk-mark", "aria-hidden": "true" }, item.preset ? "★" : "❝"),
      el("b", { class: "talk-who" }, `${who}: `),
      el("span", { class: `talk-text${item.preset ? " preset" : ""}` }, item.text ?? ""),
    );
  });
}

// --- bubbles ---------------------------------------------------------------------------------

function bubbleKey(item) {
  return item.seat === null ? "watcher" : `seat-${item.seat}`;
}

function showBubble(item) {
  talk.bubbles.set(bubbleKey(item), { item, until: Date.now() + BUBBLE_MS });
  placeBubbles();
  setTimeout(placeBubbles, BUBBLE_MS + 50);
  const live = $("#talk-live");
  if (live) live.textContent = `${item.seat === null ? item.name : seatName(item.seat)}: ${item.text}`;
}

function anchorOf(key) {
  if (key === "watcher") return $("#board");
  const seat = Number(key.slice(5));
  if (!isSpectator() && seat === app.seat) return $("#me-head");
  return document.querySelector(`#seats [data-flash="${key}"]`) || document.querySelector(`[data-flash="${key}"]`);
}

/** Show the bubbles that have not expired by their seats (after every render). */
export function placeBubbles() {
  const layer = $("#talk-bubbles");
  if (!layer) return;
  const now = Date.now();
  layer.replaceChildren();
  for (const [key, { item, until }] of talk.bubbles) {
    if (until < now) {
      talk.bubbles.delete(key);
      continue;
    }
    const anchor = anchorOf(key);
    if (!anchor) continue;
    const r = anchor.getBoundingClientRect();
    const mine = key !== "watcher" && !isSpectator() && item.seat === app.seat;
    const bubble = el("div", { class: `talk-bubble${item.preset && isEmoji(item) ? " emoji" : ""}${mine ? " up" : ""}`, "data-talk-seat": key });
    if (!mine) {
      bubble.append(el("span", { class: "talk-who" }, item.seat === null ? item.name : seatName(item.seat)));
    }
    bubble.append(el("span", { class: "talk-text" }, item.text ?? ""));
    layer.append(bubble);
    const w = bubble.offsetWidth;
    const h = bubble.offsetHeight;
    const left = Math.max(6, Math.min(window.innerWidth - w - 6, r.left + Math.min(24, r.width / 4)));
    let top = mine ? r.top - h - 8 : r.bottom + 8;
    if (key === "watcher") top = r.top + 8;
    top = Math.max(6, Math.min(window.innerHeight - h - 6, top));
    bubble.style.left = `${Math.round(left)}px`;
    bubble.style.top = `${Math.round(top)}px`;
    bubble.style.setProperty("--tail", `${Math.round(Math.max(12, Math.min(w - 20, r.left + r.width / 2 - left)))}px`);
  }
}

function isEmoji(item) {
  return talk.presets.find((p) => p.id === item.preset)?.emoji ?? false;
}

// --- the menu --------------------------------------------------------------------------------

function note(text, kind = "info") {
  const box = $("#talk-note");
  if (!box) return;
  box.textContent = text || "";
  box.className = `talk-note ${kind}`;
  box.hidden = !text;
}

async function send(message) {
  if (!link.sock) return;
  const reply = await link.sock.request(message);
  if (reply.type === "error") {
    note(reply.message || "not sent", "error");
    return;
  }
  note("");
  if (message.type !== "talk_settings") {
    const menu = $("#talk-menu");
    if (menu) menu.open = false;
  }
}

function buildMenu() {
  const menu = $("#talk-menu");
  if (!menu || !talk.settings) return;
  const s = talk.settings;
  const speak = maySpeak("react");
  const chat = maySpeak("chat");
  menu.hidden = isSpectator() && !s.watchers; // a seat sees why it may not, when it may not
  const pop = $("#talk-pop");
  const wasFocused = pop.contains(document.activeElement) ? document.activeElement.dataset.preset : null;
  const parts = [];
  if (!speak && !chat) {
    parts.push(el("p", { class: "talk-off" }, "Reactions are off at this table."));
  }
  if (speak) {
    const phrases = el("div", { class: "talk-presets", role: "group", "aria-label": "Phrases" });
    const emoji = el("div", { class: "talk-emoji", role: "group", "aria-label": "Emoji" });
    for (const p of talk.presets) {
      const b = el("button", { type: "button", class: p.emoji ? "btn talk-e" : "btn talk-p", "data-preset": p.id }, p.text);
      b.addEventListener("click", () => send({ type: "react", preset: p.id }));
      (p.emoji ? emoji : phrases).append(b);
    }
    parts.push(emoji, phrases);
  }
  if (chat) {
    const form = el("form", { class: "talk-chat" });
    const input = el("input", { type: "text", maxlength: String(talk.maxChat), autocomplete: "off", "aria-label": "Message to the table", placeholder: "Message" });
    const button = el("button", { type: "submit", class: "btn btn-primary" }, "Send");
    form.append(input, button);
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      send({ type: "chat", text }).then(() => {
        if (!$("#talk-note").classList.contains("error")) input.value = "";
      });
    });
    parts.push(form);
  }
  parts.push(el("p", { id: "talk-note", class: "talk-note", role: "status", hidden: "" }));
  if (isHost()) {
    const box = el("fieldset", { class: "talk-host" });
    box.append(el("legend", {}, "Talk at this table (you are its host)"));
    for (const [key, label] of SETTING_LABELS) {
      const lab = el("label", { class: "check" });
      const input = el("input", { type: "checkbox", "data-setting": key });
      input.checked = !!s[key];
      input.addEventListener("change", () => send({ type: "talk_settings", [key]: input.checked }));
      lab.append(input, document.createTextNode(` ${label}`));
      box.append(lab);
    }
    parts.push(box);
  }
  pop.replaceChildren(...parts);
  if (wasFocused) pop.querySelector(`[data-preset="${wasFocused}"]`)?.focus();
}
