// This browser's settings at the table, remembered in localStorage (`handfoot.NAME`): card
// size, four-colour deck, left-handed layout, sound, the bots' pace (asked of the server:
// only the table's creator sets it), first-game mode and turn notifications; and the
// controls of the narrow screen (the moves sheet, the melds shown, the hand's order).

import { $, app, isSpectator, link, savePref } from "./table-state.js";

/** The classes on <body> the settings make (card size, left-handed, four colours). */
export function applyPrefs() {
  const b = document.body.classList;
  b.toggle("four-colour", app.fourColour);
  b.toggle("left-handed", app.leftHanded);
  for (const s of ["small", "normal", "large"]) b.toggle(`cards-${s}`, app.cardSize === s);
}

/** The seats that may set the bots' pace (the server says, in the welcome's game). */
function paceAllowed() {
  const seats = app.welcome?.game?.pace_seats || [];
  return !isSpectator() && seats.includes(app.seat);
}

const hasBots = () => (app.welcome?.game?.seats || []).some((s) => s.kind === "bot") || app.welcome?.game?.absent === "bot";

/** The pace controls as the table has it: the creator's choice, or the table's (read only). */
export function showPace() {
  const box = $("#opt-pace-box");
  if (!box) return;
  box.hidden = !hasBots();
  const allowed = paceAllowed();
  const shown = allowed ? app.pace : (app.tablePace || app.welcome?.game?.pace || "normal");
  box.querySelectorAll('input[name="opt-pace"]').forEach((r) => {
    r.checked = r.value === shown;
    r.disabled = !allowed;
  });
  const note = $("#opt-pace-note");
  note.hidden = allowed;
  note.textContent = allowed ? "" : "The table's creator sets the bots' pace.";
}

/** After the welcome: the creator's remembered pace asked of the server (if it differs). */
export function askPace() {
  app.tablePace = app.welcome?.game?.pace || "normal";
  if (paceAllowed() && app.pace !== app.tablePace) sendPace(app.pace);
  showPace();
  showNotify(); // a seat now known: spectators are never notified
}

async function sendPace(pace) {
  const reply = await link.sock?.request({ type: "pace", pace });
  if (reply?.type === "pace") app.tablePace = reply.pace;
  showPace();
}

/** The server's word on the pace (the creator changed it, maybe from another page). */
export function onPace(msg) {
  app.tablePace = msg.pace;
  showPace();
}

function notifyNote(text) {
  const note = $("#opt-notify-note");
  note.hidden = !text;
  note.textContent = text || "";
}

function showNotify() {
  const supported = "Notification" in window;
  const btn = $("#btn-notify");
  btn.hidden = isSpectator();
  const on = app.notify && supported && Notification.permission === "granted";
  btn.textContent = on ? "Stop notifying me" : "Notify me when it's my turn";
  btn.setAttribute("aria-pressed", String(on));
  if (!supported) notifyNote("This browser cannot show notifications.");
  else if (Notification.permission === "denied") notifyNote("Notifications are blocked for this site in the browser's settings.");
  else notifyNote(on ? "A notification comes when it is your turn and this tab is hidden." : "");
}

// Permission is asked only here, after a press of the button (never on load).
async function toggleNotify() {
  if (!("Notification" in window)) return showNotify();
  if (app.notify && Notification.permission === "granted") {
    app.notify = false;
  } else {
    const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
    app.notify = answer === "granted";
  }
  savePref("notify", app.notify ? "1" : "0");
  return showNotify();
}

/** The moves list as a sheet over the table (narrow screens; always shown on wide ones). */
export function setLogOpen(open) {
  app.logOpen = open;
  document.body.classList.toggle("log-open", open);
  $("#btn-moves").setAttribute("aria-expanded", String(open));
  if (open) {
    const log = $("#log");
    log.scrollTop = log.scrollHeight;
    $("#btn-moves-close").focus({ preventScroll: true });
  }
}

export function setBoardTab(tab) {
  app.boardTab = tab;
  $("#board").dataset.board = tab;
  document.querySelectorAll("#board-tabs .board-tab").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.board === tab)));
}

/** Wire the settings panel; `render` redraws the table after a change that shows. */
export function wirePrefs(render) {
  applyPrefs();
  const radios = (name, value) => document.querySelectorAll(`input[name="${name}"]`).forEach((r) => { r.checked = r.value === value; });
  radios("opt-size", app.cardSize);
  $("#opt-four").checked = app.fourColour;
  $("#opt-left").checked = app.leftHanded;
  $("#opt-sound").checked = app.sound;
  $("#opt-learn").checked = app.learn;
  $("#btn-sort").setAttribute("aria-pressed", String(app.sortByMeld));
  const changed = (id, fn) => $(id).addEventListener("change", (ev) => { fn(ev.target); applyPrefs(); render(); });
  document.querySelectorAll('input[name="opt-size"]').forEach((r) => r.addEventListener("change", () => {
    app.cardSize = r.value;
    savePref("cardSize", r.value);
    applyPrefs();
    render();
  }));
  document.querySelectorAll('input[name="opt-pace"]').forEach((r) => r.addEventListener("change", () => {
    if (!paceAllowed()) return showPace();
    app.pace = r.value;
    savePref("pace", r.value);
    return sendPace(r.value);
  }));
  changed("#opt-four", (t) => { app.fourColour = t.checked; savePref("fourColour", t.checked ? "1" : "0"); });
  changed("#opt-left", (t) => { app.leftHanded = t.checked; savePref("leftHanded", t.checked ? "1" : "0"); });
  $("#opt-sound").addEventListener("change", (ev) => {
    app.sound = ev.target.checked;
    savePref("sound", app.sound ? "1" : "0");
  });
  $("#btn-notify").addEventListener("click", toggleNotify);
  $("#btn-moves").addEventListener("click", () => setLogOpen(!app.logOpen));
  $("#btn-moves-close").addEventListener("click", () => setLogOpen(false));
  $("#btn-sort").addEventListener("click", () => {
    app.sortByMeld = !app.sortByMeld;
    savePref("sortByMeld", app.sortByMeld ? "1" : "0");
    $("#btn-sort").setAttribute("aria-pressed", String(app.sortByMeld));
    render();
  });
  $("#board-tabs").addEventListener("click", (ev) => {
    const b = ev.target.closest(".board-tab");
    if (b) setBoardTab(b.dataset.board);
  });
  showNotify();
  showPace();
}
