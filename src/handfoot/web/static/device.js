// The pages a one-time link opens: /me/device#TOKEN (a device link made on another device) and
// /signin#TOKEN (a mailed sign-in link); /signin without a token asks for a mailed link. The
// token is read from the fragment (never sent in a URL) and used by a POST on a press of the
// button, so a mail scanner that opens the link uses nothing.

import {el} from "/static/dom.js";
import {api, deviceLabel, me, newKey, remember, takeFragment} from "/static/player.js";

const $ = (id) => document.getElementById(id);
const token = takeFragment();

function say(box, kind, ...content) {
  box.replaceChildren(el("div", {class: `notice ${kind}`, role: kind === "error" ? "alert" : null}, ...content));
}

async function use(kind, box, button) {
  const current = me();
  if (current && !confirm(`This browser is ${current.name} now. Make it the player of the link instead?`)) return;
  button.disabled = true;
  const key = newKey();
  try {
    const answer = await api("POST", kind === "device" ? "/api/device" : "/api/signin", {token, key, label: deviceLabel()});
    remember(key, answer.player);
    button.classList.add("hidden");
    say(box, "ok", el("p", {}, `This device now plays as ${answer.player.name}. `, el("a", {href: "/me", text: "Go to your player"}), "."));
  } catch (err) {
    button.disabled = false;
    say(box, "error", el("p", {text: err.message}));
  }
}

if ($("device-page")) {
  const box = $("device-status");
  if (!token) {
    $("use-link").classList.add("hidden");
    say(box, "error", el("p", {text: "This page needs the whole link from your other device (the part after #)."}));
  }
  $("use-link").addEventListener("click", () => use("device", box, $("use-link")));
}

if ($("signin-page")) {
  const box = $("signin-status");
  if (token) {
    $("signin-use").classList.remove("hidden");
    $("use-mail").addEventListener("click", () => use("mail", box, $("use-mail")));
  } else {
    const form = $("signin-ask");
    form.classList.remove("hidden");
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const answer = await api("POST", "/api/signin/mail", {email: $("signin-email").value});
        say(box, "ok", el("p", {text: answer.message}));
      } catch (err) {
        say(box, "error", el("p", {text: err.message}));
      }
    });
  }
}
