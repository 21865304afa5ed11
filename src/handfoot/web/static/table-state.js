// The table page's state: what the server last said (the view, the events seen, who is
// connected) and what this page keeps of its own (the selection, the staged melds, the
// message shown), with the questions every part of the page asks of them. What a card can
// join is the view's `kinds` (worked out by the engine), never a rule worked out here.

import { kindOf, kindRankIndex, sortHand } from "./cards.js";
import { distinctNames, seatPlace } from "./words.js";

export const $ = (sel, root = document) => root.querySelector(sel);

const params = new URLSearchParams(location.search);
const hash = new URLSearchParams(location.hash.slice(1));

/** A setting this browser remembers (`handfoot.NAME`), `fallback` when unset or not one of
 * `allowed`. */
export function pref(name, fallback, allowed = null) {
  let value = null;
  try {
    value = localStorage.getItem(`handfoot.${name}`);
  } catch {
    value = null; // storage refused (a private window): the defaults
  }
  if (value === null || (allowed && !allowed.includes(value))) return fallback;
  return value;
}

export function savePref(name, value) {
  try {
    localStorage.setItem(`handfoot.${name}`, String(value));
  } catch {
    /* storage refused: the setting lasts as long as the page */
  }
}

export const app = {
  gameId: decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || ""),
  token: hash.get("t") || hash.get("s") || "",
  spectatorLink: !hash.get("t") && !!hash.get("s"),
  welcome: null,
  seat: null, // my seat, null for spectators
  view: null,
  presence: [],
  waiting: null,
  seq: 0,
  log: [], // [{key, seat, event | html, mine}]
  seen: new Set(),
  lastMove: {}, // seat -> event
  selection: new Set(), // hand card keys ("KS#0")
  tray: [], // staged groups: arrays of keys
  laid: [], // the keys of staged melds just laid down: hidden from the hand until the new state
  trayCheck: null, // {ok, message, refused}
  trayOpen: null, // the staged melds' details shown (null: as the screen's width says)
  glow: new Set(), // indices into my side's melds (view.melds[side]) the selection can join
  busy: false,
  message: null, // {kind: "error"|"info"|"hint", html}
  hint: null, // {move, words, kinds}
  hintSeq: -1,
  focusKey: null,
  handKeys: [], // the hand's card keys as last shown, in order (for the focus's neighbour)
  fourColour: localStorage.getItem("handfoot.fourColour") === "1",
  // this browser's settings (table-prefs.js keeps them in localStorage)
  cardSize: pref("cardSize", "normal", ["small", "normal", "large"]),
  leftHanded: pref("leftHanded", "0") === "1",
  sound: pref("sound", "1") === "1",
  pace: pref("pace", "normal", ["fast", "normal", "slow"]),
  notify: pref("notify", "0") === "1",
  sortByMeld: pref("sortByMeld", "0") === "1",
  tablePace: null, // the table's bot pace, as the server last said
  boardTab: "mine", // the melds shown on a narrow screen: "mine" or "opp"
  logOpen: false, // the moves sheet open (narrow screens)
  learn: params.get("learn") === "1" || localStorage.getItem("handfoot.learn") === "1",
  overlayHidden: false,
  overlayTab: "breakdown", // the tab of the between-round screen on a phone
  flash: new Map(), // element selector -> expiry
  firstState: true,
  rematch: null, // this person's own link to the rematch, once somebody started it
};

/** The table's GameSocket (socket.js), once the page has started. */
export const link = { sock: null };

// --- seats and sides ------------------------------------------------------------------------

export const isSpectator = () => app.seat === null || app.seat === undefined;
export const players = () => app.view?.players ?? app.welcome?.game?.seats?.length ?? 4;
export const sides = () => app.view?.sides ?? 2;
export const sideOf = (seat) => seat % sides();
export const mySide = () => (isSpectator() ? 0 : app.view?.side ?? sideOf(app.seat));
export const bottomSeat = () => (isSpectator() ? 0 : app.seat);
export const legal = () => (app.view && !isSpectator() ? app.view.legal || {} : {});

export function seatName(seat, { you = true } = {}) {
  if (seat === null || seat === undefined) return "";
  if (you && seat === app.seat) return "You";
  const seats = app.welcome?.game?.seats || [];
  // two seats with one name ("Hard bot") are told apart by where they sit: "Hard bot (West)"
  const names = Array.from({ length: players() }, (_, i) => seats.find((x) => x.seat === i)?.name || `Seat ${i + 1}`);
  return distinctNames(names)[seat] || `Seat ${seat + 1}`;
}

