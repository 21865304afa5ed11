// "Your turn", and the table's sounds: the tab's title and icon say when it is your turn
// (or your partner asks you), a sound plays, and, when the tab is hidden and the player
// turned it on (Settings: "Notify me when it's my turn", which asks the browser's
// permission then), a notification. Each state message plays at most one sound: the end of
// a round, a book, your turn, a meld, your draw, in that order of importance.

import { playSound } from "./sound.js";
import { app, isSpectator, legal, myTurn, sides } from "./table-state.js";

const TURN_TITLE = "● Your turn — handfoot";
const ICON = "/static/favicon.svg";
const TURN_ICON = "/static/favicon-turn.svg";

let wasTurn = false;
let books = null; // books per side as last seen (a new one sounds)
let notice = null;

/** Whether this page's person must act now: their turn, or their partner's question. */
export function mustAct() {
  const v = app.view;
  if (!v || isSpectator() || app.waiting || v.phase === "game_over") return false;
  return myTurn() || !!legal().answer;
}

function bookCounts() {
  const v = app.view;
  return Array.from({ length: sides() }, (_, s) => (v.melds?.[s] || []).filter((m) => m.book).length);
}

function setTurnMark(turn) {
  if (!app.baseTitle) app.baseTitle = document.title;
  const title = turn ? TURN_TITLE : app.baseTitle;
  if (document.title !== title) document.title = title;
  const icon = document.querySelector('link[rel="icon"]');
  const href = turn ? TURN_ICON : ICON;
  if (icon && icon.getAttribute("href") !== href) icon.setAttribute("href", href);
}

function notify() {
  if (!app.notify || !document.hidden || !("Notification" in window) || Notification.permission !== "granted") return;
  try {
    notice?.close();
    notice = new Notification("Your turn — handfoot", {
      body: legal().answer ? "Your partner asks: may I go out?" : "It is your turn to play.",
      tag: "handfoot-turn", icon: TURN_ICON,
    });
    notice.onclick = () => { window.focus(); notice?.close(); };
  } catch {
    /* a browser that only notifies from a service worker: the title and icon still say it */
  }
}

/** After a state message: the title, the icon, a sound, maybe a notification.
 * `events`: the events new to this page; `first`: the page's first state (no sound). */
export function afterState(events, { first }) {
  const turn = mustAct();
  setTurnMark(turn);
  const counts = bookCounts();
  const newBook = !first && books && counts.some((n, s) => n > (books[s] ?? 0));
  books = counts;
  const turnStarts = turn && !wasTurn;
  wasTurn = turn;
  if (first) return null;
  if (turnStarts) notify();
  const types = new Set(events.map((e) => e.type));
  let sound = null;
  if (events.some((e) => e.round_end || e.type === "round_end")) sound = "round";
  else if (newBook) sound = "book";
  else if (turnStarts) sound = "turn";
  else if (events.some((e) => e.melds?.length)) sound = "meld";
  else if (events.some((e) => e.seat === app.seat && (types.has("draw") || types.has("pickup")))) sound = "draw";
  if (sound) playSound(sound);
  return sound;
}

/** When the tab comes back into view, the notification has done its work. */
document.addEventListener("visibilitychange", () => {
  if (!document.hidden) notice?.close();
});


