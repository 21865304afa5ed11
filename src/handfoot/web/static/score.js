// The score keeper (docs/score-keeper.md): make a sheet, enter and correct rounds, follow it live.
// Talks to GET /api/profiles, POST /api/scores, GET /api/scores/ID[?since=V],
// POST /api/scores/ID/rounds/N and GET /api/scores/ID/changes. Scoring is the server's.

import {lineChart} from "/static/chart.js";
import {el, paramField} from "/static/dom.js";

const $ = (id) => document.getElementById(id);
const root = $("score");
const sheetId = root.dataset.sheet;
const POLL_MS = 2000;

const fmt = (n) => (n === null || n === undefined ? "–" : Number(n).toLocaleString("en-US"));

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? {"Content-Type": "application/json"} : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  if (response.status === 204) return {status: 204, data: null};
  let data = null;
  try { data = await response.json(); } catch { data = {error: `the server answered ${response.status}`}; }
  return {status: response.status, data};
}

function showError(box, text) {
  box.textContent = text || "";
  box.classList.toggle("hidden", !text);
  if (text) box.scrollIntoView({block: "nearest"});
}

// --- a new sheet ----------------------------------------------------------------------------

async function newSheetPage() {
  const form = $("new-sheet");
  const {data} = await api("GET", "/api/profiles");
  const profiles = data.profiles;
  const select = $("sheet-profile");
  for (const p of profiles) select.append(el("option", {value: p.name, text: p.title}));
  select.value = data.default;
  const optionsBox = $("options-list");
  const layoutSelect = $("sheet-layout");

  function profile() { return profiles.find((p) => p.name === select.value); }

  function layoutWords(text) {
    const [sides, per] = text.split("x").map(Number);
    return per > 1 ? `${sides} sides of ${per} partners (${sides * per} players)` : `${sides} players, each on their own`;
  }

  function fillOptions() {
    optionsBox.replaceChildren(...data.options.map((o) => el("label", {class: "check"},
      el("input", {type: "checkbox", value: o.key, "data-option": o.key}),
      el("span", {}, el("strong", {text: o.title}), " ", el("span", {class: "small muted", text: o.text})))));
  }

  // Single parameters, as the new-game form has them (lists and maps only in a TOML file);
  // the scoring ones first, which matter most to a score keeper.
  function fillParams() {
    const values = profile().values || {};
    const box = $("params-list");
    const kept = Object.fromEntries([...box.querySelectorAll("[data-param]")].map((i) => [i.dataset.param, i.value]));
    const params = data.parameters.filter((p) => p.key !== "rounds");
    const order = (p) => (p.section === "scoring" ? 0 : 1);
    params.sort((a, b) => order(a) - order(b));
    const nodes = [];
    let section = null;
    for (const p of params) {
      const node = paramField(p, values[p.key]);
      if (!node) continue;
      if (p.section !== section) {
        section = p.section;
        nodes.push(el("h4", {class: "param-section", text: section.replaceAll("_", " ")}));
      }
      const input = node.querySelector("[data-param]");
      if (kept[p.key]) input.value = kept[p.key];
      nodes.push(node);
    }
    box.replaceChildren(...nodes);
  }

  function paramOverrides() {
    const overrides = {};
    for (const input of $("params-list").querySelectorAll("[data-param]")) {
      const raw = input.value.trim();
      if (raw === "") continue;
      const type = input.dataset.type;
      if (type === "bool") overrides[input.dataset.param] = raw === "true";
      else if (type === "int" || type === "opt_int") overrides[input.dataset.param] = input.validity.badInput ? raw : Number(raw);
      else overrides[input.dataset.param] = raw;
    }
    return overrides;
  }

  function fillLayouts() {
    const p = profile();
    fillParams();
    layoutSelect.replaceChildren(...p.layouts.map((l) => el("option", {value: l, text: layoutWords(l)})));
    layoutSelect.value = p.default_layout;
    $("sheet-rounds").placeholder = String(p.rounds);
    $("rounds-hint").textContent = `(empty: the rule set's ${p.rounds})`;
    fillNames();
  }

  function fillNames() {
    const [sides, per] = layoutSelect.value.split("x").map(Number);
    const list = $("names-list");
    const old = [...list.querySelectorAll("input")].map((i) => [i.id, i.value]);
    const kept = Object.fromEntries(old);
    const groups = [];
    for (let s = 0; s < sides; s++) {
      const group = el("div", {class: "name-group"});
      if (per > 1) {
        group.append(el("div", {class: "field"}, el("label", {for: `side-${s}`, text: `Side ${s + 1}`}),
          el("input", {type: "text", id: `side-${s}`, maxlength: "40", placeholder: `Side ${s + 1}`, value: kept[`side-${s}`] || ""})));
      }
      for (let j = 0; j < per; j++) {
        const id = `player-${s}-${j}`;
        group.append(el("div", {class: "field"}, el("label", {for: id, text: per > 1 ? `Partner ${j + 1}` : `Player ${s + 1}`}),
          el("input", {type: "text", id, maxlength: "40", autocomplete: "off", placeholder: per > 1 ? `Partner ${j + 1}` : `Player ${s + 1}`, value: kept[id] || ""})));
      }
      groups.push(group);
    }
    list.replaceChildren(...groups);
  }

  const kept = keptSheets();
  if (kept.length) {
    form.before(el("section", {class: "panel", "aria-labelledby": "kept-title"},
      el("h2", {id: "kept-title", text: "Score sheets you keep"}),
      el("ul", {class: "kept-sheets"}, ...kept.map((k) => el("li", {}, el("a", {href: k.link, text: k.title || "Score sheet"}),
        el("span", {class: "small muted", text: ` started ${new Date(k.at).toLocaleDateString()}`}))))));
  }
  fillOptions();
  fillLayouts();
  select.addEventListener("change", fillLayouts);
  layoutSelect.addEventListener("change", fillNames);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const [sides, per] = layoutSelect.value.split("x").map(Number);
    const body = {title: $("sheet-title").value, layout: layoutSelect.value};
    const rounds = $("sheet-rounds").value.trim();
    if (rounds) body.rounds = Number(rounds);
    const toml = $("sheet-toml").value.trim();
    if (toml) body.toml = toml;
    else {
      body.profile = select.value;
      const options = {};
      for (const box of optionsBox.querySelectorAll("input:checked")) options[box.value] = true;
      if (Object.keys(options).length) body.options = options;
      const overrides = paramOverrides();
      if (Object.keys(overrides).length) body.overrides = overrides;
    }
    const players = [];
    const sideNames = [];
    for (let s = 0; s < sides; s++) {
      const names = [];
      for (let j = 0; j < per; j++) names.push($(`player-${s}-${j}`).value.trim() || null);
      players.push(names);
      sideNames.push(per > 1 ? ($(`side-${s}`).value.trim() || (names.every(Boolean) ? names.join(" & ") : null)) : names[0]);
    }
    body.sides = sideNames;
    body.players = players;
    const {status, data: made} = await api("POST", "/api/scores", body);
    if (status !== 200) { showError($("new-error"), made.error); return; }
    window.location.assign(made.edit_link);
  });
}

