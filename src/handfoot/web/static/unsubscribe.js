// One click: the link from the e-mail opens this page, which sends its form at once (a mail
// scanner that only fetches the link changes nothing; the button is there without script).
const form = document.getElementById("unsubscribe-form");
if (form) form.requestSubmit();
