// The lobby: start a game in two clicks, or set up rules, house rules, seats and bots first.
// Talks to GET /api/profiles, POST /api/rules/check and POST /api/games (docs/web.md, "Pages and HTTP API").

import {clubChoice, startClubChoice} from "/static/lobby-club.js";
import {rememberGame} from "/static/links.js";
import {HEADER, me} from "/static/player.js";
import {el, paramField} from "/static/dom.js";

const $ = (id) => document.getElementById(id);
const root = $("lobby");

const BOT_LEVELS_TEXT = {
  random: "random (plays any legal move)",
  easy: "easy",
  normal: "normal",
  hard: "hard",
  expert: "expert (slowest)",
  learned: "learned (tuned by self-play)",
};
const DEFAULT_BOT = "normal";
const UNTUNED_LEARNED = "learned (untuned here: as hard)";
// Parameters most tables change, shown first in the house-rules form (the rest are folded).
const KEY_PARAMETERS = [
  "hand_size", "foot_size", "draw_count", "book_size", "pickup_count", "pickup_needs_pair",
  "clean_books_to_go_out", "dirty_books_to_go_out", "wild_books_to_go_out", "permission",
  "final_discard", "clean_book_bonus", "dirty_book_bonus", "wild_book_bonus", "going_out_bonus",
  "red_three_bonus", "target_score",
];

const state = {
  data: null, // GET /api/profiles
  profile: null, // the chosen profile's entry
  layouts: [], // layouts allowed now (the profile's, or the checked house rules')
  layout: null,
  seats: [], // [{kind: "human"|"bot", name, level}], kept across layout changes
  house: {mode: "none", checked: null}, // checked: the last /api/rules/check answer
};

// --- small helpers --------------------------------------------------------------------------

function message(target, kind, ...content) {
  target.replaceChildren(content.length ? el("div", {class: `notice ${kind}`, role: kind === "error" ? "alert" : null}, ...content) : "");
}

