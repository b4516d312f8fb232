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
