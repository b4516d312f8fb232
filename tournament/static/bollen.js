// Ask before a form with data-confirm is sent (removing a seating, withdrawing a player).
// Without JavaScript the form is simply sent; the server still refuses what is not allowed.
document.addEventListener("submit", (event) => {
  const question = event.target.dataset && event.target.dataset.confirm;
  if (question && !window.confirm(question)) {
    event.preventDefault();
  }
});
