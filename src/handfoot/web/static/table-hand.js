// Your part of the table: the bar over your hand (packets, whose turn, the stall warning),
// the staged melds, the message line, your cards and the selection, the move buttons, and
// the partner's question. Which of your side's melds the selection can join glows, from the
// view's `kinds` alone: selecting cards sends nothing to the server.

import { cardBack, cardChip, cardLabel, cardSvg, kindOf } from "./cards.js";
import { meldName } from "./table-board.js";
import { groupText } from "./table-notation.js";
import {
  $, app, bottomSeat, forgetHtml, handEntries, isSpectator, joinableMelds, legal, link,
  myMelds, mySide, myTurn, openingMinimum, packetText, playingText, seatName, selectedCodes,
  setHtml, trayGroups, trayKeys,
} from "./table-state.js";
import { esc, number } from "./text.js";

export function renderMe() {
  const v = app.view;
  const me = bottomSeat();
  const p = v.packets?.[me] || { hand: 0, foot: 0 };
  const turn = v.to_act === me && v.phase !== "game_over";
  const online = app.presence[me] !== false;
  $("#me-head").innerHTML =
    `<span class="me-name${turn ? " turn" : ""}" data-flash="seat-${me}">${turn ? '<span class="turn-mark" aria-hidden="true">▶</span>' : ""}<b>${esc(isSpectator() ? seatName(me) : "You")}</b>` +
    `${isSpectator() ? ` <span class="presence ${online ? "on" : "off"}">${online ? "online" : "away"}</span>` : ""}</span>` +
    `<span class="me-packets">${packetText(p)} · <b>playing from ${playingText(p)}</b></span>`;
  $("#status").textContent = statusText();
  const stall = stallText(app.view);
  $("#stall").textContent = stall;
  $("#stall").hidden = !stall;
  $("#status").classList.toggle("your-turn", myTurn() || !!legal().answer);
  renderTray();
  renderMessage();
  renderHand();
  renderActions();
}

// A round that stalls (nobody draws from the stock or lays a card) ends after stall.limit
// turns in a row; warn once a whole turn round the table has passed that way.
function stallText(v) {
  const st = v.stall;
  if (!st || v.phase === "game_over" || app.waiting || st.turns < v.players) return "";
  const left = Math.max(st.limit - st.turns, 0);
  return `The round ends in ${left} turn${left === 1 ? "" : "s"} unless someone draws or melds`;
}

function statusText() {
  const v = app.view;
  if (v.phase === "game_over") return "Game over";
  if (app.waiting) return `Round ${app.waiting.round ?? v.round} is over`;
  const l = legal();
  if (v.phase === "answer") {
    if (l.answer && v.asking !== null && v.asking !== undefined) return `${seatName(v.asking)} asks: may I go out?`;
    const asker = v.turn;
    const answerer = v.to_act;
    if (asker === app.seat) return `Waiting for ${seatName(answerer)}'s answer…`;
    return `${seatName(asker)} asks ${seatName(answerer, { you: false })}: may I go out?`;
  }
  if (myTurn()) {
    if (v.phase === "draw") return "Your turn: draw or pick up the pile";
    return `Your turn: meld, then discard${l.go_out ? " (or go out)" : ""}`;
  }
  if (isSpectator()) return `${seatName(v.to_act)} to play`;
  return `${seatName(v.to_act)} is playing…`;
}

// --- the staged melds and the message line ----------------------------------------------------

// The staged melds: one line on a phone (the board keeps its room for your side's melds),
// opened with its toggle for the whole reason and Return all; always open on a wide screen.
export function trayOpen() {
  return app.trayOpen ?? window.innerWidth >= 600;
}