// --- a sheet --------------------------------------------------------------------------------

const sheet = {
  data: null, // GET /api/scores/ID
  token: null, // the keeper's token (from #k=), or null on the read-only link
  correcting: null, // the round being corrected, or null for the next one
  mode: {}, // per side and part: "total" or "cards"
};

function draftKey() { return `handfoot-score-draft-${sheetId}`; }

function tokenFromHash() {
  const match = /(?:^#|&)k=([A-Za-z0-9_-]+)/.exec(window.location.hash);
  return match ? match[1] : null;
}

// The sheets this browser keeps (their keeper's links), listed on the new-sheet page.
const KEPT = "handfoot-score-sheets";

function keptSheets() {
  try { return JSON.parse(localStorage.getItem(KEPT) || "[]"); } catch { return []; }
}

function rememberSheet(title) {
  const link = window.location.pathname + window.location.hash;
  const all = keptSheets();
  const before = all.find((k) => k.id === sheetId);
  const others = all.filter((k) => k.id !== sheetId);
  const at = before ? before.at : new Date().toISOString();
  localStorage.setItem(KEPT, JSON.stringify([{id: sheetId, title, link, at}, ...others].slice(0, 50)));
}

async function sheetPage() {
  sheet.token = tokenFromHash();
  // at the table the totals come first; the link to pass on waits at the bottom
  if (!sheet.token) $("more-title").parentElement.append(document.querySelector(".score-links"));
  $("share-link").value = new URL(`/score/${sheetId}`, window.location.href).href;
  $("copy-share").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText($("share-link").value); $("copy-share").textContent = "Copied"; }
    catch { $("share-link").select(); }
  });
  $("export-csv").href = `/api/scores/${sheetId}/export.csv`;
  $("export-json").href = `/api/scores/${sheetId}/export.json`;
  $("who").value = localStorage.getItem("handfoot-score-who") || "";
  $("who").addEventListener("input", () => localStorage.setItem("handfoot-score-who", $("who").value));
  $("round-form").addEventListener("submit", saveRound);
  $("round-form").addEventListener("input", saveDraft);
  $("cancel-correction").addEventListener("click", () => { sheet.correcting = null; buildEntry(null); });
  $("history").addEventListener("toggle", () => { if ($("history").open) loadHistory(); });
  await refresh(true);
  setInterval(() => refresh(false), POLL_MS);
}

