// The invite page (/club/join#TOKEN): the club's name (only a valid invite shows it), then a
// player is made if this browser has none, and the invite used (POST /api/invites/join).

import {el} from "/static/dom.js";
import {api, deviceLabel, me, newKey, remember, takeFragment} from "/static/player.js";

const $ = (id) => document.getElementById(id);
const token = takeFragment();

function say(kind, ...content) {
  $("join-status").replaceChildren(el("div", {class: `notice ${kind}`, role: kind === "error" ? "alert" : null}, ...content));
}

async function join() {
  try {
    const answer = await api("POST", "/api/invites/join", {token});
    window.location.assign(`/club#${answer.club.id}`);
  } catch (err) {
    say("error", el("p", {text: err.message}));
  }
}

async function start() {
  if (!token) {
    say("error", el("p", {text: "This page needs the whole invite link (the part after #)."}));
    return;
  }
  try {
    const preview = await api("POST", "/api/invites/preview", {token});
    $("join-title").textContent = `Join “${preview.club.name}”`;
  } catch (err) {
    say("error", el("p", {text: err.message}));
    return;
  }
  if (me()) {
    $("join-ready").classList.remove("hidden");
    say("", el("p", {text: `You join as ${me().name}.`}));
    $("join-club").addEventListener("click", join);
    return;
  }
  $("join-need-player").classList.remove("hidden");
  $("join-new-player").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const key = newKey();
      const answer = await api("POST", "/api/players", {name: $("join-name").value, key, label: deviceLabel()});
      remember(key, answer.player);
      await join();
    } catch (err) {
      say("error", el("p", {text: err.message}));
    }
  });
}

start();