export function renderTray() {
  const el = $("#tray");
  if (isSpectator() || !app.tray.length) {
    el.hidden = true;
    el.innerHTML = "";
    return;
  }
  el.hidden = false;
  const groups = trayGroups();
  const check = app.trayCheck;
  const open = trayOpen();
  const draw = app.view.phase === "draw";
  const opened = app.view.opened?.[mySide()];
  el.classList.toggle("open", open);
  const state = draw ? "" : check ? (check.ok ? "ok" : "bad") : "";
  const mark = draw ? "" : check ? (check.ok ? "✓ ready" : "✗ not yet") : "…";
  const cardW = window.innerWidth < 600 ? 24 : 30;
  const reason = draw ? `These go down with the pile: ${esc(check?.message || "")}`
    : !check ? "checking…"
    : check.ok ? "✓ ready to lay down"
    : `✗ ${check.refused ? "<b>Not allowed:</b> " : ""}${esc(check.message)}`;
  el.innerHTML = `<div class="tray-line">` +
    `<button type="button" class="tray-sum" id="btn-tray-toggle" aria-expanded="${open}" aria-controls="tray-foot" ` +
    `title="Staged melds are laid down together${opened ? "" : `; the opening needs ${number(openingMinimum(mySide()))}`}">` +
    `<span><b>Staged</b> <span class="tray-caret" aria-hidden="true">${open ? "▾" : "▸"}</span></span><span class="tray-mark ${state}">${mark}</span></button>` +
    `<div class="tray-groups">${groups.map((g, i) =>
      `<div class="tray-group" data-drop="staged" data-group="${i}"><span class="tray-cards">${g.map((c) => cardSvg(c, { width: cardW, fourColour: app.fourColour })).join("")}</span>` +
      `<button type="button" class="tray-x" data-untray="${i}" aria-label="return ${esc(groupText(g))} to your hand">✕</button></div>`).join("")}</div>` +
    (draw
      ? `<button type="button" class="btn btn-primary" id="btn-tray-pickup" ${app.busy || !legal().pickup ? "disabled" : ""}>Pick up <kbd>P</kbd></button>`
      : `<button type="button" class="btn${check?.ok ? " btn-primary" : ""}" id="btn-laydown" ${app.busy ? "disabled" : ""}>Lay down <kbd>M</kbd></button>`) +
    `</div>` +
    `<div class="tray-foot" id="tray-foot"${open ? "" : " hidden"}>` +
    `<span class="tray-check ${state}"${check?.refused ? ' role="alert"' : ""}>${reason}</span>` +
    `<button type="button" class="btn btn-quiet" id="btn-untray-all">Return all</button></div>`;
}

export function setMessage(kind, html, extra = "") {
  app.message = html ? { kind, html, extra } : null;
  renderMessage();
}

function renderMessage() {
  const el = $("#message");
  if (!app.message) {
    el.hidden = true;
    el.innerHTML = "";
    return;
  }
  el.hidden = false;
  el.className = `message ${app.message.kind}`;
  const icon = { error: "!", info: "i", hint: "?" }[app.message.kind] || "";
  // on a phone a hint is one line (tap it for the rest): the board keeps its room
  el.innerHTML = `<span class="msg-icon" aria-hidden="true">${icon}</span><span class="msg-text">${app.message.html}</span>` +
    `${app.message.extra || ""}<button type="button" class="msg-x" aria-label="dismiss message">✕</button>`;
}

// --- the hand -------------------------------------------------------------------------------

/** The cards of the hint's move (its `kinds`, as the server sends them), one key each. */
function hintedKeys() {
  const want = {};
  for (const k of app.hint?.kinds || []) want[k] = (want[k] || 0) + 1;
  const out = new Set();
  for (const e of handEntries()) {
    const k = kindOf(e.code);
    if (want[k] > 0) {
      out.add(e.key);
      want[k] -= 1;
    }
  }
  return out;
}