async function refresh(first) {
  const version = sheet.data ? sheet.data.version : 0;
  const {status, data} = await api("GET", `/api/scores/${sheetId}${first ? "" : `?since=${version}`}`);
  if (status === 204) return;
  if (status !== 200) {
    $("sheet-heading").textContent = "No score sheet here";
    $("sheet-rules").textContent = data && data.error ? data.error : "";
    return;
  }
  const changed = !sheet.data || sheet.data.version !== data.version;
  sheet.data = data;
  if (first || changed) render(first);
}

function sideLabel(i) {
  const side = sheet.data.sides[i];
  const players = side.players.filter((p) => p !== side.name);
  return players.length ? `${side.name} (${players.join(", ")})` : side.name;
}

function render(first) {
  const d = sheet.data;
  document.title = `${d.title || "Score sheet"} · handfoot`;
  $("sheet-heading").textContent = d.title || "Score sheet";
  const length = d.target_score ? `first to ${fmt(d.target_score)}` : `${d.rounds_planned} rounds`;
  $("sheet-rules").textContent = `${d.profile_title}, ${length}` + (Object.keys(d.overrides).some((k) => k !== "rounds") ? ", with house rules" : "");
  $("sheet-mode").textContent = sheet.token ? "You keep this sheet: enter each round below." : "Read-only: this page follows the keeper's sheet as it changes.";
  $("keeper-note").textContent = sheet.token ? "This page's own address enters rounds: this browser lists it under Keep score; bookmark it for another device. The link above only shows the sheet." : "";
  $("change-count").textContent = String(d.version);
  if (sheet.token) rememberSheet(d.title || `${d.sides.map((x) => x.name).join(" v ")}`);
  renderTotals();
  renderRounds();
  if (sheet.token) {
    const busy = sheet.correcting !== null || (!first && formTouched());
    if (!busy) buildEntry(null);
  }
  if ($("history").open) loadHistory();
}