async function api(method, path, body) {
  let response;
  try {
    const headers = body ? {"Content-Type": "application/json"} : {};
    if (me()) headers[HEADER] = me().key;  // a signed-in player's game is linked to them
    response = await fetch(path, {
      method,
      headers,
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new Error("The server does not answer. Is handfoot serve still running?");
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw new Error((data && (data.error || data.message)) || `The server answered ${response.status}.`);
  }
  return data;
}

function parseLayout(text) {
  const [sides, per] = text.toLowerCase().split("x").map(Number);
  return {sides, per, players: sides * per, text};
}

function layoutLabel(text) {
  const {sides, per, players} = parseLayout(text);
  if (per === 1) return `${players} players`;
  return `${sides} teams of ${per}`;
}

function layoutDescription(text) {
  const {sides, per, players} = parseLayout(text);
  if (per === 1) return `${players} players, each on their own.`;
  const opposite = sides === 2 && per === 2 ? " Partners sit opposite each other." : "";
  return `${players} players in ${sides} teams of ${per}: partners meld together and share one score.${opposite}`;
}

function number(n) {
  return ["no", "one", "two", "three", "four", "five", "six", "seven", "eight"][n] ?? String(n);
}

function myName() {
  return $("my-name").value.trim() || "You";
}

// --- profiles -------------------------------------------------------------------------------

function renderProfiles() {
  const box = $("profiles");
  box.replaceChildren();
  for (const p of state.data.profiles) {
    const id = `profile-${p.name}`;
    const input = el("input", {type: "radio", name: "profile", id, value: p.name, checked: p.name === state.profile.name});
    input.addEventListener("change", () => chooseProfile(p.name));
    box.append(el("label", {class: "profile-choice", for: id},
      input,
      el("span", {},
        el("strong", {class: "profile-title", text: p.title}),
        p.name === state.data.default ? el("span", {class: "badge ok", text: "default"}) : null,
        el("span", {class: "small muted profile-summary", text: profileLine(p)}),
      ),
    ));
  }
}

/** A profile's one line: what its source says it is ("seed 003: two-player or partnership
 * play, 11-card packets, ..."), which tells the profiles apart better than the seating. */
function profileLine(p) {
  const m = /^seed [^:]*:\s*(.+)$/.exec(p.source || "");
  return m ? m[1] : p.summary || p.source || "";
}

/** The deal the game will have, house rules (the form's) included: "13-card packets", or
 * "a 5-card hand and a 3-card foot". */
function dealText() {
  const values = state.profile.values || {};
  const form = state.house.mode === "form" ? formOverrides().overrides : {};
  const hand = Number(form.hand_size ?? values.hand_size);
  const foot = Number(form.foot_size ?? values.foot_size);
  if (!hand || !foot) return "";
  return hand === foot ? `${hand}-card packets` : `a ${hand}-card hand and a ${foot}-card foot`;
}

function chooseProfile(name) {
  state.profile = state.data.profiles.find((p) => p.name === name) || state.data.profiles[0];
  state.house.checked = null;
  $("check-result").replaceChildren();
  $("read-rules").href = `/rules/${encodeURIComponent(state.profile.name)}`;
  $("read-rules").textContent = `Read the ${state.profile.name} rules in full`;
  $("rounds").value = state.profile.rounds;
  renderParameters();
  setLayouts(state.profile.layouts, state.profile.default_layout);
  updateSummary();
}

// --- seating and seats ----------------------------------------------------------------------

function setLayouts(layouts, preferred) {
  state.layouts = layouts;
  const keep = layouts.includes(state.layout) ? state.layout : null;
  state.layout = keep || (layouts.includes(preferred) ? preferred : layouts[0]);
  const box = $("layouts");
  box.replaceChildren();
  const byPlayers = [...layouts].sort((a, b) => parseLayout(a).players - parseLayout(b).players || parseLayout(a).sides - parseLayout(b).sides);
  for (const text of byPlayers) {
    const input = el("input", {type: "radio", name: "layout", value: text, checked: text === state.layout});
    input.addEventListener("change", () => {
      state.layout = text;
      renderSeats();
      updateSummary();
    });
    box.append(el("label", {class: "chip", title: text}, input, el("span", {text: layoutLabel(text)})));
  }
  renderSeats();
}

function seatTitle(seat, layout) {
  const base = seatRole(seat, layout);
  const where = COMPASS[layout.players];
  return seat > 0 && where ? `${base} (${where[seat]})` : base;
}

function seatRole(seat, layout) {
  // Seat s belongs to side s % sides: the partners of seat 0 are seats sides, 2*sides, ...
  if (seat === 0) return "You";
  const side = seat % layout.sides;
  if (layout.per === 1) return `Opponent ${seat}`;
  if (side === 0) return layout.per === 2 ? "Your partner" : `Your partner ${seat / layout.sides}`;
  const teamNo = side + 1;
  const nth = Math.floor(seat / layout.sides) + 1;
  return layout.sides === 2 ? `Opponent ${nth}` : `Team ${teamNo}, player ${nth}`;
}

function renderSeats() {
  const layout = parseLayout(state.layout);
  while (state.seats.length < layout.players) {
    state.seats.push(state.seats.length === 0 ? {kind: "human", name: ""} : {kind: "bot", level: DEFAULT_BOT, name: ""});
  }
  const box = $("seats");
  box.replaceChildren();
  const groups = [];
  for (let side = 0; side < layout.sides; side++) {
    const seats = [];
    for (let s = side; s < layout.players; s += layout.sides) seats.push(s);
    groups.push(seats);
  }
  groups.forEach((seats, side) => {
    const title = layout.per === 1 ? null : side === 0 ? "Your team" : layout.sides === 2 ? "Opponents" : `Team ${side + 1}`;
    const group = el("div", {class: "seat-group"}, title ? el("h3", {class: "seat-group-title", text: title}) : null);
    for (const s of seats) group.append(seatRow(s, layout));
    box.append(group);
  });
  refreshLevelTexts();
  updateSummary();
}

function seatRow(s, layout) {
  const seat = state.seats[s];
  const title = seatTitle(s, layout);
  const kind = el("select", {id: `seat-${s}-kind`, "aria-label": `${title}: who plays`});
  kind.append(el("option", {value: "human", text: s === 0 ? "Me (name at the top)" : "A person", selected: seat.kind === "human"}));
  for (const level of state.data.bots) {
    kind.append(el("option", {value: `bot:${level}`, text: `Bot: ${levelText(level)}`, selected: seat.kind === "bot" && seat.level === level}));
  }
  const name = el("input", {
    type: "text", id: `seat-${s}-name`, maxlength: "40", autocomplete: "off",
    placeholder: s === 0 ? "Your name" : "Their name", value: s === 0 ? $("my-name").value : seat.name,
    "aria-label": `${title}: name`, class: seat.kind === "human" && s !== 0 ? "" : "hidden",
  });
  kind.addEventListener("change", () => {
    if (kind.value === "human") {
      seat.kind = "human";
    } else {
      seat.kind = "bot";
      seat.level = kind.value.slice(4);
    }
    name.classList.toggle("hidden", seat.kind !== "human" || s === 0);
    if (seat.kind === "human" && s !== 0) name.focus();
    updateSummary();
  });
  name.addEventListener("input", () => {
    seat.name = name.value;
    if (s === 0) $("my-name").value = name.value;
  });
  return el("div", {class: "seat-row"},
    el("label", {class: "seat-title", for: `seat-${s}-kind`, text: title}),
    el("div", {class: "seat-inputs"}, kind, name),
  );
}

// The learned level's style for the rules and seating chosen now (the checked house rules':
// their own or that of the built-in rule set they extend; else the rule set's), or null: it
// plays untuned there (GET /api/profiles and POST /api/rules/check give "learned_styles").
function learnedStyle() {
  const checked = state.house.checked && state.house.checked.ok ? state.house.checked : null;
  const styles = (checked || state.profile || {}).learned_styles || {};
  return styles[state.layout] || null;
}

// A level as the menus name it: "hard · rating 27.1" (the level's OpenSkill rating), and
// learned says when it plays untuned.
function levelText(level) {
  const text = level === "learned" && state.profile && !learnedStyle() ? UNTUNED_LEARNED : BOT_LEVELS_TEXT[level] || level;
  const rating = state.data.ratings && state.data.ratings[level];
  return typeof rating === "number" ? `${text} · rating ${rating.toFixed(1)}` : text;
}

function refreshLevelTexts() {
  for (const option of $("all-bots").options) if (option.value) option.text = levelText(option.value);
}

function renderBotLevels() {
  const all = $("all-bots");
  all.replaceChildren(el("option", {value: "", text: "(each as chosen below)"}));
  for (const level of state.data.bots) all.append(el("option", {value: level, text: levelText(level)}));
  all.addEventListener("change", () => {
    if (!all.value) return;
    for (const seat of state.seats) if (seat.kind === "bot") seat.level = all.value;
    renderSeats();
  });
}

// --- the summary line -----------------------------------------------------------------------

function updateSummary() {
  if (!state.profile) return;
  const layout = parseLayout(state.layout);
  const seats = state.seats.slice(0, layout.players);
  const people = seats.filter((s) => s.kind === "human").length;
  const bots = seats.filter((s) => s.kind === "bot");
  const levels = [...new Set(bots.map((b) => b.level))];
  const botText = levels.length === 1 ? `${levels[0]} bot` : "bot";
  let who;
  if (layout.per === 2 && layout.sides === 2) {
    const partner = seats[2];
    const opponents = [seats[1], seats[3]];
    const partnerText = partner.kind === "human" ? `${partner.name.trim() || "a person"} as your partner` : `a ${partner.level} bot partner`;
    const oppBots = opponents.filter((o) => o.kind === "bot").length;
    const oppText = oppBots === 2 ? `two ${opponents[0].level === opponents[1].level ? opponents[0].level + " " : ""}bots`
      : oppBots === 0 ? "two people" : "a person and a bot";
    who = `You and ${partnerText} against ${oppText}`;
  } else {
    const others = layout.players - 1;
    who = people === layout.players ? `${number(layout.players)} people` : people > 1
      ? `You, ${number(people - 1)} other ${people === 2 ? "person" : "people"} and ${number(bots.length)} ${botText}${bots.length === 1 ? "" : "s"}`
      : `You against ${number(others)} ${botText}${others === 1 ? "" : "s"}`;
    if (layout.per > 1) who += `, in ${number(layout.sides)} teams of ${number(layout.per)}`;
  }
  const rounds = Number($("rounds").value) || state.profile.rounds;
  const house = state.house.checked && state.house.checked.ok ? ` with house rules (${state.house.checked.differences.length} changes)` : "";
  const deal = dealText();
  const packets = /\b\d+-card packets\b/;
  // the rule set's title may name its deal: the deal the house rules make instead
  const title = !deal ? state.profile.title : packets.test(state.profile.title)
    ? state.profile.title.replace(packets, deal) : `${state.profile.title}, ${deal}`;
  $("quick-summary").textContent = `${who}: ${title}${house}, ${rounds} round${rounds === 1 ? "" : "s"}.`;
  // the chosen rule set's line tells of the deal its house rules make, not of its own
  for (const p of state.data.profiles) {
    const label = document.querySelector(`input[name="profile"][value="${CSS.escape(p.name)}"]`)?.closest("label");
    const line = label?.querySelector(".profile-summary");
    const head = label?.querySelector(".profile-title");
    const mine = p === state.profile && deal;
    if (line) line.textContent = mine ? profileLine(p).replace(packets, deal) : profileLine(p);
    if (head) head.textContent = mine ? p.title.replace(packets, deal) : p.title;
  }
  $("quick-summary").append(" ", el("a", {href: "#setup", text: "Change"}));
}

// --- house rules ----------------------------------------------------------------------------

function setHouseMode(mode) {
  state.house.mode = mode;
  state.house.checked = null;
  $("house-form").classList.toggle("hidden", mode !== "form");
  $("house-toml").classList.toggle("hidden", mode !== "toml");
  $("house-actions").classList.toggle("hidden", mode === "none");
  $("check-result").replaceChildren();
  if (mode === "none") setLayouts(state.profile.layouts, state.profile.default_layout);
  updateSummary();
}

function renderOptions() {
  const box = $("options-list");
  box.replaceChildren();
  for (const o of state.data.options) {
    const id = `opt-${o.key}`;
    box.append(el("label", {class: "check", for: id},
      el("input", {type: "checkbox", id, "data-option": o.key, onchange: houseChanged}),
      el("span", {}, el("strong", {text: o.title}), " ", el("span", {class: "badge", text: o.id}),
        el("br"), el("span", {class: "small muted", text: o.text || ""})),
    ));
  }
}

function renderParameters() {
  if (!state.data) return;
  const values = state.profile.values || {};
  const key = $("params-key");
  const rest = $("params-rest");
  key.replaceChildren();
  rest.replaceChildren();
  const byKey = new Map(state.data.parameters.map((p) => [p.key, p]));
  for (const name of KEY_PARAMETERS) {
    const p = byKey.get(name);
    const node = p && paramField(p, values[name], houseChanged);
    if (node) key.append(node);
  }
  let section = null;
  for (const p of state.data.parameters) {
    if (KEY_PARAMETERS.includes(p.key) || p.key === "rounds") continue;
    const node = paramField(p, values[p.key], houseChanged);
    if (!node) continue;
    if (p.section !== section) {
      section = p.section;
      rest.append(el("h4", {class: "param-section", text: section.replaceAll("_", " ")}));
    }
    rest.append(node);
  }
}

function houseChanged() {
  const wasChecked = state.house.checked;
  state.house.checked = null;
  $("check-result").replaceChildren();
  if (wasChecked) renderSeats(); // the learned level's style follows the rules (levelText)
  else updateSummary();
}

function formOverrides() {
  const overrides = {};
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    if (input.checked) options[input.dataset.option] = true;
  }
  for (const input of document.querySelectorAll("[data-param]")) {
    const raw = input.value.trim();
    if (raw === "") continue;
    const type = input.dataset.type;
    if (type === "bool") overrides[input.dataset.param] = raw === "true";
    else if (type === "int") overrides[input.dataset.param] = Number(raw);
    // "all" or "none" go as words (the server names a typo); a number as a number
    else if (type === "opt_int") overrides[input.dataset.param] = /^-?\d+$/.test(raw) ? Number(raw) : raw.toLowerCase();
    else overrides[input.dataset.param] = raw;
  }
  return {overrides, options};
}

/** What the rules part of a request says: the base profile and the house rules, if any. */
function rulesRequest() {
  if (state.house.mode === "toml") {
    const text = $("toml-text").value;
    return {base: state.profile.name, overrides: {}, options: {}, toml: text.trim() ? text : null};
  }
  if (state.house.mode === "form") {
    return {base: state.profile.name, ...formOverrides(), toml: null};
  }
  return {base: state.profile.name, overrides: {}, options: {}, toml: null};
}

function hasHouseRules(req) {
  return Boolean(req.toml) || Object.keys(req.overrides).length > 0 || Object.keys(req.options).length > 0;
}

async function checkRules() {
  const req = rulesRequest();
  const out = $("check-result");
  if (!hasHouseRules(req)) {
    message(out, "", el("p", {text: state.house.mode === "toml" ? "Paste or upload a house-rule file first." : "Tick an option or fill in a parameter first."}));
    return null;
  }
  // "profile" names the base as in POST /api/games ("base" is the contract's first spelling).
  const body = req.toml ? {toml: req.toml} : {profile: req.base, base: req.base, overrides: req.overrides, options: req.options};
  $("check-rules").disabled = true;
  try {
    const answer = await api("POST", "/api/rules/check", body);
    state.house.checked = answer;
    if (answer.ok) {
      const diffs = answer.differences || [];
      message(out, "ok",
        el("p", {}, el("strong", {text: "These house rules are valid."}),
          ` ${answer.name ? `“${answer.name}”: ` : ""}${diffs.length ? `${diffs.length} difference${diffs.length === 1 ? "" : "s"} from ${req.toml ? "the rule set it extends" : state.profile.name}:` : "No differences from the rule set."}`),
        diffs.length ? el("ul", {}, diffs.map((d) => el("li", {text: d}))) : null);
      if (answer.layouts && answer.layouts.length) setLayouts(answer.layouts, answer.layouts[0]);
    } else {
      message(out, "error", el("p", {}, el("strong", {text: "These house rules cannot be played: "}), answer.error));
    }
    renderSeats(); // the levels' texts follow the checked rules (levelText)
    return answer;
  } catch (err) {
    message(out, "error", el("p", {text: err.message}));
    return null;
  } finally {
    $("check-rules").disabled = false;
  }
}

// --- creating the game ----------------------------------------------------------------------

// Bots are named by where they sit (seats go clockwise from you), so sides read
// "Ann and North" against "West and East"; the table shows each bot's level beside its name.
const COMPASS = {2: ["South", "North"], 3: ["South", "West", "East"], 4: ["South", "West", "North", "East"]};

function botName(seat, players) {
  const names = COMPASS[players];
  return names ? names[seat] : `Bot ${seat + 1}`;
}

function withLearn(link) {
  const hash = link.indexOf("#");
  const path = hash < 0 ? link : link.slice(0, hash);
  const fragment = hash < 0 ? "" : link.slice(hash);
  return path + (path.includes("?") ? "&" : "?") + "learn=1" + fragment;
}

function absoluteLink(link) {
  return new URL(link, window.location.origin).href;
}

async function createGame(statusBox, button) {
  if (!state.data) return;
  const req = rulesRequest();
  if (state.house.mode !== "none" && hasHouseRules(req) && !(state.house.checked && state.house.checked.ok)) {
    const answer = await checkRules();
    if (!answer || !answer.ok) {
      message(statusBox, "error", el("p", {}, "The house rules need fixing first: ", el("a", {href: "#house-rules", text: "see below"}), "."));
      return;
    }
  }
  const layout = parseLayout(state.layout);
  const seats = state.seats.slice(0, layout.players).map((seat, i) => seat.kind === "human"
    ? {kind: "human", name: (i === 0 ? myName() : seat.name.trim()) || `Player ${i + 1}`}
    : {kind: "bot", level: seat.level, name: botName(i, layout.players)});
  const rounds = Math.max(1, Math.min(100, Number($("rounds").value) || state.profile.rounds));
  const body = {
    profile: state.profile.name,
    overrides: req.overrides,
    options: req.options,
    toml: req.toml,
    layout: state.layout,
    rounds,
    seats,
    absent: document.querySelector("input[name=absent]:checked").value,
    ...clubChoice(),
    talk: {reactions: $("talk-reactions").checked, watchers: $("talk-watchers").checked, chat: $("talk-chat").checked},
  };
  if ($("pace-correspondence").checked) {
    body.correspondence = {per_move: Number($("per-move").value), on_timeout: $("on-timeout").value};
  }
  button.disabled = true;
  const label = button.textContent;
  button.textContent = "Dealing…";
  message(statusBox, "");
  try {
    const game = await api("POST", "/api/games", body);
    gameCreated(game, body);
  } catch (err) {
    message(statusBox, "error", el("p", {}, el("strong", {text: "The game was not created: "}), err.message));
  } finally {
    button.disabled = false;
    button.textContent = label;
  }
}

function gameCreated(game, body) {
  const learn = $("learn").checked;
  const created = new Date().toISOString();
  const profile = body.toml ? `${body.profile} + house rules` : body.profile;
  const humans = game.seats.filter((s) => s.kind === "human" && s.link);
  const mine = humans[0];
  for (const s of humans) {
    rememberGame({game_id: game.game_id, link: s === mine && learn ? withLearn(s.link) : s.link, role: "player",
      seat: s.seat, name: s.name, created, profile});
  }
  if (game.spectator_link) {
    rememberGame({game_id: game.game_id, link: game.spectator_link, role: "spectator", seat: null, name: "spectator", created, profile});
  }
  const myLink = mine ? (learn ? withLearn(mine.link) : mine.link) : game.spectator_link;
  if (humans.length <= 1) {
    window.location.assign(myLink);
    return;
  }
  // Other people play: show their links first.
  const box = $("invite-links");
  box.replaceChildren();
  for (const s of humans.slice(1)) box.append(linkRow(`${s.name} (seat ${s.seat + 1})`, absoluteLink(s.link)));
  if (game.spectator_link) box.append(linkRow("Watchers (read-only)", absoluteLink(game.spectator_link)));
  box.append(linkRow(`You, ${mine.name}`, absoluteLink(myLink), "keep this one: it is your seat"));
  $("go-to-seat").href = myLink;
  $("invites").classList.remove("hidden");
  $("start").classList.add("hidden");
  $("setup").classList.add("hidden");
  $("invites").focus();
}

function linkRow(who, url, note) {
  const id = `link-${Math.random().toString(36).slice(2, 8)}`;
  const input = el("input", {type: "text", id, value: url, readonly: true, "aria-label": `Link for ${who}`});
  input.addEventListener("focus", () => input.select());
  const button = el("button", {type: "button", class: "btn", text: "Copy"});
  button.addEventListener("click", async () => {
    let ok = false;
    try {
      await navigator.clipboard.writeText(url);
      ok = true;
    } catch {
      input.focus();
      input.select();
      ok = document.execCommand && document.execCommand("copy");
    }
    button.textContent = ok ? "Copied ✓" : "Select and copy";
    setTimeout(() => { button.textContent = "Copy"; }, 2000);
  });
  let share = null;
  if (navigator.share) {
    share = el("button", {type: "button", class: "btn", text: "Share"});
    share.addEventListener("click", () => {
      navigator.share({title: "Hand and Foot", text: `Your seat at our Hand and Foot table (${who}):`, url}).catch(() => {});
    });
  }
  return el("div", {class: "link-row"},
    el("label", {class: "who", for: id}, who, note ? el("span", {class: "small muted", text: ` (${note})`}) : null),
    input, button, share);
}

// --- start ----------------------------------------------------------------------------------

async function start() {
  const status = $("play-status");
  try {
    state.data = await api("GET", "/api/profiles");
  } catch (err) {
    message(status, "error", el("p", {text: `The rule sets could not be loaded: ${err.message}`}));
    $("play").disabled = true;
    $("play-setup").disabled = true;
    $("profiles").replaceChildren(el("p", {class: "muted", text: "Unavailable."}));
    return;
  }
  const wanted = root.dataset.profile || state.data.default;
  state.profile = state.data.profiles.find((p) => p.name === wanted)
    || state.data.profiles.find((p) => p.name === state.data.default) || state.data.profiles[0];
  $("learn").checked = root.dataset.learn === "1";
  renderBotLevels();
  renderProfiles();
  renderOptions();
  chooseProfile(state.profile.name);

  $("my-name").addEventListener("input", () => {
    const seatName = $("seat-0-name");
    if (seatName) seatName.value = $("my-name").value;
  });
  $("rounds").addEventListener("input", updateSummary);
  for (const radio of document.querySelectorAll("input[name=pace]")) {
    radio.addEventListener("change", () => {
      const slow = $("pace-correspondence").checked;
      for (const field of document.querySelectorAll(".correspondence-only")) field.classList.toggle("hidden", !slow);
    });
  }
  for (const radio of document.querySelectorAll("input[name=house-mode]")) {
    radio.addEventListener("change", () => setHouseMode(radio.value));
  }
  $("check-rules").addEventListener("click", checkRules);
  startClubChoice();
  $("clear-rules").addEventListener("click", () => {
    for (const input of document.querySelectorAll("[data-option]")) input.checked = false;
    for (const input of document.querySelectorAll("[data-param]")) input.value = "";
    $("toml-text").value = "";
    $("toml-file").value = "";
    houseChanged();
    setLayouts(state.profile.layouts, state.profile.default_layout);
  });
  $("toml-text").addEventListener("input", houseChanged);
  $("toml-file").addEventListener("change", async () => {
    const file = $("toml-file").files[0];
    if (!file) return;
    if (file.size > 200_000) {
      message($("check-result"), "error", el("p", {text: "That file is too big for a house-rule file."}));
      return;
    }
    $("toml-text").value = await file.text();
    houseChanged();
    checkRules();
  });
  $("quick-form").addEventListener("submit", (e) => {
    e.preventDefault();
    createGame($("play-status"), $("play"));
  });
  $("setup").addEventListener("submit", (e) => {
    e.preventDefault();
    createGame($("setup-status"), $("play-setup"));
  });
  $("new-game").addEventListener("click", () => {
    $("invites").classList.add("hidden");
    $("start").classList.remove("hidden");
    $("setup").classList.remove("hidden");
    $("play").focus();
  });
}

start();
