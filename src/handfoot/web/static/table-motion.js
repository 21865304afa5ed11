// Cards that travel: from the stock or the pile to a hand, from a hand to a meld or the
// pile, at your own place and at the other seats' alike, and a book that completes turns
// over. The FLIP way: where things were is noted before a redraw (snapshot), the table is
// redrawn at once, then clones on a layer of their own (#motion, pointer-events: none) fly
// from the old place to the new with the Web Animations API, 260 ms at most plus a short
// stagger. Nothing waits for them: the real cards are there and take taps at once. Under
// `prefers-reduced-motion: reduce` nothing moves at all.

import { cardBack, cardSvg } from "./cards.js";
import { $, app, sideOf, trayGroups } from "./table-state.js";

const DURATION = 240;
const STAGGER = 8; // the last card lands within 300 ms
const MAX_CLONES = 8;
const reduced = window.matchMedia?.("(prefers-reduced-motion: reduce)");

export const motionOff = () => !!reduced?.matches || typeof Element.prototype.animate !== "function";

const rectOf = (el) => (el ? el.getBoundingClientRect() : null);
const visible = (r) => r && r.width > 0 && r.height > 0;

/** Where things are now (before a redraw). */
export function snapshot() {
  if (motionOff() || !app.view) return null;
  const hand = new Map();
  document.querySelectorAll("#hand .hand-card").forEach((b) => hand.set(b.dataset.key, rectOf(b)));
  const tray = trayPlaces();
  const books = new Set();
  document.querySelectorAll(".tb-meld.book[data-flash]").forEach((b) => books.add(b.dataset.flash));
  const out = { hand, tray: tray.length ? tray : leaving || [], books, round: app.view.round };
  leaving = null;
  return out;
}

/** The staged melds' cards (hidden from the hand): where each is in the tray. */
function trayPlaces() {
  const tray = [];
  const groups = trayGroups();
  document.querySelectorAll("#tray .tray-group").forEach((g, i) => {
    g.querySelectorAll(".tray-cards > svg").forEach((c, j) => {
      const code = groups[i]?.[j];
      if (code) tray.push({ code, rect: rectOf(c) });
    });
  });
  return tray;
}

let leaving = null;

/** The staged melds were laid down (the server's ack, which comes before the new state):
 * note where their cards were, for the next snapshot, before the tray is cleared. */
export function noteTray() {
  leaving = motionOff() ? null : trayPlaces();
}

function place(name) {
  return document.querySelector(`[data-flash="${name}"]`);
}