function renderTotals() {
  const d = sheet.data;
  const head = el("tr", {}, el("th", {scope: "col", text: d.layout.endsWith("x1") ? "Player" : "Side"}), el("th", {scope: "col", class: "num", text: "Total"}),
    d.next_round ? el("th", {scope: "col", class: "num", text: `Round ${d.next_round} opening`}) : null);
  const rows = d.sides.map((s, i) => el("tr", {class: d.winners.includes(i) ? "winner-row" : null},
    el("th", {scope: "row", text: sideLabel(i)}),
    el("td", {class: "num total", text: fmt(d.totals[i])}),
    d.next_round ? el("td", {class: "num", text: d.next_minimums[i] ? `${fmt(d.next_minimums[i])} points` : "a clean book"}) : null));
  $("totals").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
  const winner = $("winner");
  if (d.over) {
    const names = d.winners.map((w) => d.sides[w].name);
    winner.textContent = names.length > 1 ? `The game is over: a tie between ${names.join(" and ")} at ${fmt(d.totals[d.winners[0]])}.`
      : `The game is over: ${names[0]} wins with ${fmt(d.totals[d.winners[0]])}.`;
    winner.classList.remove("hidden");
    winner.classList.add("ok");
  } else {
    winner.classList.add("hidden");
  }
  const box = $("chart");
  if (d.rounds_view.length) {
    const series = d.sides.map((s, i) => ({label: s.name, values: [0, ...d.rounds_view.map((r) => r.totals[i])]}));
    box.replaceChildren(lineChart(series, {title: "Totals after each round"}));
  } else {
    box.replaceChildren();
  }
}

function breakdownTable(r) {
  const d = sheet.data;
  const keys = [];
  const labels = {};
  for (const s of r.scores) for (const line of s.lines) {
    const key = line.key === "adjustment" ? `adj:${line.label}` : line.key;
    if (!keys.includes(key)) keys.push(key);
    labels[key] = line.label;
  }
  // each line's count and points in cells of their own ("3" and "2,100": three books,
  // 2,100 points in all), as the game's breakdown has them; a total has no count
  const cells = (s, key) => {
    const line = s.lines.find((l) => (l.key === "adjustment" ? `adj:${l.label}` : l.key) === key);
    if (!line) return [el("td", {class: "num count", text: ""}), el("td", {class: "num", text: "–"})];
    const count = line.count !== null && line.key !== "adjustment" ? fmt(line.count) : "";
    return [el("td", {class: "num count", text: count}),
      el("td", {class: `num${line.points < 0 ? " neg" : ""}`, text: fmt(line.points)})];
  };
  const pointsOnly = (value) => [el("td", {class: "num count", text: ""}), el("td", {class: "num", text: fmt(value)})];
  const how = r.went_out !== null ? `${d.sides[r.went_out].name} went out` : "nobody went out";
  return el("table", {class: "breakdown"},
    el("caption", {class: "visually-hidden", text: `Round ${r.round}: ${how}`}),
    el("thead", {},
      el("tr", {}, el("th", {scope: "col", text: "Score"}), ...r.scores.map((s) => el("th", {scope: "colgroup", colspan: "2", text: d.sides[s.side].name}))),
      // (its first cell empty, and sticky like the labels under it)
      el("tr", {class: "count-points"}, el("th", {text: ""}), ...r.scores.flatMap(() => [el("th", {scope: "col", class: "count", text: "count"}), el("th", {scope: "col", text: "points"})]))),
    el("tbody", {}, ...keys.map((k) => el("tr", {}, el("th", {scope: "row", text: labels[k]}), ...r.scores.flatMap((s) => cells(s, k))))),
    el("tfoot", {},
      el("tr", {class: "round-total"}, el("th", {scope: "row", text: "This round"}), ...r.scores.flatMap((s) => pointsOnly(s.total))),
      el("tr", {class: "game-total"}, el("th", {scope: "row", text: "Game total"}), ...r.scores.flatMap((s) => pointsOnly(r.totals[s.side])))));
}

