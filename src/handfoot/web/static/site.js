// Loaded by every page (templates/base.html): remember every game link opened in this
// browser, for the History page. A file, not an inline script: the Content Security Policy
// allows scripts only from the site's own files.
import {rememberOpenedLink} from "/static/links.js";

rememberOpenedLink(window.location);

// The service worker (static/sw.js, served at /sw.js so it covers the whole site): it only
// shows "your turn" notices and opens the seat. Registering asks nothing of the person:
// notices are asked for with a click at the table (Notices), never on load.
if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("/sw.js").catch(() => {});
}
