// One click: a link from an e-mail (unsubscribe, confirm an address) opens a page that sends
// its form at once. A mail scanner that only fetches the link changes nothing; the button is
// there for a browser without script.
const form = document.querySelector("form[data-autosubmit]");
if (form) form.requestSubmit();
