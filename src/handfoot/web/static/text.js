// Text for the pages (plain ES module, no build step): what any page writes into HTML is
// escaped here, and numbers are written as a score keeper writes them.
//
//   esc('<b>"A&B"</b>')  -> "&lt;b&gt;&quot;A&amp;B&quot;&lt;/b&gt;"
//   number(1500)         -> "1,500"

const ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"};

/** Text made safe to put into HTML, as an element's text or an attribute's value. */
export function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** A number as a score keeper writes it ("1,500"); anything else as text. */
export function number(n) {
  return typeof n === "number" ? n.toLocaleString("en-US") : String(n ?? "");
}
