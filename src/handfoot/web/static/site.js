// Loaded by every page (templates/base.html): remember every game link opened in this
// browser, for the History page. A file, not an inline script: the Content Security Policy
// allows scripts only from the site's own files.
import {rememberOpenedLink} from "/static/links.js";

rememberOpenedLink(window.location);