function renderRounds() {
  const d = sheet.data;
  const box = $("rounds");
  if (!d.rounds_view.length) { box.replaceChildren(el("p", {class: "muted", text: "No round entered yet."})); return; }
  const hint = d.sides.length > 2 ? el("p", {class: "small muted scroll-hint", text: "Swipe a round's table sideways to see every side."}) : null;
  box.replaceChildren(hint || "", ...[...d.rounds_view].reverse().map((r) => el("div", {class: "round-card", id: `round-${r.round}`},
    // the title outside the sideways-scrolling table, so it stays in view (the caption,
    // read by screen readers, scrolled away with the columns)
    el("p", {class: "round-title", "aria-hidden": "true", text: `Round ${r.round}: ${r.went_out !== null ? `${d.sides[r.went_out].name} went out` : "nobody went out"}`}),
    el("div", {class: "table-scroll"}, breakdownTable(r)),
    el("p", {class: "small muted", text: `Opening minimums this round: ${r.minimums.map((m, i) => `${d.sides[i].name} ${m ? fmt(m) : "a clean book"}`).join(", ")}`}),
    sheet.token ? el("button", {type: "button", class: "btn btn-quiet", text: `Correct round ${r.round}`, onclick: () => startCorrection(r.round)}) : null)));
}

// --- entering a round ---------------------------------------------------------------------

function numberInput(id, label, value, {hint = null} = {}) {
  return el("div", {class: "field num-field"},
    el("label", {for: id, text: label}, hint ? el("span", {class: "hint", text: ` ${hint}`}) : null),
    el("input", {type: "number", id, inputmode: "numeric", min: "0", step: "1", value: value === undefined || value === null ? "" : String(value)}));
}

function cardsPart(side, part, label, value, kinds) {
  const byCards = value !== null && typeof value === "object";
  const mode = sheet.mode[`${side}-${part}`] || (byCards ? "cards" : "total");
  sheet.mode[`${side}-${part}`] = mode;
  const form = sheet.data.form;
  const id = `s${side}-${part}`;
  const toggle = el("div", {class: "chips mode", role: "radiogroup", "aria-label": `${label}: how you count`},
    ...[["total", "Points total"], ["cards", "Count by card"]].map(([m, text]) => el("label", {class: "chip"},
      el("input", {type: "radio", name: `${id}-mode`, value: m, checked: mode === m, onchange: () => { sheet.mode[`${side}-${part}`] = m; swap(); }}),
      el("span", {text}))));
  const totalBox = el("div", {class: "total-box"}, numberInput(`${id}-total`, "Points", byCards ? "" : (value || "")));
  totalBox.querySelector("input").removeAttribute("min");
  totalBox.querySelector("input").setAttribute("aria-label", `${label}: points`);
  const grid = el("div", {class: "card-grid"}, ...kinds.map((k) => {
    const points = form.values[k] ?? form.penalties[k];
    const worth = points !== undefined ? `(${points})` : "";
    return numberInput(`${id}-${k.replace(" ", "")}`, k === "joker" ? "Jk" : k.replace(" 3", "3").replace("black3", "B3").replace("red3", "R3"), byCards ? value[k] : "", {hint: worth});
  }));
  for (const input of grid.querySelectorAll("label")) {
    const k = kinds[[...grid.querySelectorAll("label")].indexOf(input)];
    input.setAttribute("title", k);
    input.setAttribute("aria-label", `${label}: ${k}s`);
  }
  function swap() {
    totalBox.classList.toggle("hidden", sheet.mode[`${side}-${part}`] !== "total");
    grid.classList.toggle("hidden", sheet.mode[`${side}-${part}`] !== "cards");
  }
  const box = el("fieldset", {class: "cards-part"}, el("legend", {text: label}), toggle, totalBox, grid);
  swap();
  return box;
}

