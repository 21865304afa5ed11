// A club tournament's page (/club/tournament#CLUB_ID/TOURNAMENT_ID): what it is, entering it
// while it is scheduled, the standings (each side scored against the sides that held the same
// cards at the other tables), every round's tables with the member's own seat, a watch link
// and each table's record. Refreshed every few seconds until the tournament is over.

import {el} from "/static/dom.js";
import {api} from "/static/player.js";

const $ = (id) => document.getElementById(id);
const [clubId, tid] = window.location.hash.slice(1).split("/").map(decodeURIComponent);
const base = `/api/clubs/${encodeURIComponent(clubId || "")}/tournaments/${encodeURIComponent(tid || "")}`;
const REFRESH_MS = 3000;
let timer = null;

function say(kind, text) {
  $("tournament-status").replaceChildren(text ? el("div", {class: `notice ${kind}`, role: kind === "error" ? "alert" : null, text}) : "");
}

function points(n) {
  if (n === null || n === undefined) return "–";
  const text = Math.abs(n).toLocaleString("en-GB", {maximumFractionDigits: 1});
  return n > 0 ? `+${text}` : n < 0 ? `−${text}` : "0";
}

function table(headers, rows, numeric, id) {
  return el("div", {class: "table-scroll"}, el("table", {class: "data-table", id},
    el("thead", {}, el("tr", {}, headers.map((h, i) => el("th", {scope: "col", class: numeric.includes(i) ? "num" : null, text: h})))),
    el("tbody", {}, rows.map((r) => el("tr", {}, r.map((c, i) => el(i ? "td" : "th", {scope: i ? null : "row", class: numeric.includes(i) ? "num" : null, text: String(c)})))))));
}

async function download(t) {
  try {
    const data = await api("GET", t.record);
    const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], {type: "application/json"}));
    const a = el("a", {href: url, download: `tournament-round-table-${t.table}-${t.game}.json`});
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (error) {
    say("error", error.message);
  }
}

function sides(t) {
  const bySide = {};
  for (const s of t.seats) (bySide[s.side] = bySide[s.side] || []).push(s.name);
  return Object.keys(bySide).sort().map((side) => {
    const total = t.totals ? `: ${t.totals[side].toLocaleString("en-GB")}` : "";
    return `${bySide[side].join(" and ")}${total}`;
  }).join(" v ");
}

function render(d) {
  document.title = `${d.name} · handfoot`;
  $("tournament-name").textContent = d.name;
  $("back-to-club").href = `/club#${encodeURIComponent(clubId)}`;
  $("tournament-body").classList.remove("hidden");
  const starts = new Date(d.starts).toLocaleString("en-GB", {weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit"});
  const state = d.status === "scheduled" ? `Starts ${starts}.` : d.status === "playing" ? `Round ${d.round} of ${d.rounds} is being played.` : "Over.";
  $("tournament-about").textContent = `${d.rules}, ${d.tables} tables, ${d.rounds} round${d.rounds === 1 ? "" : "s"}; ${d.bot_level} bots take the empty seats. ${state}`;
  $("tournament-scoring").textContent = `Score: ${d.scoring}.`;
  const entry = [el("span", {class: "muted", text: `Entered: ${d.entrants.map((e) => e.name).join(", ") || "nobody yet"}.`})];
  if (d.status === "scheduled") {
    entry.push(el("button", {type: "button", class: d.entered ? "btn" : "btn btn-primary", id: "enter", text: d.entered ? "Leave the tournament" : "Enter", onclick: () => enter(!d.entered)}));
  }
  $("tournament-entry").replaceChildren(...entry);
  const played = Array.from({length: d.rounds}, (_, i) => `R${i + 1}`);
  $("tournament-standings").replaceChildren(d.standings.length && d.status !== "scheduled"
    ? table(["Player", "Score", ...played], d.standings.map((s) => [s.name, points(s.score), ...s.rounds.map(points)]), [1, ...played.map((_, i) => i + 2)], "standings-table")
    : el("p", {class: "muted", text: "The standings start with the first table that finishes."}));
  $("tournament-rounds").replaceChildren(...(d.rounds_played.some((r) => r.length) ? d.rounds_played.map((tables, r) => tables.length ? el("div", {class: "round-block"},
    el("h3", {text: `Round ${r + 1}`}),
    el("ul", {class: "plain-list"}, tables.map((t) => el("li", {class: "list-row game-row", "data-table": `${r + 1}-${t.table}`},
      el("div", {}, el("strong", {text: `Table ${t.table}`}), el("span", {class: "badge", text: t.status === "over" ? "over" : "playing"}),
        el("div", {class: "small", text: sides(t)})),
      el("div", {class: "btn-row"},
        t.link && t.status !== "over" ? el("a", {class: "btn btn-primary", href: t.link, text: "Go to your seat"}) : null,
        el("a", {class: "btn", href: t.link || t.watch, text: t.status === "over" ? "See the table" : "Watch"}),
        t.record ? el("button", {type: "button", class: "btn btn-quiet", text: "Record", onclick: () => download(t)}) : null))))) : null)
    : [el("p", {class: "muted", text: "The tables are made when the tournament starts."})]));
  if (d.status === "over") say("ok", d.standings.length > 1 ? `The tournament is over: ${d.standings[0].name} is first, ${points(d.standings[0].score)} points against the other tables.` : "The tournament is over.");
}

async function enter(yes) {
  try {
    render(await api("POST", `${base}/enter`, {in: yes}));
  } catch (error) {
    say("error", error.message);
  }
}

async function load() {
  try {
    const d = await api("GET", base);
    render(d);
    if (d.status !== "over") timer = setTimeout(load, REFRESH_MS);
  } catch (error) {
    say("error", error.status === 404 ? "No such tournament: only the club's members see its tournaments." : error.message);
  }
}

window.addEventListener("hashchange", () => window.location.reload());
if (timer === null) load();
