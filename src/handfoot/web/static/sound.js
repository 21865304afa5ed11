// The table's few sounds, made here with Web Audio (no media files): your turn, a draw, a
// meld, a book, the end of a round. Muted (the table's Sound setting, remembered in this
// browser) means silent everywhere: no AudioContext is even made. Browsers let a page sound
// only after a person has pressed something, so nothing sounds (nor is made) before that.
//
//   initSound(() => app.sound)   once, with the question "is the sound on?"
//   playSound("turn")            "turn", "draw", "meld", "book" or "round"

let ctx = null;
let pressed = false;
let soundOn = () => false;

// [frequency (Hz), start (s), length (s), wave]
const SOUNDS = {
  turn: [[659, 0, 0.14, "sine"], [988, 0.12, 0.22, "sine"]],
  draw: [[1250, 0, 0.05, "triangle"], [900, 0.035, 0.06, "triangle"]],
  meld: [[523, 0, 0.09, "triangle"], [659, 0.07, 0.09, "triangle"], [784, 0.14, 0.16, "triangle"]],
  book: [[523, 0, 0.1, "sine"], [659, 0.08, 0.1, "sine"], [784, 0.16, 0.1, "sine"], [1047, 0.24, 0.3, "sine"]],
  round: [[392, 0, 0.14, "triangle"], [523, 0.13, 0.14, "triangle"], [659, 0.26, 0.14, "triangle"], [784, 0.39, 0.4, "triangle"]],
};

export function initSound(isOn) {
  soundOn = isOn;
  const mark = () => { pressed = true; };
  window.addEventListener("pointerdown", mark, { capture: true });
  window.addEventListener("keydown", mark, { capture: true });
}

function context() {
  if (!soundOn() || !pressed) return null;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!ctx) ctx = new Ctx();
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

function tone(c, freq, at, length, wave) {
  const osc = c.createOscillator();
  const gain = c.createGain();
  osc.type = wave;
  osc.frequency.setValueAtTime(freq, at);
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(0.16, at + 0.012);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(c.destination);
  osc.start(at);
  osc.stop(at + length + 0.03);
}

/** One of SOUNDS, if the sound is on and the page may sound; true if it played. */
export function playSound(name) {
  const notes = SOUNDS[name];
  const c = notes ? context() : null;
  if (!c) return false;
  const t0 = c.currentTime + 0.01;
  for (const [freq, at, length, wave] of notes) tone(c, freq, t0 + at, length, wave);
  return true;
}