export function renderHand() {
  const el = $("#hand");
  const v = app.view;
  if (isSpectator()) {
    const p = v.packets?.[0] || { hand: 0 };
    const count = p.in_foot || p.playing === "foot" ? p.foot : p.hand;
    const w = handCardWidth();
    forgetHtml(el);
    el.innerHTML = `<div class="hand-backs" aria-label="${esc(seatName(0))} holds ${count} cards">` +
      Array.from({ length: Math.min(count, 30) }, (_, i) => `<span class="back-card" style="left:${i * 14}px">${cardBack({ width: w })}</span>`).join("") +
      `</div>`;
    el.querySelector(".hand-backs").style.width = `${w + 14 * Math.max(0, count - 1)}px`;
    el.querySelector(".hand-backs").style.height = `${Math.round(w * 1.4)}px`;
    return;
  }
  const hidden = new Set([...trayKeys(), ...app.laid]);
  const entries = handOrder(handEntries().filter((e) => !hidden.has(e.key)));
  const hinted = hintedKeys();
  const active = document.activeElement;
  const focusKey = active?.dataset?.key || app.focusKey;
  // the focus fell to the page when its card left the hand (played, staged): a neighbour
  const lost = !active || active === document.body || (el.contains(active) && !!active.dataset?.key);
  // layout: one row of overlapping cards, each card's index (its rank and suit, top left)
  // in sight; a small gap between kinds; the row scrolls sideways when the hand is longer
  // than the screen is wide, never a second row over the first
  const w = handCardWidth();
  const h = Math.round(w * 1.4);
  const width = Math.max(200, el.clientWidth - 4);
  const minStride = Math.max(32, Math.round(w * 0.6));
  const gap = 5;
  const rowWidth = (s) => {
    let x = 0;
    for (let i = 1; i < entries.length; i++) x += s + (groupOf(entries[i]) !== groupOf(entries[i - 1]) ? gap : 0);
    return x + w;
  };
  let stride = Math.round(w * 0.74);
  while (stride > minStride && rowWidth(stride) > width) stride -= 1;
  const placed = [];
  let x = 0;
  entries.forEach((e, i) => {
    if (i) x += stride + (groupOf(e) !== groupOf(entries[i - 1]) ? gap : 0);
    placed.push({ ...e, x });
  });
  el.style.height = `${h + 26}px`; // room for a selected card raised and its mark
  const innerWidth = entries.length ? x + w + 4 : 0;
  setHtml(el, !entries.length ? `<div class="hand-empty">${app.tray.length ? "All your cards are staged" : "No cards in hand"}</div>` :
    `<div class="hand-inner" style="height:${el.style.height};width:${innerWidth}px">` + placed.map((e) => {
    const sel = app.selection.has(e.key);
    const hint = hinted.has(e.key);
    return `<button type="button" class="hand-card${sel ? " selected" : ""}${hint ? " hinted" : ""}" data-key="${e.key}" ` +
      `style="left:${e.x}px;top:22px;width:${w}px" ` +
      `aria-pressed="${sel}" aria-label="${esc(cardLabel(e.code))}${sel ? ", selected" : ""}${hint ? ", hinted" : ""}">` +
      `${cardSvg(e.code, { width: w, fourColour: app.fourColour, selected: sel, label: "" })}` +
      (sel ? '<span class="sel-mark" aria-hidden="true">✓</span>' : "") +
      `</button>`;
  }).join("") + `</div>`);
  if (focusKey) {
    let f = el.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
    if (!f && lost && app.handKeys.includes(focusKey)) {
      f = neighbour(el, app.handKeys, focusKey);
      app.focusKey = f?.dataset?.key || null;
      if (!f) el.focus({ preventScroll: true }); // no card left: the hand itself
    }
    if (f && el.contains(document.activeElement) === false && app.focusKey) f.focus({ preventScroll: true });
    else if (f && document.activeElement?.dataset?.key) f.focus({ preventScroll: true });
  }
  app.handKeys = placed.map((e) => e.key);
}

/** The card shown next to `key` (which has left the hand) in the hand as it was (`before`,
 * its keys in order): the next one still there, else the one before. */
function neighbour(el, before, key) {
  const i = before.indexOf(key);
  for (let d = 1; d < before.length; d++) {
    for (const j of [i + d, i - d]) {
      const k = before[j];
      const f = k && el.querySelector(`[data-key="${CSS.escape(k)}"]`);
      if (f) return f;
    }
  }
  return null;
}

const SIZES = { small: 0.82, normal: 1, large: 1.2 };

function handCardWidth() {
  const base = window.innerWidth < 700 || window.innerHeight < 500 ? 56 : window.innerHeight < 800 ? 74 : 84;
  return Math.round(base * (SIZES[app.cardSize] || 1));
}

// The hand sorted by rank (A K Q ... 4, 2s, jokers, 3s), or, with "Sort by meld", the
// cards that join a meld of your side first, by that meld, then the rest by rank: each
// card's group is what the view's `kinds` say it can join.
const WILD = new Set(["2", "JK"]);

function groupOf(e) {
  return e.group ?? kindOf(e.code);
}

function handOrder(entries) {
  if (!app.sortByMeld) return entries;
  const melds = myMelds();
  const joins = (code) => {
    const kind = kindOf(code);
    if (WILD.has(kind)) return null;
    const i = (app.view?.kinds || []).find((k) => k.kind === kind)?.melds?.[0];
    return i === undefined ? null : i;
  };
  const order = (e) => {
    const i = joins(e.code);
    if (i !== null && melds[i]) return [0, melds[i].book ? 1 : 0, i];
    return [1, WILD.has(kindOf(e.code)) ? 1 : 0, 0];
  };
  return entries.map((e, n) => ({ ...e, n, o: order(e) }))
    .sort((a, b) => a.o[0] - b.o[0] || a.o[1] - b.o[1] || a.o[2] - b.o[2] || a.n - b.n)
    .map(({ o, n, ...e }) => ({ ...e, group: o[0] === 0 ? `meld-${o[2]}` : kindOf(e.code) }));
}

// --- the move buttons -------------------------------------------------------------------------

const ACTIONS = [
  { id: "draw", label: "Draw", key: "D" },
  { id: "pickup", label: "Pick up", key: "P" },
  { id: "meld", label: "Meld", key: "M" },
  { id: "add", label: "Add", key: "A" },
  { id: "discard", label: "Discard", key: "X" },
  { id: "goout", label: "Go out", key: "G" },
  { id: "undo", label: "Undo", key: "U" },
  { id: "hint", label: "Hint", key: "H" },
  { id: "knock", label: "Knock", key: "" },
  { id: "knee", label: "Pick up Knee", key: "" },
];