export function sideName(side) {
  const names = app.view?.side_names;
  const seatNames = (app.welcome?.game?.seats || []).map((x) => x.name);
  const shared = (s) => seatNames.filter((x) => x === seatNames[s]).length > 1;
  if (names && names[side] && !seatNames.some((_, s) => shared(s))) return names[side];
  // names some seats share ("Hard bot and Hard bot") read as where those seats sit:
  // "Robin and North" against "West and East", as the lobby names its bots
  const seats = [];
  for (let s = 0; s < players(); s++) {
    if (sideOf(s) === side) seats.push(shared(s) ? seatPlace(s, players()) : seatName(s, { you: false }));
  }
  return seats.join(" and ");
}

export function seatRole(seat) {
  if (seat === app.seat) return "you";
  if (isSpectator()) return `side ${sideOf(seat) + 1}`;
  return sideOf(seat) === mySide() ? "partner" : "opponent";
}

export function myTurn() {
  const v = app.view;
  return v && !isSpectator() && v.to_act === app.seat && (v.phase === "draw" || v.phase === "play");
}

export function openingMinimum(side) {
  const v = app.view;
  return v.opening_minimums?.[side] ?? v.opening_minimum ?? 0;
}

function hasKnees() {
  return !!app.view?.packets?.some((q) => q.knee || q.playing === "knee");
}

export function packetText(p) {
  // "Hand" is the cards held now (as the terminal shows it); Knee and Foot the packets to come
  const parts = [`Hand ${p.hand}`];
  if (hasKnees()) parts.push(`Knee ${p.knee}`);
  parts.push(`Foot ${p.foot}`);
  return parts.join(" · ");
}

export function playingText(p) {
  const where = p.playing || (p.in_foot ? "foot" : "hand");
  return where.charAt(0).toUpperCase() + where.slice(1);
}

// The rematch is one game per finished game: whoever presses Rematch first makes it, and the
// server then tells every page of this table its own link ("rematch" message).
export function rematchLink() {
  const to = app.rematch || "";
  return app.learn && params.get("learn") === "1" ? to.replace("#", "?learn=1#") : to;
}

// --- the hand, the selection and the staged melds -----------------------------------------

export function handEntries() {
  const hand = app.view?.hand || [];
  const counts = {};
  return sortHand(hand).map((code) => {
    counts[code] = (counts[code] || 0) + 1;
    return { key: `${code}#${counts[code] - 1}`, code };
  });
}

export function codesOf(keys) {
  const map = new Map(handEntries().map((e) => [e.key, e.code]));
  return keys.map((k) => map.get(k)).filter(Boolean);
}

const byKind = (a, b) => kindRankIndex(kindOf(a)) - kindRankIndex(kindOf(b));
export const selectedKeys = () => [...app.selection];
export const selectedCodes = () => codesOf(selectedKeys()).sort(byKind);
export const trayKeys = () => new Set(app.tray.flat());
export const trayGroups = () => app.tray.map((g) => codesOf(g));
export const myMelds = () => app.view?.melds?.[mySide()] || [];

/** The view's word on one kind of card in the hand: {kind, melds, new, why}, or null. */
function kindEntry(kind) {
  return (app.view?.kinds || []).find((k) => k.kind === kind) || null;
}

/** The side's melds (indices into view.melds[side]) every card of `codes` can be added to:
 * a meld is in when each selected kind lists it in the view's `kinds`. */
export function joinableMelds(codes) {
  let common = null;
  for (const kind of new Set(codes.map(kindOf))) {
    const melds = new Set(kindEntry(kind)?.melds || []);
    common = common === null ? melds : new Set([...common].filter((i) => melds.has(i)));
  }
  return common || new Set();
}

/** Why some card of `codes` can go into no meld at all (the engine's words), or null. */
export function whyNot(codes) {
  for (const kind of new Set(codes.map(kindOf))) {
    const why = kindEntry(kind)?.why;
    if (why) return why;
  }
  return null;
}

// Redrawing the same markup would replace the buttons under the pointer, and a press that
// begins on the old button and ends on the new one is no click at all (the browser tests
// lost a Discard that way when the toolbar was redrawn mid-click): same markup, same DOM.
const shownHtml = new WeakMap();
export function setHtml(el, html) {
  if (shownHtml.get(el) === html && el.isConnected) return;
  shownHtml.set(el, html);
  el.innerHTML = html;
}

/** Forget what setHtml last wrote (the element is written directly). */
export function forgetHtml(el) {
  shownHtml.delete(el);
}
