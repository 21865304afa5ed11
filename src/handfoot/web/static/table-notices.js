// A correspondence game at the table: the time left for the turn, the Notices menu (a
// browser notice through Web Push, asked for only on the button's click; e-mail; mute) and,
// when a person's time ran out in a game that waits, the button that gives their seat to a
// bot. The moves a stand-in played on a time-out are marked in the moves list (table-log.js).

import { $, app, isSpectator, seatName } from "./table-state.js";
import { HEADER, me } from "./player.js";
import { esc } from "./text.js";

const corr = () => app.view?.correspondence || null;

function api(path, body) {
  const headers = { "Content-Type": "application/json" };
  const player = me(); // a signed-in player's push serves all their seats
  if (player) headers[HEADER] = player.key;
  return fetch(path, {
    method: "POST", headers, body: JSON.stringify(body),
  }).then(async (r) => {
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(data.error || `the server answered ${r.status}`);
    return data;
  });
}

function say(text) {
  $("#notices-status").textContent = text;
}

/** What the seat's e-mail notices wait for, in words. */
function mailState(s) {
  if (!s.email) return "No e-mail.";
  if (s.email_confirmed) return `E-mail goes to ${s.email}.`;
  return `We sent a link to ${s.email}: open it to start the e-mails (nothing is sent before).`;
}

function leftText(due) {
  const ms = new Date(due).getTime() - Date.now();
  if (Number.isNaN(ms)) return "";
  if (ms <= 0) return "time is up";
  const h = Math.floor(ms / 3600000);
  if (h >= 48) return `${Math.floor(h / 24)} days left`;
  if (h >= 1) return `${h} h ${Math.floor((ms % 3600000) / 60000)} min left`;
  return `${Math.max(1, Math.floor(ms / 60000))} min left`;
}

/** The clock and the give-to-bot button, after every state. */
export function renderNotices() {
  const c = corr();
  const clock = $("#turn-clock");
  $("#notices").hidden = !c || isSpectator();
  if (!c || !app.view || app.view.phase === "game_over") {
    clock.hidden = true;
    return;
  }
  const who = app.view.to_act === app.seat ? "Your turn" : `${seatName(app.view.to_act)} to play`;
  clock.hidden = false;
  clock.classList.toggle("urgent", !!c.overdue);
  clock.textContent = c.overdue ? `${who}: time is up` : c.due ? `${who}: ${leftText(c.due)}` : who;
  const give = $("#notices-give");
  const canGive = c.overdue && c.on_timeout === "wait" && !isSpectator() && app.view.to_act !== app.seat;
  give.hidden = !canGive;
  if (canGive && give.dataset.seat !== String(app.view.to_act)) {
    give.dataset.seat = String(app.view.to_act);
    give.innerHTML = `<p class="small">${esc(seatName(app.view.to_act))}'s time ran out.</p>
      <button type="button" class="btn btn-gold" id="notices-give-btn">Give the seat to a bot</button>`;
    $("#notices-give-btn").addEventListener("click", () => giveToBot(app.view.to_act));
    $("#notices").open = true;
  }
}

async function giveToBot(seat) {
  try {
    await api(`/api/games/${encodeURIComponent(app.gameId)}/give-to-bot`, { token: app.token, seat });
    say("A bot plays that seat until its person comes back.");
  } catch (err) {
    say(err.message);
  }
}

function keyBytes(b64) {
  const s = atob(b64.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

async function subscribePush() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !window.isSecureContext) {
    say("This browser cannot show notices from a web page here (it needs https).");
    return;
  }
  try {
    const permission = await Notification.requestPermission(); // only after this click
    if (permission !== "granted") {
      say("Notices are blocked for this site: allow them in the browser's settings.");
      return;
    }
    const registration = await navigator.serviceWorker.register("/sw.js");
    await navigator.serviceWorker.ready;
    const { key } = await fetch("/api/push/key").then((r) => r.json());
    const subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true, applicationServerKey: keyBytes(key),
    });
    await api(`/api/games/${encodeURIComponent(app.gameId)}/notices`, { token: app.token, push: subscription.toJSON() });
    say("This device will show a notice when it is your turn.");
  } catch (err) {
    say(`No notices on this device: ${err.message}`);
  }
}

async function load() {
  try {
    const s = await api(`/api/games/${encodeURIComponent(app.gameId)}/notices`, { token: app.token });
    const field = $("#notices-email");
    if (!field.value) field.value = s.email || ""; // never over what was typed meanwhile
    $("#notices-every").value = s.mail_every || "hour";
    $("#notices-mute").checked = !!s.muted;
    $("#notices-mail").hidden = !s.mail;
    const parts = [];
    if (s.push) parts.push(`Notices on ${s.push} device${s.push === 1 ? "" : "s"}.`);
    if (s.mail && s.email) parts.push(mailState(s));
    if (parts.length) say(parts.join(" "));
  } catch (err) {
    say(err.message);
  }
}

/** Wire the menu once (the page's start). */
export function wireNotices() {
  let loaded = false;
  $("#notices").addEventListener("toggle", () => {
    if ($("#notices").open && !loaded) {
      loaded = true;
      load();
    }
  });
  $("#notices-push").addEventListener("click", subscribePush);
  $("#notices-mail").addEventListener("submit", async (e) => {
    e.preventDefault();
    const email = $("#notices-email").value.trim() || null;
    try {
      const s = await api(`/api/games/${encodeURIComponent(app.gameId)}/notices`, { token: app.token, email, mail_every: $("#notices-every").value });
      $("#notices-email").value = s.email || "";
      say(mailState(s));
    } catch (err) {
      say(err.message);
    }
  });
  $("#notices-mute").addEventListener("change", async () => {
    const muted = $("#notices-mute").checked;
    try {
      await api(`/api/games/${encodeURIComponent(app.gameId)}/notices`, { token: app.token, muted });
      say(muted ? "Muted: no notice for this game." : "Notices on for this game.");
    } catch (err) {
      say(err.message);
    }
  });
  setInterval(() => { if (corr()) renderNotices(); }, 30000);
}