export function actionEnabled(id) {
  const l = legal();
  const v = app.view;
  if (isSpectator() || app.busy || !v || v.phase === "game_over" || app.waiting) return false;
  if (link.sock && link.sock.status !== "online") return false; // nothing can be sent: no false hopes
  const sel = app.selection.size;
  switch (id) {
    case "draw": return !!l.draw;
    case "pickup": return !!l.pickup;
    case "meld": return (!!l.meld || (!!l.pickup && v.phase === "draw")) && (sel > 0 || app.tray.length > 0);
    case "add": return !!l.meld && sel > 0 && !app.tray.length && myMelds().length > 0;
    case "discard": {
      if (sel !== 1 || !l.discard) return false;
      if (Array.isArray(l.discard)) return l.discard.includes(kindOf(selectedCodes()[0]));
      return !!l.discard;
    }
    case "goout": return !!l.go_out;
    case "undo": return !!l.undo;
    case "hint": return myTurn() || !!l.answer;
    case "knock": return !!l.knock;
    case "knee": return !!l.knee;
    default: return false;
  }
}

export function renderActions() {
  const el = $("#actions");
  if (isSpectator()) {
    forgetHtml(el);
    el.innerHTML = `<p class="spectating">You are watching: you see the table, not the players' cards.</p>`;
    return;
  }
  const l = legal();
  const sel = app.selection.size;
  // the buttons are made once and then only switched on and off: a button redrawn between
  // press and release loses the click
  const shown = ACTIONS.filter((a) => !(a.id === "knock" && !l.knock) && !(a.id === "knee" && !l.knee));
  setHtml(el, shown.map((a) => `<button type="button" class="btn act-${a.id}" data-action="${a.id}">` +
    `${a.label}${a.key ? ` <kbd>${a.key}</kbd>` : ""}</button>`).join("") +
    `<span class="sel-info" aria-live="polite"></span>`);
  for (const a of shown) {
    const b = el.querySelector(`[data-action="${a.id}"]`);
    const on = actionEnabled(a.id);
    b.disabled = !on;
    b.classList.toggle("btn-primary", on && ((a.id === "draw") || (a.id === "discard" && sel === 1) || (a.id === "meld" && sel >= 3)));
  }
  setHtml(el.querySelector(".sel-info"), sel ? `${sel} selected: ${selectedCodes().map((c) => cardChip(c, { fourColour: app.fourColour })).join(" ")} <button type="button" class="linkish" data-action="clear">clear <kbd>Esc</kbd></button>` : "");
}

/** The partner's question "May I go out?", a modal dialog while this seat must answer. */
export function renderAsk() {
  const dlg = $("#dlg-ask");
  const v = app.view;
  const show = !isSpectator() && legal().answer && v.phase === "answer";
  if (show && !dlg.open) {
    $("#ask-text").textContent = `${seatName(v.asking ?? v.turn)} asks: may I go out?`;
    $("#ask-hint").hidden = true;
    $("#ask-hint").innerHTML = "";
    dlg.showModal();
    $("#ask-yes").focus();
  } else if (!show && dlg.open) {
    dlg.close();
  }
}

// --- the selection and the melds it can join ------------------------------------------------

export function toggleKey(key) {
  if (app.selection.has(key)) app.selection.delete(key);
  else app.selection.add(key);
  app.focusKey = key;
  if (app.message?.kind === "info") setMessage(null); // a hint stays shown
  selectionChanged();
}

export function clearSelection() {
  app.selection.clear();
  selectionChanged();
}

export function selectionChanged() {
  updateGlow();
  renderHand();
  renderActions();
  applyGlow();
}

/** Which of the side's melds the selection can join, from the view's `kinds`: a meld glows
 * when every selected kind lists it. Only while melding is open and nothing is staged. */
export function updateGlow() {
  const codes = selectedCodes();
  app.glow = codes.length && legal().meld && !app.tray.length ? joinableMelds(codes) : new Set();
}

/** Mark the melds the selection can join, without rebuilding the board (a drag may be on). */
export function applyGlow() {
  document.querySelectorAll('#my-side button.tb-meld[data-drop="meld"]').forEach((el) => {
    const on = app.glow.has(Number(el.dataset.meld));
    el.classList.toggle("glow", on);
    const label = el.querySelector(".tb-meld-label");
    const tag = label?.querySelector(".glow-tag");
    if (on && !tag) label?.insertAdjacentHTML("beforeend", ' <span class="glow-tag">add</span>');
    if (!on && tag) {
      if (tag.previousSibling?.nodeType === Node.TEXT_NODE) tag.previousSibling.remove();
      tag.remove();
    }
    el.setAttribute("aria-label", meldName(el.dataset.visible, el.dataset.words, on));
  });
}
