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
