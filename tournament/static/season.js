// Tonight's check-in: the search box hides the members that do not match, and the count of
// ticked members follows the ticks. Without this script every member is listed.
(function () {
  "use strict";
  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }
  document.querySelectorAll("input[data-filter]").forEach(function (input) {
    var list = document.querySelector(input.dataset.filter);
    if (!list) return;
    input.addEventListener("input", function () {
      var wanted = fold(input.value.trim());
      list.querySelectorAll(".tick").forEach(function (row) {
        row.hidden = wanted !== "" && fold(row.textContent).indexOf(wanted) === -1;
      });
    });
    // Enter in the search box must not submit the check-in.
    input.addEventListener("keydown", function (event) {
      if (event.key === "Enter") event.preventDefault();
    });
  });
  document.querySelectorAll("output[data-count]").forEach(function (output) {
    var list = document.querySelector(output.dataset.count);
    if (!list) return;
    function update() {
      output.value = list.querySelectorAll("input[type=checkbox]:checked").length;
    }
    list.addEventListener("change", update);
    update();
  });
})();
