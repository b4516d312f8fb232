// Ask before a form with data-confirm is sent (removing a seating, withdrawing a player).
// Without JavaScript the form is simply sent; the server still refuses what is not allowed.
document.addEventListener("submit", (event) => {
  const question = event.target.dataset && event.target.dataset.confirm;
  if (question && !window.confirm(question)) {
    event.preventDefault();
  }
});

// The print toolbar's button (a script file, not an onclick attribute: the site's Content
// Security Policy runs no inline script).
document.addEventListener("click", (event) => {
  if (event.target.closest && event.target.closest("[data-print]")) {
    window.print();
  }
});

// A form sent back with errors opens at its summary of them (the fields may be far below).
document.addEventListener("DOMContentLoaded", () => {
  const summary = document.getElementById("error-summary");
  if (summary) summary.focus();
});

// Texts that count ticked boxes (the import's "12 players will be registered" and its button
// "Register 12 players"): data-count-for names the form of the boxes, data-count-one and
// data-count-many the page's words for one and for many ("%s" is the number).
document.addEventListener("change", (event) => {
  const box = event.target;
  if (!box.form || box.type !== "checkbox" || !box.form.id) return;
  const ticked = document.querySelectorAll(
    `input[type=checkbox][form="${box.form.id}"]:checked`).length;
  for (const text of document.querySelectorAll(`[data-count-for="${box.form.id}"]`)) {
    text.textContent = (ticked === 1 ? text.dataset.countOne : text.dataset.countMany)
      .replace("%s", String(ticked));
    if (text.tagName === "BUTTON") text.disabled = ticked === 0;
  }
});
