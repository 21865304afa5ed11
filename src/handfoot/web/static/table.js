// The game table: renders the server's `state` messages only, and sends moves in the
// engine's notation. See docs/web.md ("The protocol") for the view and the messages.
// This module starts the page: the socket, the state it brings, and every click, key and
// drop wired to what it does. The parts of the page are modules of their own:
//
//   table-state.js     the page's state and the questions asked of it
//   table-board.js     the top bar, the other seats, the melds, the stock and the pile
//   table-hand.js      your hand and selection, the staged melds, the message, the buttons
//   table-moves.js     what the buttons do: moves sent, hints, answers, Continue, Rematch
//   table-notation.js  moves written in the notation from the chosen cards
//   table-log.js       the moves list, in the server's words; where moves landed
//   table-overlay.js   the screen between rounds and at the end of the game
//   table-prefs.js     this browser's settings, the moves sheet, the melds' tabs
//   table-motion.js    cards that travel (off under prefers-reduced-motion)
//   table-alerts.js    "your turn": the title, the icon, a sound, a notification
//   sound.js           the sounds, made with Web Audio
//   talk.js            reactions and chat: the React menu, the bubbles, their lines in the moves list

import { cardSvg } from "./cards.js";
import { attachArrowNav, attachDrag, attachKeys, KEYS } from "./input.js";
import { GameSocket } from "./socket.js";
import { renderBoard, renderSeats, renderTop } from "./table-board.js";
import {
  clearSelection, renderActions, renderAsk, renderMe, renderTray, selectionChanged,
  setMessage, toggleKey, trayOpen, updateGlow,
} from "./table-hand.js";
import { addEvents, applyFlash, renderLog } from "./table-log.js";
import { renderNotices, wireNotices } from "./table-notices.js";
import {
  addTo, answer, checkTray, doAdd, doContinue, doDiscard, doDraw, doGoOut, doHint, doKnee,
  doKnock, doMeld, doPickup, doRematch, doUndo, dropOnMeldArea, dropOnStaged, layDown, onRematch,
  playHint,
} from "./table-moves.js";
import { renderOverlay, showOverlayTab, summaryNext } from "./table-overlay.js";
import { afterState } from "./table-alerts.js";
import { play as playMotion, snapshot } from "./table-motion.js";
import { initSound } from "./sound.js";
import { applyPrefs, askPace, onPace, setLogOpen, wirePrefs } from "./table-prefs.js";
import { initTalk, onTalk, placeBubbles, talkWelcome } from "./talk.js";
import {
  $, app, handEntries, isSpectator, legal, link, myTurn, selectedCodes,
} from "./table-state.js";
import { esc } from "./text.js";

function render() {
  if (!app.view) return;
  document.body.classList.toggle("spectator", isSpectator());
  applyPrefs();
  renderTop();
  renderSeats();
  renderBoard();
  renderMe();
  renderLog();
  renderOverlay();
  renderAsk();
  renderNotices();
  applyFlash();
  placeBubbles();
}

function onState(msg) {
  const prevRound = app.view?.round;
  const prevPhase = app.view?.phase;
  app.view = msg.view;
  app.seq = msg.seq ?? app.seq;
  if (Array.isArray(msg.presence)) app.presence = msg.presence;
  app.waiting = msg.waiting || null;
  if (prevRound !== undefined && prevRound !== app.view.round) {
    app.overlayHidden = false;
    app.lastMove = {};
  }
  if (!app.waiting && app.view.phase !== "game_over") app.overlayHidden = false;
  const first = app.firstState;
  const places = snapshot();
  app.laid = [];
  const fresh = addEvents(msg.events, { highlight: !first });
  app.firstState = false;
  // keep only selected/staged cards that are still in hand
  const keys = new Set(handEntries().map((e) => e.key));
  for (const k of [...app.selection]) if (!keys.has(k)) app.selection.delete(k);
  const before = app.tray.length;
  app.tray = app.tray.filter((g) => g.every((k) => keys.has(k)));
  if (app.tray.length !== before || (app.tray.length && prevPhase !== app.view.phase)) checkTray();
  if (!myTurn() && !legal().answer && app.hint) {
    app.hint = null;
    if (app.message?.kind === "hint") app.message = null;
  }
  updateGlow(); // the new view's `kinds` say what the selection can join now
  render();
  playMotion(places, fresh);
  afterState(fresh, { first });
  if (app.learn && (myTurn() || legal().answer) && app.hintSeq !== app.seq && !app.busy) {
    app.hintSeq = app.seq;
    doHint();
  }
}

function onStatus(status, detail) {
  const el = $("#conn");
  const text = { connecting: "connecting…", online: "connected", reconnecting: `connection lost — ${detail || "reconnecting"}…`, auth: detail || "this link is not valid" }[status] || status;
  el.textContent = text;
  el.className = `conn ${status}`;
  document.body.classList.toggle("offline", status !== "online");
  if (app.view) renderActions();
}

const BUTTONS = {
  "btn-laydown": layDown,
  "btn-tray-pickup": doPickup,
  "btn-untray-all": () => {
    app.tray = [];
    app.trayCheck = null;
    app.trayOpen = null;
    renderMe();
  },
  "btn-tray-toggle": () => {
    app.trayOpen = !trayOpen();
    renderTray();
  },
  "btn-continue": doContinue,
  "btn-rematch": doRematch,
  "btn-hide-overlay": () => {
    app.overlayHidden = true;
    renderOverlay();
  },
  "btn-show-scores": () => {
    app.overlayHidden = false;
    renderOverlay();
  },
  "btn-play-hint": playHint,
  "btn-summary-next": summaryNext,
  "btn-help": () => $("#dlg-help").showModal(),
  "ask-yes": () => answer(true),
  "ask-no": () => answer(false),
  "ask-hint-btn": doHint,
};

