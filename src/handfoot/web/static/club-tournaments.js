// The club page's Tournaments section (docs/club.md, "Tournaments"): the club's duplicate
// tournaments, each a link to its page, and a form to schedule one. club.js calls the
// function registered here with the section's data ({tournaments, rules}) after each load.

import {el} from "/static/dom.js";

const LEVELS = ["easy", "normal", "hard", "learned", "expert", "random"];
let profiles = null;

function when(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleString("en-GB", {weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit"});
}

function statusText(t) {
  if (t.status === "scheduled") return `starts ${when(t.starts)} · ${t.entrants_count} entered`;
  if (t.status === "playing") return `round ${t.round} of ${t.rounds} being played`;
  return "over";
}

function field(id, label, input, wide = false) {
  return el("div", {class: wide ? "field field-wide" : "field"}, el("label", {for: id, text: label}), input);
}

function pageLink(clubId, t) {
  return `/club/tournament#${encodeURIComponent(clubId)}/${encodeURIComponent(t.id)}`;
}

async function draw(node, data, {api, base}) {
  const clubId = decodeURIComponent(base.split("/").pop());
  if (!profiles) {
    try {
      profiles = (await api("GET", "/api/profiles")).profiles;
    } catch {
      profiles = [];
    }
  }
  const list = el("ul", {class: "plain-list", id: "tournament-list"}, data.tournaments.length ? data.tournaments.map((t) => el("li", {class: "list-row game-row"},
    el("div", {}, el("strong", {text: t.name}), el("div", {class: "small muted", text: `${t.rules} · ${t.tables} tables · ${t.rounds} round${t.rounds === 1 ? "" : "s"} · ${statusText(t)}`})),
    el("div", {class: "btn-row"}, el("a", {class: "btn", href: pageLink(clubId, t), text: "Open"})))) : [el("li", {class: "muted", text: "No tournament yet."})]);
  const rules = el("select", {id: "tournament-rules"},
    data.rules.length ? el("optgroup", {label: "Our house rules"}, data.rules.map((r) => el("option", {value: `club:${r}`, text: r}))) : null,
    el("optgroup", {label: "Standard rule sets"}, profiles.map((p) => el("option", {value: `profile:${p.name}`, text: p.title}))));
  const start = new Date(Date.now() + 10 * 60000);
  start.setSeconds(0, 0);
  const local = new Date(start.getTime() - start.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
  const status = el("div", {role: "status", "aria-live": "polite"});
  const form = el("form", {class: "stack-form", id: "new-tournament"},
    el("h3", {text: "Schedule a tournament"}),
    el("p", {class: "small muted", text: "Every table plays the same cards; each side is scored against the sides that held the same cards at the other tables. Partners change every round; bots take the empty seats."}),
    el("div", {class: "form-grid"},
      field("tournament-name", "Name", el("input", {id: "tournament-name", type: "text", maxlength: "60", value: "Club tournament"})),
      field("tournament-rules", "Rules", rules),
      field("tournament-tables", "Tables", el("input", {id: "tournament-tables", type: "number", min: "2", max: "16", value: "2", inputmode: "numeric"})),
      field("tournament-rounds", "Rounds (games)", el("input", {id: "tournament-rounds", type: "number", min: "1", max: "12", value: "3", inputmode: "numeric"})),
      field("tournament-game-rounds", "Hands a game", el("input", {id: "tournament-game-rounds", type: "number", min: "1", max: "100", placeholder: "as the rules say", inputmode: "numeric"})),
      field("tournament-bots", "Bots", el("select", {id: "tournament-bots"}, LEVELS.map((l) => el("option", {value: l, text: l, selected: l === "hard"})))),
      field("tournament-starts", "Starts", el("input", {id: "tournament-starts", type: "datetime-local", value: local}), true)),
    el("div", {class: "btn-row"}, el("button", {type: "submit", class: "btn btn-primary", text: "Schedule it"})),
    status);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const choice = rules.value;
    const body = {
      name: form.querySelector("#tournament-name").value,
      tables: Number(form.querySelector("#tournament-tables").value),
      rounds: Number(form.querySelector("#tournament-rounds").value),
      bot_level: form.querySelector("#tournament-bots").value,
    };
    if (choice.startsWith("club:")) body.club_rules = choice.slice(5);
    else body.profile = choice.slice(8);
    const hands = form.querySelector("#tournament-game-rounds").value;
    if (hands) body.game_rounds = Number(hands);
    const starts = form.querySelector("#tournament-starts").value;
    if (starts) body.starts = new Date(starts).toISOString();
    try {
      const made = await api("POST", `${base}/tournaments`, body);
      window.location.href = pageLink(clubId, made);
    } catch (error) {
      status.replaceChildren(el("div", {class: "notice error", role: "alert", text: error.message}));
    }
  });
  node.replaceChildren(list, form);
}

window.handfootClubSections = window.handfootClubSections || {};
window.handfootClubSections.tournaments = draw;
