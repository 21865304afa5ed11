// The club page (/club#CLUB_ID): members, invites, a new club game, games now and finished,
// standings (overall and per rule set), head to head, each player's statistics, the house
// rules, and the sections other modules fill (ratings, tournaments: see renderSection). Every
// request carries the player's key; a non-member gets 404 for everything (docs/club.md).

import {el} from "/static/dom.js";
import {rememberGame} from "/static/links.js";
import {api, me, svgNode} from "/static/player.js";

const $ = (id) => document.getElementById(id);
const clubId = decodeURIComponent(window.location.hash.slice(1));
const base = `/api/clubs/${encodeURIComponent(clubId)}`;
const state = {data: null, profiles: null, layouts: {}};

function say(kind, ...content) {
  $("club-status").replaceChildren(content.length ? el("div", {class: `notice ${kind}`, role: kind === "error" ? "alert" : null}, ...content) : "");
}

function when(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const minutes = Math.round((Date.now() - d.getTime()) / 60000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  if (minutes < 60 * 24) return `${Math.round(minutes / 60)} h ago`;
  return d.toLocaleDateString("en-GB", {day: "numeric", month: "short"});
}

function table(headers, rows, numeric = []) {
  if (!rows.length) return el("p", {class: "muted", text: "Nothing yet: finish a club game to see it here."});
  return el("div", {class: "table-scroll"}, el("table", {class: "data-table"},
    el("thead", {}, el("tr", {}, headers.map((h, i) => el("th", {scope: "col", class: numeric.includes(i) ? "num" : null, text: h})))),
    el("tbody", {}, rows.map((r) => el("tr", {}, r.map((c, i) => el("td", {class: numeric.includes(i) ? "num" : i ? null : "strong", text: String(c ?? "–")})))))));
}

function seatsText(game) {
  return game.seats.map((s) => s.kind === "bot" ? `${s.name}` : s.player ? s.name : `${s.name} (open)`).join(", ");
}

// --- rendering ------------------------------------------------------------------------------

function renderGames(d) {
  $("live-games").replaceChildren(...(d.live.length ? d.live.map((g) => {
    const open = g.seats.some((s) => s.kind === "human" && !s.player);
    const actions = [];
    if (g.mine !== null || open) actions.push(el("button", {type: "button", class: "btn btn-primary", text: g.mine !== null ? "Go to your seat" : "Join", onclick: () => joinGame(g)}));
    actions.push(el("button", {type: "button", class: "btn", text: "Watch", onclick: () => watchGame(g)}));
    return el("li", {class: "list-row game-row"},
      el("div", {}, el("strong", {text: g.rules}), el("div", {class: "small muted", text: `${seatsText(g)} · ${when(g.updated)}`})),
      el("div", {class: "btn-row"}, actions));
  }) : [el("li", {class: "muted", text: "No game right now. Deal one above."})]));
  $("finished-games").replaceChildren(...(d.finished.length ? d.finished.map((g) => {
    const winners = g.seats.filter((s) => s.won).map((s) => s.name);
    return el("li", {class: "list-row game-row"},
      el("div", {}, el("strong", {text: g.rules}), el("div", {class: "small muted", text: `${seatsText(g)} · ${when(g.updated)}${winners.length ? ` · won by ${winners.join(" and ")}` : ""}`})),
      el("div", {class: "btn-row"},
        el("a", {class: "btn", href: `/replay/${encodeURIComponent(g.id)}`, text: "Replay"}),
        g.review ? el("a", {class: "btn", href: g.review, text: "Review"}) : null));
  }) : [el("li", {class: "muted", text: "No finished game yet."})]));
}

function renderTables(d) {
  $("standings").replaceChildren(table(["Player", "Games", "Wins", "Points"],
    d.standings.map((s) => [s.name, s.games, s.wins, s.points.toLocaleString("en-GB")]), [1, 2, 3]));
  $("by-rules").replaceChildren(...(d.by_rules.length > 1 ? d.by_rules.map((r) => el("div", {class: "by-rules"},
    el("h3", {text: r.rules}),
    table(["Player", "Games", "Wins", "Points"], r.standings.map((s) => [s.name, s.games, s.wins, s.points.toLocaleString("en-GB")]), [1, 2, 3]))) : []));
  $("head-to-head").replaceChildren(table(["Players", "Games", "Wins each"],
    d.head_to_head.map((h) => [`${h.players[0]} v ${h.players[1]}`, h.games, `${h.wins[0]} – ${h.wins[1]}`]), [1, 2]));
  $("statistics").replaceChildren(table(["Player", "Games", "Books", "Pickups", "Avg round", "Went out"],
    d.statistics.map((s) => [s.name, s.games, s.books, s.pickups, s.average_round === null ? "–" : s.average_round.toLocaleString("en-GB"), s.went_out]), [1, 2, 3, 4, 5]));
}

/** A section another module fills (ratings, tournaments): shown when the page data has it.
 * Its data may carry {html: false, rows: [[...]], headers: [...]} for a plain table, or the
 * module may register window.handfootClubSections[name](node, data) to draw it itself. */
function renderSection(name, data) {
  const box = document.querySelector(`[data-section="${name}"]`);
  if (!box) return;
  box.classList.toggle("hidden", data === null || data === undefined);
  if (data === null || data === undefined) return;
  const body = box.querySelector(".section-body");
  const draw = window.handfootClubSections && window.handfootClubSections[name];
  if (draw) draw(body, data, {api, base});
  else if (data.headers && data.rows) body.replaceChildren(table(data.headers, data.rows));
}

function renderMembers(d) {
  const owner = d.club.role === "owner";
  $("members").replaceChildren(...d.members.map((m) => el("li", {class: "list-row"},
    el("span", {class: "strong", text: m.name}),
    m.role === "owner" ? el("span", {class: "badge", text: "owner"}) : null,
    el("span", {class: "muted small", text: `joined ${when(m.joined)}`}),
    owner && m.id !== d.me.id ? el("button", {type: "button", class: "btn btn-quiet", text: "Remove", onclick: () => removeMember(m)}) : null)));
  const live = d.invites.filter((i) => i.valid);
  $("invites").replaceChildren(...(owner && live.length ? [el("h3", {text: "Invites still open"}), el("ul", {class: "plain-list"}, live.map((i) => el("li", {class: "list-row"},
    el("span", {text: `made ${when(i.created)}, used ${i.uses} time${i.uses === 1 ? "" : "s"}`}),
    el("button", {type: "button", class: "btn btn-quiet", text: "Withdraw", onclick: () => revoke(i)}))))] : []));
}

function renderRules(d) {
  $("rule-list").replaceChildren(...(d.rules.length ? d.rules.map((r) => el("li", {class: "list-row"},
    el("span", {class: "strong", text: r.name}),
    el("span", {class: "muted small", text: `by ${r.by}, ${when(r.updated)}`}),
    el("button", {type: "button", class: "btn btn-quiet", text: "Edit", onclick: () => editRules(r)}),
    el("button", {type: "button", class: "btn btn-quiet", text: "Delete", onclick: () => deleteRules(r)}))) : [el("li", {class: "muted", text: "None saved yet."})]));
}

function render(d) {
  state.data = d;
  document.title = `${d.club.name} · handfoot`;
  $("club-name").textContent = d.club.name;
  $("club-body").classList.remove("hidden");
  renderGames(d);
  renderTables(d);
  renderMembers(d);
  renderRules(d);
  for (const name of ["ratings", "tournaments"]) renderSection(name, d[name]);
  renderRuleChoices();
}

// --- a new club game ------------------------------------------------------------------------

function renderRuleChoices() {
  if (!state.profiles || !state.data) return;
  const select = $("game-rules");
  const chosen = select.value;
  select.replaceChildren(
    el("optgroup", {label: "Our house rules"}, state.data.rules.map((r) => el("option", {value: `club:${r.name}`, text: r.name}))),
    el("optgroup", {label: "Standard rule sets"}, state.profiles.profiles.map((p) => el("option", {value: `profile:${p.name}`, text: p.title}))));
  if (!state.data.rules.length) select.firstChild.remove();
  if ([...select.options].some((o) => o.value === chosen)) select.value = chosen;
  rulesChanged();
}

async function rulesChanged() {
  const value = $("game-rules").value;
  let layouts = [];
  let preferred = null;
  let rounds = null;
  if (value.startsWith("profile:")) {
    const p = state.profiles.profiles.find((x) => `profile:${x.name}` === value);
    layouts = p.layouts;
    preferred = p.default_layout;
    rounds = p.rounds;
  } else if (value.startsWith("club:")) {
    const rule = state.data.rules.find((r) => `club:${r.name}` === value);
    if (!state.layouts[value]) {
      try {
        state.layouts[value] = await api("POST", "/api/rules/check", {toml: rule.toml});
      } catch {
        state.layouts[value] = {layouts: []};
      }
    }
    layouts = state.layouts[value].layouts || [];
    preferred = layouts[0];
  }
  const select = $("game-layout");
  const before = select.value;
  select.replaceChildren(...layouts.map((l) => {
    const [sides, per] = l.split("x").map(Number);
    return el("option", {value: l, text: per > 1 ? `${sides} sides of ${per} partners` : `${sides} players`});
  }));
  select.value = layouts.includes(before) ? before : preferred;
  $("game-rounds").placeholder = rounds ? String(rounds) : "as the rules say";
  renderSeatRows();
}

function renderSeatRows() {
  const layout = $("game-layout").value || "2x1";
  const [sides, per] = layout.split("x").map(Number);
  const players = sides * per;
  const rows = [el("div", {class: "seat-line"}, el("span", {class: "strong", text: "Seat 1"}), el("span", {text: `you, ${state.data.me.name}`}))];
  for (let i = 1; i < players; i++) {
    const id = `seat-${i}`;
    rows.push(el("div", {class: "seat-line"},
      el("label", {for: id, class: "strong", text: `Seat ${i + 1}`}),
      el("select", {id, "data-seat": String(i)},
        el("option", {value: "human", text: "a member (open seat)"}),
        ...state.profiles.bots.map((b) => el("option", {value: `bot:${b}`, text: `${b} bot`, selected: b === "hard" && i > 1 ? true : null})))));
  }
  $("seat-rows").replaceChildren(...rows);
}

async function newGame(event) {
  event.preventDefault();
  const layout = $("game-layout").value;
  const [sides, per] = layout.split("x").map(Number);
  const seats = [{kind: "human", name: state.data.me.name}];
  for (let i = 1; i < sides * per; i++) {
    const v = $(`seat-${i}`).value;
    seats.push(v === "human" ? {kind: "human", name: `Seat ${i + 1}`} : {kind: "bot", level: v.slice(4)});
  }
  const rules = $("game-rules").value;
  const body = {layout, seats, absent: "bot"};
  if (rules.startsWith("club:")) body.club_rules = rules.slice(5);
  else body.profile = rules.slice(8);
  const rounds = Number($("game-rounds").value);
  if (rounds) body.rounds = rounds;
  const pace = $("game-pace").value;
  if (pace !== "live") body.correspondence = {per_move: Number(pace), on_timeout: $("game-timeout").value};
  try {
    const game = await api("POST", `${base}/games`, body);
    const mine = game.seats.find((s) => s.kind === "human" && s.link);
    rememberGame({game_id: game.game_id, link: mine.link, role: "player", seat: mine.seat, name: mine.name, profile: rules.slice(rules.indexOf(":") + 1)});
    window.location.assign(mine.link);
  } catch (err) {
    say("error", el("p", {}, el("strong", {text: "The game was not dealt: "}), err.message));
  }
}

// --- actions --------------------------------------------------------------------------------

async function act(work) {
  try {
    await work();
  } catch (err) {
    say("error", el("p", {text: err.message}));
    if (err.status === 404) await load();
  }
}

function joinGame(g) {
  return act(async () => {
    const answer = await api("POST", `${base}/games/${encodeURIComponent(g.id)}/join`, {});
    rememberGame({game_id: g.id, link: answer.link, role: "player", seat: answer.seat, name: state.data.me.name, profile: g.rules});
    window.location.assign(answer.link);
  });
}

function watchGame(g) {
  return act(async () => {
    const answer = await api("POST", `${base}/games/${encodeURIComponent(g.id)}/watch`, {});
    rememberGame({game_id: g.id, link: answer.link, role: "spectator", seat: null, name: "spectator", profile: g.rules});
    window.location.assign(answer.link);
  });
}

function invite() {
  return act(async () => {
    const link = await api("POST", `${base}/invites`, {});
    const input = el("input", {type: "text", readonly: true, value: link.url, "aria-label": "The invite link", onfocus: (e) => e.target.select()});
    const copy = el("button", {type: "button", class: "btn", text: "Copy", onclick: async () => {
      try {
        await navigator.clipboard.writeText(link.url);
        copy.textContent = "Copied ✓";
      } catch {
        input.focus();
      }
    }});
    const box = $("invite-link");
    box.replaceChildren(el("h3", {text: "Send this link to who you invite"}),
      el("div", {class: "qr"}, svgNode(link.qr)),
      el("p", {class: "small", text: `Anyone with it may join until ${new Date(link.expires).toLocaleDateString("en-GB", {day: "numeric", month: "long"})}, unless you withdraw it.`}),
      el("div", {class: "link-row"}, input, copy));
    box.classList.remove("hidden");
    box.focus();
    await load();
  });
}

const revoke = (i) => act(async () => {
  await api("POST", `${base}/invites/revoke`, {invite: i.id});
  await load();
});

const removeMember = (m) => act(async () => {
  if (!confirm(`Remove ${m.name} from the club?`)) return;
  await api("POST", `${base}/remove`, {player: m.id});
  await load();
});

function editRules(r) {
  $("rules-name").value = r.name;
  $("rules-toml").value = r.toml;
  $("rule-editor").open = true;
  $("rules-toml").focus();
}

const deleteRules = (r) => act(async () => {
  if (!confirm(`Delete the house rules “${r.name}”?`)) return;
  await api("POST", `${base}/rules/delete`, {name: r.name});
  await load();
});

async function saveRules(event) {
  event.preventDefault();
  await act(async () => {
    const answer = await api("POST", `${base}/rules`, {name: $("rules-name").value, toml: $("rules-toml").value});
    say("ok", el("p", {text: `The house rules “${answer.name}” are saved.`}));
    $("rule-editor").open = false;
    await load();
  });
}

const leave = () => act(async () => {
  if (!confirm("Leave this club? You need a new invite to come back.")) return;
  await api("POST", `${base}/leave`, {});
  window.location.assign("/me");
});

// --- start ----------------------------------------------------------------------------------

async function load() {
  try {
    render(await api("GET", base));
  } catch (err) {
    $("club-body").classList.add("hidden");
    $("club-name").textContent = "Club";
    say("error", el("p", {text: err.status === 404 ? "No such club, or you are not one of its members. Ask a member for an invite." : err.message}));
  }
}

async function start() {
  if (!me()) {
    say("error", el("p", {}, "This browser has no player. ", el("a", {href: "/me", text: "Make your player or add this device"}), " first."));
    return;
  }
  if (!clubId) {
    say("error", el("p", {}, "Which club? Open one from ", el("a", {href: "/me", text: "your player's page"}), "."));
    return;
  }
  try {
    state.profiles = await api("GET", "/api/profiles");
  } catch {
    state.profiles = {profiles: [], bots: ["easy", "medium", "hard"]};
  }
  $("new-game").addEventListener("submit", newGame);
  $("game-rules").addEventListener("change", rulesChanged);
  $("game-layout").addEventListener("change", renderSeatRows);
  $("game-pace").addEventListener("change", () => $("game-timeout-field").classList.toggle("hidden", $("game-pace").value === "live"));
  $("invite").addEventListener("click", invite);
  $("save-rules").addEventListener("submit", saveRules);
  $("leave").addEventListener("click", leave);
  window.addEventListener("hashchange", () => window.location.reload());
  await load();
}

start();