/** A clone of `html` flying from rect `from` to rect `to` (the size of `to`). */
function fly(html, from, to, delay) {
  if (!visible(from) || !visible(to)) return;
  const layer = $("#motion");
  const el = document.createElement("div");
  el.className = "motion-card";
  el.innerHTML = html;
  el.style.width = `${to.width}px`;
  el.style.transform = `translate(${to.left}px, ${to.top}px)`;
  layer.append(el);
  const sx = from.width / to.width;
  const anim = el.animate([
    { transform: `translate(${from.left}px, ${from.top}px) scale(${sx})`, opacity: 0.9 },
    { transform: `translate(${to.left}px, ${to.top}px) scale(1)`, opacity: 1 },
  ], { duration: DURATION, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
  const done = () => el.remove();
  anim.onfinish = done;
  anim.oncancel = done;
}

/** The real card shows once its clone lands (it takes taps all the while). */
function arrive(el, delay) {
  el?.animate([{ opacity: 0 }, { opacity: 0, offset: 0.85 }, { opacity: 1 }], { duration: DURATION + delay });
}

const face = (code, w) => cardSvg(code, { width: w, fourColour: app.fourColour, label: "" });
const back = (w) => cardBack({ width: w, label: "" });

function meldPlace(side, target) {
  return place(`meld-${side}-${target}`) || $(side === sideOf(app.seat ?? 0) ? "#my-side" : "#opp-sides");
}

/** After a redraw: the moves of `events` (new to the page) shown travelling. */
export function play(before, events) {
  if (!before || motionOff() || !app.view || before.round !== app.view.round) return;
  let n = 0;
  const next = () => Math.min(n++, MAX_CLONES) * STAGGER;
  const stock = rectOf(place("stock"));
  const pile = rectOf(place("pile"));
  const handNow = new Map();
  document.querySelectorAll("#hand .hand-card").forEach((b) => handNow.set(b.dataset.key, b));
  for (const e of events) {
    if (n >= MAX_CLONES) break;
    const mine = app.seat !== null && app.seat !== undefined && e.seat === app.seat;
    const seatEl = mine ? null : place(`seat-${e.seat}`);
    const seatRect = rectOf(seatEl);
    const side = sideOf(e.seat);
    if (mine) {
      // into the hand: the cards new to it, from the stock or the pile
      if (e.type === "draw" || e.type === "pickup") {
        const from = e.type === "draw" ? stock : pile;
        for (const [key, el] of handNow) {
          if (before.hand.has(key) || n >= MAX_CLONES) continue;
          const d = next();
          const to = rectOf(el);
          fly(face(key.split("#")[0], to.width), from, to, d);
          arrive(el, d);
        }
      }
      // out of the hand: to the melds, and the discard to the pile
      const gone = [...before.hand.keys()].filter((k) => !handNow.has(k));
      for (const key of gone) {
        if (n >= MAX_CLONES) break;
        const code = key.split("#")[0];
        const from = before.hand.get(key);
        let to = null;
        if (e.card === code && (e.type === "discard" || e.type === "go_out")) to = pile;
        else if (e.melds?.length) {
          const group = e.melds.find((m) => m.cards?.includes(code)) || e.melds[0];
          to = rectOf(meldPlace(side, group.target));
        }
        if (to) fly(face(code, from.width), from, { left: to.left, top: to.top, width: from.width, height: from.height }, next());
      }
      // the staged melds laid down: from the tray to the melds they made
      if (e.melds?.length && before.tray.length && !app.tray.length) {
        for (const { code, rect } of before.tray) {
          if (n >= MAX_CLONES) break;
          const group = e.melds.find((m) => m.cards?.includes(code)) || e.melds[0];
          const to = rectOf(meldPlace(side, group.target));
          if (to) fly(face(code, rect.width), rect, { left: to.left, top: to.top, width: rect.width, height: rect.height }, next());
        }
      }
    } else if (seatRect) {
      if (e.type === "draw") {
        for (let i = 0; i < Math.min(e.count || 1, 3); i++) fly(back(46), stock, small(seatRect), next());
      } else if (e.type === "pickup") {
        fly(e.top ? face(e.top, 46) : back(46), pile, small(seatRect), next());
      }
      for (const group of e.melds || []) {
        const to = rectOf(meldPlace(side, group.target));
        for (const code of (group.cards || []).slice(0, 3)) if (to) fly(face(code, 40), small(seatRect), { left: to.left, top: to.top, width: 40, height: 56 }, next());
      }
      if (e.type === "discard" && e.card) fly(face(e.card, pile?.width || 46), small(seatRect), pile, next());
    }
  }
  // a book that completes turns over
  document.querySelectorAll(".tb-meld.book[data-flash]").forEach((el) => {
    if (before.books.has(el.dataset.flash)) return;
    el.querySelector(".book-stack")?.animate([
      { transform: "perspective(300px) rotateY(180deg)" }, { transform: "perspective(300px) rotateY(0deg)" },
    ], { duration: 280, easing: "ease-out" });
  });
}

/** A card-sized box at the middle of a seat's panel (where its cards come and go). */
function small(r) {
  const w = 46;
  const h = 64;
  return { left: r.left + r.width / 2 - w / 2, top: r.top + r.height / 2 - h / 2, width: w, height: h };
}


