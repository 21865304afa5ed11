// Seats and the pile in people's words, for the table and the replay viewer. Moves come
// worded by the server (each event's `words`, each hint's `words`): no page reads the
// notation back. A name two seats share is told apart by where the seat sits ("Hard bot
// (West)"), as the lobby names its bots.
//
//   seatPlace(1, 4)                     -> "West"
//   distinctNames(["Ann", "Hard bot", "Hard bot", "Hard bot"]) -> ["Ann", "Hard bot (West)", ...]
//   pickupSize(7)                       -> "a pickup takes 7"

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

/** How many cards a pickup takes, from the view's `discard.pickup_size`. */
export function pickupSize(size) {
  return `a pickup takes ${size}`;
}