function sideFieldset(i, entry) {
  const form = sheet.data.form;
  const e = entry || {};
  const books = e.books || {};
  const id = (k) => `s${i}-${k}`;
  const special = books.special || {};
  const tabletop = e.tabletop || {};
  const box = el("fieldset", {class: "side-entry", id: `side-entry-${i}`},
    el("legend", {text: sideLabel(i)}),
    el("div", {class: "num-row"},
      ...form.books.map((b) => numberInput(id(`books-${b.key}`), b.label, books[b.key])),
      ...form.special.map((b) => numberInput(id(`special-${b.key}`), b.label, special[b.key])),
      numberInput(id("red-threes"), "Red 3s laid", e.red_threes)),
    cardsPart(i, "melded", "Cards melded", e.melded ?? "", form.cards),
    form.unfinished ? cardsPart(i, "unfinished", "Unfinished second melds", e.unfinished ?? "", form.cards) : null,
    cardsPart(i, "left", "Cards left in hands and feet", e.left ?? "", [...form.cards, ...form.threes]),
    el("div", {class: `num-row threes-apart s${i}-threes`},
      numberInput(id("black-left"), "Black 3s left", e.black_threes_left),
      numberInput(id("red-left"), "Red 3s left", e.red_threes_left)),
    form.tabletop.length ? el("div", {class: "num-row tabletop"},
      ...form.tabletop.map((t) => numberInput(id(`tt-${t.key}`), t.label, tabletop[t.key], {hint: `(${t.points})`}))) : null);
  const threes = box.querySelector(`.s${i}-threes`);
  const sync = () => threes.classList.toggle("hidden", sheet.mode[`${i}-left`] === "cards");
  box.addEventListener("change", sync);
  sync();
  return box;
}

function buildEntry(round) {
  const d = sheet.data;
  const entry = $("entry");
  const number = round ?? d.next_round;
  if (!sheet.token || number === null) { entry.classList.add("hidden"); return; }
  entry.classList.remove("hidden");
  sheet.mode = {};
  let entries = round !== null ? d.rounds[round - 1].entries : null;
  if (round === null) {
    const draft = JSON.parse(localStorage.getItem(draftKey()) || "null");
    if (draft && draft.round === number) { entries = draft.entries; }
  }
  $("entry-title").textContent = round !== null ? `Correct round ${round}` : `Round ${number}`;
  $("entry-help").textContent = round !== null ? "Change what was counted wrong and save: the old entry is kept in the history."
    : `Count each side's cards at the end of the round. Opening minimums this round: ${d.next_minimums.map((m, i) => `${d.sides[i].name} ${m ? fmt(m) : "a clean book"}`).join(", ")}.`;
  $("save-round").textContent = round !== null ? `Save the correction to round ${round}` : `Save round ${number}`;
  $("cancel-correction").classList.toggle("hidden", round === null);
  const out = entries ? entries.findIndex((e) => e.went_out) : -1;
  $("went-out").replaceChildren(...[["-1", "Nobody"], ...d.sides.map((s, i) => [String(i), s.name])].map(([v, text]) => el("label", {class: "chip"},
    el("input", {type: "radio", name: "went-out", value: v, checked: String(out) === v}), el("span", {text}))));
  $("sides-entry").replaceChildren(...d.sides.map((s, i) => sideFieldset(i, entries ? entries[i] : null)));
  entry.dataset.round = String(number);
  entry.dataset.touched = "";
  showError($("round-error"), "");
}

function startCorrection(round) {
  sheet.correcting = round;
  buildEntry(round);
  $("entry").scrollIntoView({block: "start"});
}

function formTouched() { return $("entry").dataset.touched === "1"; }

function valueOf(id) {
  const input = $(id);
  if (!input) return null;
  // a number field holding what is no number ("1e", "--2") reads as empty: send a mark for
  // the server to refuse in words, rather than count it as 0
  if (input.validity && input.validity.badInput) return "?";
  if (input.value.trim() === "") return null;
  const n = Number(input.value);
  return Number.isFinite(n) ? n : input.value;
}

function readCards(side, part, kinds) {
  const id = `s${side}-${part}`;
  if (sheet.mode[`${side}-${part}`] === "cards") {
    const out = {};
    for (const k of kinds) {
      const v = valueOf(`${id}-${k.replace(" ", "")}`);
      if (v !== null) out[k] = v;
    }
    return out;
  }
  return valueOf(`${id}-total`) ?? 0;
}

