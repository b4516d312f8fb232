// Tonight's check-in: the search box hides the members that do not match, and the count of
// ticked members follows the ticks. Without this script every member is listed.
(function () {
  "use strict";
  // Names are folded as the site folds them (tournament/names.py): each row carries its name
  // folded (data-folded), and what is typed is folded with the site's table (data-fold) for
  // the letters that are not just a letter with marks ("ø", "ß", apostrophes).
  function folder(table) {
    return function (text) {
      var out = "";
      for (var ch of text.toLowerCase().normalize("NFC")) {
        out += Object.prototype.hasOwnProperty.call(table, ch)
          ? table[ch]
          : ch.normalize("NFD").replace(/\p{M}/gu, "");
      }
      return out.replace(/\s+/g, " ").trim();
    };
  }
  document.querySelectorAll("input[data-filter]").forEach(function (input) {
    var list = document.querySelector(input.dataset.filter);
    if (!list) return;
    var fold = folder(JSON.parse(input.dataset.fold || "{}"));
    // Said when nothing matches, in place of the rows.
    var none = document.createElement("p");
    none.className = "muted";
    none.setAttribute("role", "status");
    none.textContent = input.dataset.none || "";
    none.hidden = true;
    list.appendChild(none);
    input.addEventListener("input", function () {
      var wanted = fold(input.value);
      var shown = 0;
      list.querySelectorAll(".tick").forEach(function (row) {
        var name = row.dataset.folded !== undefined ? row.dataset.folded : fold(row.textContent);
        row.hidden = wanted !== "" && name.indexOf(wanted) === -1;
        if (!row.hidden) shown += 1;
      });
      none.hidden = shown > 0 || wanted === "";
    });
    // Enter in the search box must not submit the check-in.
    input.addEventListener("keydown", function (event) {
      if (event.key === "Enter") event.preventDefault();
    });
  });
  // "All from last evening" ticks them in place, keeping what was typed; without this script
  // the button posts the form and the page comes back with them ticked.
  document.querySelectorAll("button[data-tick]").forEach(function (button) {
    var source = document.querySelector(button.dataset.tick);
    var list = document.querySelector(button.dataset.ticks);
    if (!source || !list) return;
    var wanted = JSON.parse(source.textContent).map(String);
    button.addEventListener("click", function (event) {
      event.preventDefault();
      list.querySelectorAll("input[type=checkbox]").forEach(function (box) {
        if (wanted.indexOf(box.value) !== -1) box.checked = true;
      });
      list.dispatchEvent(new Event("change", { bubbles: true }));
    });
  });
  // The count is everyone who plays tonight: the ticked members and the new names, one a line.
  document.querySelectorAll("output[data-count]").forEach(function (output) {
    var list = document.querySelector(output.dataset.count);
    var names = output.dataset.countLines && document.querySelector(output.dataset.countLines);
    if (!list) return;
    function update() {
      var count = list.querySelectorAll("input[type=checkbox]:checked").length;
      if (names) {
        count += names.value.split("\n").filter(function (line) {
          return line.trim() !== "";
        }).length;
      }
      output.value = count;
    }
    list.addEventListener("change", update);
    if (names) names.addEventListener("input", update);
    update();
  });
})();
// A wide season table's hint ("swipe sideways") is said only while the table does not fit its
// box; without this script the hint shows on every phone.
(function () {
  "use strict";
  var hints = document.querySelectorAll("[data-scroll-hint]");
  function update() {
    hints.forEach(function (hint) {
      var box = document.querySelector(hint.dataset.scrollHint);
      if (box) hint.hidden = box.scrollWidth <= box.clientWidth + 1;
    });
  }
  if (!hints.length) return;
  update();
  window.addEventListener("resize", update);
})();