const ACTIONS = {
  draw: doDraw, pickup: doPickup, meld: doMeld, add: doAdd, discard: doDiscard, goout: doGoOut,
  undo: doUndo, hint: doHint, knock: doKnock, knee: doKnee, clear: clearSelection,
};

function onClick(ev) {
  if (ev.target.closest("#message.hint .msg-text")) return $("#message").classList.toggle("open");
  const t = ev.target.closest("button, [data-key]");
  if (!t) return null;
  if (t.classList.contains("hand-card")) return toggleKey(t.dataset.key);
  if (t.dataset.action) return ACTIONS[t.dataset.action]?.();
  if (t.id === "stock-btn") return doDraw();
  if (t.id === "pile-btn") {
    if (app.selection.size === 1 && legal().discard && !legal().pickup) return doDiscard();
    return doPickup();
  }
  if (t.dataset.drop === "meld") {
    if (!app.selection.size) return setMessage("info", "Select cards in your hand, then tap this meld to add them.");
    return addTo(t.dataset.target, t.dataset.meld);
  }
  if (t.classList.contains("ov-tab")) return showOverlayTab(t.dataset.tab);
  if (t.dataset.untray !== undefined) {
    app.tray.splice(Number(t.dataset.untray), 1);
    checkTray();
    return renderMe();
  }
  if (BUTTONS[t.id]) return BUTTONS[t.id]();
  if (t.classList.contains("msg-x")) return setMessage(null);
  return null;
}

function wire() {
  document.addEventListener("click", onClick);
  wirePrefs(render);
  $("#opt-learn").addEventListener("change", (ev) => {
    app.learn = ev.target.checked;
    localStorage.setItem("handfoot.learn", app.learn ? "1" : "0");
    if (app.learn) doHint();
  });
  $("#dlg-ask").addEventListener("cancel", (ev) => ev.preventDefault()); // an answer is needed
  attachArrowNav($("#hand"));
  $("#hand").addEventListener("focusin", (ev) => { if (ev.target.dataset.key) app.focusKey = ev.target.dataset.key; });
  attachKeys({
    d: doDraw, p: doPickup, m: doMeld, a: doAdd, x: doDiscard, g: doGoOut, u: doUndo, h: doHint,
    y: () => answer(true), n: () => answer(false), c: doContinue,
    escape: () => {
      if ($("#dlg-help").open) return $("#dlg-help").close();
      if ($("#settings").open) return $("#settings").removeAttribute("open");
      if (app.logOpen) return setLogOpen(false);
      if (app.selection.size) return clearSelection();
      if (app.message) return setMessage(null);
      return null;
    },
    "?": () => ($("#dlg-help").open ? $("#dlg-help").close() : $("#dlg-help").showModal()),
  });
  attachDrag($("#hand"), {
    onStart: (card) => {
      if (isSpectator() || !myTurn()) return null;
      const key = card.dataset.key;
      if (!app.selection.has(key)) {
        app.selection.add(key);
        selectionChanged();
      }
      return selectedCodes().map((c) => cardSvg(c, { width: 40, fourColour: app.fourColour })).join("");
    },
    onDrop: (target) => {
      const kind = target.dataset.drop;
      if (kind === "pile") return doDiscard();
      if (kind === "meld") return addTo(target.dataset.target, target.dataset.meld);
      if (kind === "melds") return dropOnMeldArea();
      if (kind === "staged") return dropOnStaged(Number(target.dataset.group));
      return null;
    },
  });
  $("#help-keys").innerHTML = KEYS.map(([k, t]) => `<tr><th scope="row"><kbd>${esc(k)}</kbd></th><td>${esc(t)}</td></tr>`).join("");
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(render, 100);
  });
}

function fitHeight() {
  // the table fills the window under the site header, whatever its height
  const header = document.querySelector(".site-header");
  document.documentElement.style.setProperty("--hdr", `${header ? header.offsetHeight : 0}px`);
}

function start() {
  initSound(() => app.sound);
  fitHeight();
  window.addEventListener("resize", fitHeight);
  wire();
  initTalk({ onChange: () => app.view && renderLog() });
  wireNotices();
  if (!app.token) {
    onStatus("auth", "this page needs the link you were given (it ends in #t=… or #s=…)");
    return;
  }
  link.sock = new GameSocket({
    gameId: app.gameId,
    token: app.token,
    url: window.HANDFOOT_WS_URL || null,
    onWelcome: (msg) => {
      app.welcome = msg;
      app.seat = msg.seat ?? null;
      document.title = `${msg.game?.profile_title || "Hand and Foot"} · handfoot`;
      talkWelcome(msg.talk);
      app.baseTitle = document.title;
      askPace();
      if (app.view) render();
    },
    onState,
    onPresence: (p) => {
      app.presence = p;
      if (app.view) { renderSeats(); renderMe(); }
    },
    onStatus,
    onRematch,
    onPace,
    onError: (msg) => setMessage("error", esc(msg.message || "error")),
    onTalk: (msg) => {
      onTalk(msg);
      if (app.view) placeBubbles();
    },
  });
  link.sock.connect();
}

// exposed for tests and the console
window.handfoot = { app, render };
start();
