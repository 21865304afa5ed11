// The lobby's club choice (shown to a signed-in player with clubs): the game is made for the
// club chosen, with one of its house rules if chosen (their text is put in the house-rules
// box, where the lobby checks it as any file). GET /api/me, GET /api/clubs/{id}.

import {el} from "/static/dom.js";
import {api, me} from "/static/player.js";

const $ = (id) => document.getElementById(id);
const rules = new Map();

/** What POST /api/games adds for the club chosen: {club, club_rules} ({} for no club). The
 * rules are named only while the house-rules box still holds their text unchanged. */
export function clubChoice() {
  const club = $("lobby-club") ? $("lobby-club").value : "";
  if (!club) return {};
  const name = $("lobby-club-rules").value;
  const text = rules.get(name);
  return name && text !== undefined && $("toml-text").value === text ? {club, club_rules: name} : {club};
}

async function clubChanged() {
  const club = $("lobby-club").value;
  const field = $("lobby-club-rules-field");
  rules.clear();
  $("lobby-club-rules").replaceChildren(el("option", {value: "", text: "None"}));
  field.classList.add("hidden");
  if (!club) return;
  try {
    const page = await api("GET", `/api/clubs/${encodeURIComponent(club)}`);
    for (const r of page.rules) {
      rules.set(r.name, r.toml);
      $("lobby-club-rules").append(el("option", {value: r.name, text: r.name}));
    }
    field.classList.toggle("hidden", !page.rules.length);
  } catch {
    // the club could not be read: the game is still made for it, with the rules above
  }
}

function rulesChanged() {
  const text = rules.get($("lobby-club-rules").value);
  if (text === undefined) return;
  const radio = document.querySelector("input[name=house-mode][value=toml]");
  radio.checked = true;
  radio.dispatchEvent(new Event("change"));
  $("toml-text").value = text;
  $("toml-text").dispatchEvent(new Event("input"));
}

export async function startClubChoice() {
  if (!me() || !$("club-choice")) return;
  let clubs = [];
  try {
    clubs = (await api("GET", "/api/me")).clubs;
  } catch {
    return;
  }
  if (!clubs.length) return;
  const select = $("lobby-club");
  for (const c of clubs) select.append(el("option", {value: c.id, text: c.name}));
  const wanted = new URLSearchParams(window.location.search).get("club");
  if (wanted && clubs.some((c) => c.id === wanted)) select.value = wanted;
  $("club-choice").classList.remove("hidden");
  select.addEventListener("change", clubChanged);
  $("lobby-club-rules").addEventListener("change", rulesChanged);
  if (select.value) clubChanged();
}
