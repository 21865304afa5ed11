// Moves and seats in people's words, for the table and the replay viewer: the engine's
// notation ("meld T T T 2 | K: 2", "discard B3") becomes "melded 10 10 10 2 and added a 2
// to the kings", "discarded a black 3"; a name two seats share is told apart by where the
// seat sits ("Hard bot (West)"), as the lobby names its bots.
//
//   moveWords("discard T")              -> "discarded a 10"
//   groupWords("K: 2 2")                -> "2 2 onto the kings"
//   seatPlace(1, 4)                     -> "West"
//   distinctNames(["Ann", "Hard bot", "Hard bot", "Hard bot"]) -> ["Ann", "Hard bot (West)", ...]

// Seats go clockwise from the first one (seat 0 sits South), as the lobby names its bots.
const COMPASS = { 2: ["South", "North"], 3: ["South", "West", "East"], 4: ["South", "West", "North", "East"] };

/** Where a seat sits: "South", "West", ...; "seat 5" at a table of more than four. */
export function seatPlace(seat, players) {
  const names = COMPASS[players];
  return names ? names[seat] : `seat ${seat + 1}`;
}

/** The seats' names, each name two or more seats share followed by where the seat sits. */
export function distinctNames(names) {
  const n = names.length;
  return names.map((name, seat) => {
    const label = name || `Seat ${seat + 1}`;
    const twice = names.filter((x) => (x || "") === (name || "")).length > 1;
    if (!twice) return label;
    const place = seatPlace(seat, n);
    return label === place ? label : `${label} (${place})`;
  });
}

const KIND_WORDS = { T: "10", B3: "black 3", R3: "red 3", JK: "joker", "3": "black 3" };
const PLURALS = {
  A: "aces", K: "kings", Q: "queens", J: "jacks", 10: "10s", 9: "9s", 8: "8s", 7: "7s",
  6: "6s", 5: "5s", 4: "4s", 2: "2s", JK: "jokers", B3: "black 3s", R3: "red 3s",
};

/** A kind as people write it: "T" -> "10", "B3" -> "black 3", "JK" -> "joker". */
export function kindWord(kind) {
  const k = String(kind).toUpperCase();
  return KIND_WORDS[k] || k;
}

/** "a 10", "an ace", "an 8", "a joker". */
export function aKind(kind) {
  const w = kindWord(kind);
  const spoken = { A: "ace" }[w] || w;
  return `${/^(ace|8)/i.test(spoken) ? "an" : "a"} ${spoken}`;
}

/** Plural of a kind: "kings", "10s". */
export function kindPlural(kind) {
  const w = kindWord(kind);
  return PLURALS[w] || PLURALS[String(kind).toUpperCase()] || `${w}s`;
}

/** One group of a meld in words: "K K K 2", "2 onto the kings", "a new meld of K K K". */
export function groupWords(group) {
  let text = String(group).trim();
  let fresh = false;
  if (/^new\s/i.test(text)) {
    fresh = true;
    text = text.slice(4).trim();
  }
  const m = /^([^\s:]+)\s*:\s*(.*)$/.exec(text);
  if (m) {
    const rest = m[2].split(/\s+/).filter(Boolean).map(kindWord).join(" ");
    // "K:" alone at a pickup: the top card by itself onto the kings
    return rest ? `${rest} onto the ${kindPlural(m[1])}` : `the top card onto the ${kindPlural(m[1])}`;
  }
  const cards = text.split(/\s+/).filter(Boolean).map(kindWord).join(" ");
  return fresh ? `${cards} (a new meld)` : cards;
}

function listWords(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

function groupsWords(text) {
  return listWords(String(text).split("|").map((g) => g.trim()).filter(Boolean).map(groupWords));
}

/** A move in the notation, in people's words, in the past tense ("melded 10 10 10"). */
export function moveWords(notation) {
  const text = String(notation ?? "").trim();
  const [word] = text.split(/\s+/);
  const rest = text.slice(word.length).trim();
  switch (word.toLowerCase()) {
    case "draw": return "drew from the stock";
    case "pickup": {
      if (!rest) return "took the pile";
      const groups = rest.split("|").map((g) => g.trim()).filter(Boolean);
      const first = groupWords(groups[0]);
      const more = groups.slice(1).map(groupWords);
      const firstText = /onto the/.test(first) ? first : `${first} with the top card`;
      return `took the pile: ${firstText}${more.length ? `; melded ${listWords(more)}` : ""}`;
    }
    case "meld": return `melded ${groupsWords(rest)}`;
    case "discard": return `discarded ${aKind(rest)}`;
    case "goout": {
      const at = rest.search(/(^|\s)discard\s/i);
      const melds = at < 0 ? rest : rest.slice(0, at).trim();
      const discard = at < 0 ? null : rest.slice(at).trim().split(/\s+/)[1];
      const parts = [];
      if (melds) parts.push(`melded ${groupsWords(melds)}`);
      if (discard) parts.push(`discarded ${aKind(discard)}`);
      return `went out${parts.length ? `: ${parts.join(", then ")}` : ""}`;
    }
    case "yes": return "answered yes";
    case "no": return "answered no";
    case "undo": return "took back a meld";
    case "knock": return "knocked";
    case "knee": return "picked up the Knee";
    default: return text;
  }
}

/** A move as advice ("meld 10 10 10", "discard a 7", "take the pile: ..."): the hint. */
export function adviceWords(notation) {
  const past = moveWords(notation);
  return past
    .replace(/^drew from/, "draw from")
    .replace(/^took the pile/, "take the pile")
    .replace(/^melded/, "meld")
    .replace(/; melded/, "; meld")
    .replace(/^discarded/, "discard")
    .replace(/^went out/, "go out")
    .replace(/: melded/, ": meld")
    .replace(/, then discarded/, ", then discard")
    .replace(/: discarded/, ": discard")
    .replace(/^answered/, "answer")
    .replace(/^took back/, "take back")
    .replace(/^knocked/, "knock")
    .replace(/^picked up/, "pick up");
}