function readEntries() {
  const d = sheet.data;
  const form = d.form;
  const outChoice = document.querySelector('input[name="went-out"]:checked');
  const out = outChoice ? Number(outChoice.value) : -1;
  return d.sides.map((s, i) => {
    const books = {};
    for (const b of form.books) books[b.key] = valueOf(`s${i}-books-${b.key}`) ?? 0;
    books.special = {};
    for (const b of form.special) books.special[b.key] = valueOf(`s${i}-special-${b.key}`) ?? 0;
    const entry = {books, red_threes: valueOf(`s${i}-red-threes`) ?? 0, went_out: out === i,
      melded: readCards(i, "melded", form.cards), left: readCards(i, "left", [...form.cards, ...form.threes]), tabletop: {}};
    if (form.unfinished) entry.unfinished = readCards(i, "unfinished", form.cards);
    if (sheet.mode[`${i}-left`] !== "cards") {
      entry.black_threes_left = valueOf(`s${i}-black-left`) ?? 0;
      entry.red_threes_left = valueOf(`s${i}-red-left`) ?? 0;
    }
    for (const t of form.tabletop) entry.tabletop[t.key] = valueOf(`s${i}-tt-${t.key}`);
    return entry;
  });
}

function saveDraft() {
  $("entry").dataset.touched = "1";
  if (sheet.correcting !== null) return;
  localStorage.setItem(draftKey(), JSON.stringify({round: Number($("entry").dataset.round), entries: readEntries()}));
}

async function saveRound(event) {
  event.preventDefault();
  const number = Number($("entry").dataset.round);
  const button = $("save-round");
  button.disabled = true;
  try {
    const {status, data} = await api("POST", `/api/scores/${sheetId}/rounds/${number}`,
      {token: sheet.token, who: $("who").value, entries: readEntries()});
    if (status !== 200) { showError($("round-error"), data.error); return; }
    if (sheet.correcting === null) localStorage.removeItem(draftKey());
    sheet.correcting = null;
    $("entry").dataset.touched = "";
    await refresh(true);
    const card = $(`round-${number}`);
    if (card) card.scrollIntoView({block: "start"});
  } catch (err) {
    showError($("round-error"), `Not saved (${err.message}): your entries are still here; try again.`);
  } finally {
    button.disabled = false;
  }
}

// --- history ----------------------------------------------------------------------------

function entryWords(e) {
  if (!e) return "";
  const b = e.books || {};
  const parts = [`books ${b.clean || 0} clean, ${b.dirty || 0} dirty` + (b.wild ? `, ${b.wild} wild` : "")];
  for (const [k, n] of Object.entries(b.special || {})) if (n) parts.push(`${n} clean ${k}s`);
  if (e.red_threes) parts.push(`${e.red_threes} red 3s`);
  if (e.went_out) parts.push("went out");
  const cardsText = (v) => (typeof v === "object" ? Object.entries(v).map(([k, n]) => `${n}×${k}`).join(" ") || "none" : fmt(v));
  parts.push(`melded ${cardsText(e.melded)}`);
  parts.push(`left ${cardsText(e.left)}`);
  return parts.join("; ");
}

let historyAsked = 0;

async function loadHistory() {
  const asked = ++historyAsked;
  const {status, data} = await api("GET", `/api/scores/${sheetId}/changes`);
  if (status !== 200 || asked !== historyAsked) return; // a later answer is on its way
  const items = [...data.changes].reverse().map((c) => el("li", {},
    el("strong", {text: `${c.before ? "Correction to" : "Round"} ${c.round}`}), ` by ${c.who}, `,
    el("time", {datetime: c.at, text: new Date(c.at).toLocaleString()}),
    c.before ? el("ul", {}, ...c.sides.map((s) => el("li", {},
      `${data.sides[s]}: `, el("del", {text: entryWords(c.before[s])}), " → ", el("ins", {text: entryWords(c.after[s])})))) : null));
  $("history-list").replaceChildren(items.length ? el("ol", {class: "history"}, ...items) : el("p", {class: "muted", text: "Nothing entered yet."}));
}

if (sheetId) sheetPage(); else newSheetPage();
