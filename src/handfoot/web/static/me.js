// The player's own page (/me): make a player, or see and change it: clubs, games, devices (and
// a one-time link with its QR code that adds one), name, e-mail, export, delete. API:
// /api/players, /api/me... (docs/club.md).

import {el} from "/static/dom.js";
import {games as heldLinks} from "/static/links.js";
import {api, deviceLabel, forget, me, newKey, remember, svgNode} from "/static/player.js";

const $ = (id) => document.getElementById(id);
let countdown = null;

function say(kind, ...content) {
  $("me-status").replaceChildren(content.length ? el("div", {class: `notice ${kind}`, role: kind === "error" ? "alert" : null}, ...content) : "");
}

function when(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleDateString("en-GB", {day: "numeric", month: "short", year: "numeric"});
}

function signedOut() {
  $("signed-out").classList.remove("hidden");
  $("signed-in").classList.add("hidden");
  $("me-title").textContent = "Your player";
  $("new-name").focus();
}

function gameLink(gameId) {
  const held = heldLinks().find((g) => g.game_id === gameId && g.role === "player");
  return held ? held.link : null;
}

function render(data) {
  $("signed-out").classList.add("hidden");
  $("signed-in").classList.remove("hidden");
  const p = data.player;
  $("me-title").textContent = `Hello, ${p.name}`;
  $("my-name").value = p.name;
  $("my-email").value = p.email || "";
  $("email-state").textContent = !p.email ? "No address: a lost device is added back only from another device."
    : p.email_verified ? "Verified: a sign-in link can be mailed to it." : "Not verified yet: it is verified the first time you sign in with a mailed link.";
  const clubs = data.clubs.map((c) => el("li", {class: "list-row"},
    el("a", {href: `/club#${c.id}`, class: "strong", text: c.name}),
    el("span", {class: "badge", text: c.role})));
  $("club-list").replaceChildren(...(clubs.length ? clubs : [el("li", {class: "muted", text: "No club yet: start one for your family, then invite them."})]));
  const games = data.games.map((g) => {
    const link = gameLink(g.game_id) || (g.club ? `/club#${g.club}` : null);
    const state = g.finished ? el("span", {class: "badge ok", text: "finished"})
      : g.my_turn ? el("span", {class: "badge live", text: "your turn"}) : el("span", {class: "badge", text: "in progress"});
    const title = g.names.length ? g.names.join(", ") : `Game ${g.game_id.slice(0, 6)}`;
    return el("li", {class: "list-row"},
      link ? el("a", {href: g.finished ? `/replay/${g.game_id}` : link, class: "strong", text: title}) : el("span", {class: "strong", text: title}),
      state, el("span", {class: "muted small", text: `${g.rules} · ${when(g.updated)}`}));
  });
  $("game-list").replaceChildren(...(games.length ? games : [el("li", {class: "muted", text: "No games yet. Games you start or join while signed in are listed here."})]));
  $("device-list").replaceChildren(...data.devices.map((d) => el("li", {class: "list-row"},
    el("span", {class: "strong", text: d.label}),
    el("span", {class: "muted small", text: `added ${when(d.created)}, last used ${when(d.seen)}`}),
    el("button", {type: "button", class: "btn btn-quiet", text: "Remove", onclick: () => forgetDevice(d)}))));
}

async function load() {
  if (!me()) return signedOut();
  try {
    render(await api("GET", "/api/me"));
  } catch (err) {
    if (err.status === 401) {
      forget();
      say("error", el("p", {text: "This browser's player is no longer known to the server (deleted, or removed from your devices)."}));
      return signedOut();
    }
    say("error", el("p", {text: err.message}));
  }
}

async function forgetDevice(d) {
  if (!confirm(`Remove “${d.label}”? That browser will no longer play as you.`)) return;
  try {
    await api("POST", "/api/me/forget-device", {device: d.id});
    await load();
  } catch (err) {
    say("error", el("p", {text: err.message}));
  }
}

async function addDevice() {
  const box = $("device-link");
  try {
    const link = await api("POST", "/api/me/device-link", {});
    let left = link.minutes * 60;
    const clock = el("span", {class: "strong"});
    const tick = () => {
      clock.textContent = left > 0 ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` : "expired";
      left -= 1;
    };
    if (countdown) clearInterval(countdown);
    tick();
    countdown = setInterval(tick, 1000);
    const input = el("input", {type: "text", readonly: true, value: link.url, "aria-label": "The link for your other device", onfocus: (e) => e.target.select()});
    box.replaceChildren(
      el("h3", {text: "Open this on your other device"}),
      el("div", {class: "qr"}, svgNode(link.qr)),
      el("p", {}, "Scan the code with the other device's camera, or send yourself the link. It works once; it expires in ", clock, "."),
      input);
    box.classList.remove("hidden");
    box.focus();
  } catch (err) {
    say("error", el("p", {text: err.message}));
  }
}

async function exportData() {
  try {
    const data = await api("GET", "/api/me/export");
    const blob = new Blob([JSON.stringify(data, null, 2)], {type: "application/json"});
    const a = el("a", {href: URL.createObjectURL(blob), download: "handfoot-my-data.json"});
    document.body.append(a);
    a.click();
    a.remove();
  } catch (err) {
    say("error", el("p", {text: err.message}));
  }
}

async function deletePlayer() {
  if (!confirm("Delete your player for good? Your name and address are erased everywhere; your seats in past games show “Former player”. This cannot be undone.")) return;
  try {
    await api("POST", "/api/me/delete", {confirm: true});
    forget();
    say("ok", el("p", {text: "Your player is deleted. Nothing about you is kept but the anonymous results of past games."}));
    signedOut();
  } catch (err) {
    say("error", el("p", {text: err.message}));
  }
}

function submit(id, action) {
  $(id).addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await action();
    } catch (err) {
      say("error", el("p", {text: err.message}));
    }
  });
}

submit("new-player", async () => {
  const key = newKey();
  const answer = await api("POST", "/api/players", {name: $("new-name").value, key, label: deviceLabel()});
  remember(key, answer.player);
  say("ok", el("p", {text: `Welcome, ${answer.player.name}. This browser now plays as you.`}));
  await load();
});
submit("new-club", async () => {
  const answer = await api("POST", "/api/clubs", {name: $("club-name").value});
  window.location.assign(`/club#${answer.club.id}`);
});
submit("rename", async () => {
  const answer = await api("POST", "/api/me", {name: $("my-name").value});
  remember(me().key, answer.player);
  say("ok", el("p", {text: "Your name is saved."}));
  await load();
});
submit("set-email", async () => {
  await api("POST", "/api/me", {email: $("my-email").value.trim() || null});
  say("ok", el("p", {text: "Your address is saved."}));
  await load();
});
$("add-device").addEventListener("click", addDevice);
$("export").addEventListener("click", exportData);
$("delete").addEventListener("click", deletePlayer);
load();
