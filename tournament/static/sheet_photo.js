/* A photo's reading being checked on the sheet page (sheets/_photo.html, sheets.photo_context).
 *
 * The boxes the reader was not sure of, or where the photo differs from the saved sheet, carry
 * data-photo (set by the server); here each also gets its reason as text at the box (read out
 * with it: aria-describedby) and an outline with a "?" on its cell. The box that has focus is
 * shown on the photo: the straightened page, scaled and moved (CSS background) so that the box
 * and its neighbours fill the view, the box itself outlined. On a phone that view docks along
 * the bottom of the screen while a box has focus, and the box is kept clear above it.
 *
 * A marked box is checked once it had the focus and lost it, or was changed: its "?" becomes a
 * tick, and the panel counts "N of M checked". "Next box to check" goes to the next marked box
 * not checked yet; when there is none, it says so and takes the focus to the save button.
 * (A marked box keeps the focus after a digit: static/sheet.js.)
 *
 * Saving is sheet.js's: the Save button only, while the photo waits. Once a save kept the
 * photo with its version (the bollen:sheet event's detail.photoKept), the page is a sheet page
 * like any other: the marks, the count and the list go, the zoom no longer docks, and the
 * panel says with which version the photo is kept (the photo stays, for reference).
 */
(function () {
  "use strict";

  const panel = document.getElementById("photo-check");
  const form = document.getElementById("sheet-form");
  const configNode = document.getElementById("sheet-config");
  if (!panel || !form || !configNode) return;
  const photo = JSON.parse(configNode.textContent).photo;
  if (!photo) return;
  const M = photo.messages;
  const figure = panel.querySelector(".photo-zoom-figure");
  const zoom = document.getElementById("photo-zoom");
  const zoomBox = zoom.querySelector(".photo-zoom-box");
  const caption = document.getElementById("photo-zoom-caption");
  const next = document.getElementById("photo-next");
  const checkedCount = document.getElementById("photo-checked-count");
  const done = document.getElementById("photo-done");
  const VIEW_MM = [64, 32];  // what the zoom shows around the box: its deal's neighbours
  const GAP = 8;  // px between a box and the docked photo
  let checking = true;  // until a save keeps the photo

  function fmt(template, params) {
    return template.replace(/%\((\w+)\)s/g, function (all, name) {
      return name in params ? String(params[name]) : all;
    });
  }

  function input(deal, seat, kind) {
    return form.querySelector('input.box[data-deal="' + deal + '"][data-seat="' + seat + '"][data-kind="' + kind + '"]');
  }
  function listed(box) {
    return panel.querySelector('.photo-marks a[data-deal="' + box.dataset.deal + '"][data-seat="' + box.dataset.seat + '"][data-kind="' + box.dataset.kind + '"]');
  }
  function whyOf(box) {
    return document.getElementById("photo-why-" + box.dataset.deal + "-" + box.dataset.seat + "-" + box.dataset.kind);
  }
  // The marks' order (sheets.photo_input.photo_marks): by deal, the bids before the tricks, by row.
  function order(box) {
    return [Number(box.dataset.deal), box.dataset.kind === "bid" ? 0 : 1, Number(box.dataset.seat)];
  }
  function before(a, b) {
    for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i];
    return false;
  }

  const marked = [];
  photo.marks.forEach(function (mark) {
    const box = input(mark.deal, mark.seat, mark.kind);
    if (!box) return;
    marked.push(box);
    const cell = box.closest("td.cell");
    if (cell) cell.classList.add("photo-marked");
    const msg = document.getElementById("msg-" + mark.deal + "-" + mark.seat);
    if (msg) {
      const why = document.createElement("span");
      why.className = "photo-why";
      why.id = "photo-why-" + mark.deal + "-" + mark.seat + "-" + mark.kind;
      why.textContent = "? " + M[mark.kind] + ": " + fmt(M["box_" + mark.why], {saved: mark.saved});
      msg.appendChild(why);
      const described = (box.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
      described.push(why.id);
      box.setAttribute("aria-describedby", described.join(" "));
    }
  });

  /* ---- which marked boxes are checked ---- */

  const checked = new Set();
  function allChecked() { return marked.length > 0 && checked.size === marked.length; }
  function progress() {
    if (!checking || !marked.length) return;
    checkedCount.textContent = fmt(M.progress, {checked: checked.size, total: marked.length});
    if (done) done.textContent = allChecked() ? M.all_checked : "";
    if (allChecked()) caption.textContent = M.all_checked;
  }
  function check(box) {
    if (!checking || checked.has(box) || marked.indexOf(box) < 0) return;
    checked.add(box);
    const cell = box.closest("td.cell");
    if (cell) cell.classList.add("photo-checked");
    const why = whyOf(box);
    if (why) why.textContent = "✓ " + M[box.dataset.kind] + ": " + M.checked;
    const item = listed(box);
    if (item) item.closest("li").classList.add("checked");
    progress();
  }
  form.addEventListener("focusout", function (event) { check(event.target); });
  form.addEventListener("input", function (event) { check(event.target); });

  /* ---- the photo at the box that has focus ---- */

  function show(box) {
    const key = box.dataset.deal + ":" + box.dataset.seat + ":" + box.dataset.kind;
    const rect = photo.boxes[key];
    if (!rect) return;
    const page = photo.pageMm;
    const scale = zoom.clientWidth / VIEW_MM[0];  // px per mm on the screen
    const high = zoom.clientHeight / scale || VIEW_MM[1];  // the view's height in mm
    const x0 = Math.min(Math.max(rect[0] + rect[2] / 2 - VIEW_MM[0] / 2, 0), page[0] - VIEW_MM[0]);
    const y0 = Math.min(Math.max(rect[1] + rect[3] / 2 - high / 2, 0), page[1] - high);
    zoom.style.backgroundSize = (page[0] * scale) + "px " + (page[1] * scale) + "px";
    zoom.style.backgroundPosition = (-x0 * scale) + "px " + (-y0 * scale) + "px";
    zoomBox.style.left = ((rect[0] - x0) * scale) + "px";
    zoomBox.style.top = ((rect[1] - y0) * scale) + "px";
    zoomBox.style.width = (rect[2] * scale) + "px";
    zoomBox.style.height = (rect[3] * scale) + "px";
    const label = box.labels && box.labels[0] ? box.labels[0].textContent.trim() : (box.getAttribute("aria-label") || "");
    caption.textContent = label;
    zoom.setAttribute("aria-label", M.zoom.replace("%(box)s", label));
    panel.querySelectorAll(".photo-marks a.current").forEach(function (a) { a.classList.remove("current"); });
    const item = listed(box);
    if (item) item.classList.add("current");
  }

  /* ---- on a phone: docked along the bottom, the box kept clear above it ---- */

  const narrow = window.matchMedia("(max-width: 1099px)");
  const viewport = window.visualViewport;
  function docked() { return panel.classList.contains("docked"); }
  // The dock sits at the bottom of what is seen: above the on-screen keyboard too (which
  // shrinks the visual viewport, not the layout one that position: fixed goes by).
  function placeDock() {
    if (!docked()) return;
    const hidden = viewport ? Math.max(0, window.innerHeight - viewport.offsetTop - viewport.height) : 0;
    figure.style.bottom = hidden + "px";
    document.body.style.setProperty("--photo-dock", figure.getBoundingClientRect().height + "px");
  }
  // The box with the focus stays in view between the top of the screen and the docked photo.
  function keepClear(box) {
    if (!docked() || !box || !box.matches("input.box[data-deal]")) return;
    placeDock();
    const rect = box.getBoundingClientRect();
    const top = (viewport ? viewport.offsetTop : 0) + GAP;
    const limit = figure.getBoundingClientRect().top - GAP;
    if (rect.bottom > limit) window.scrollBy(0, rect.bottom - limit);
    else if (rect.top < top) window.scrollBy(0, rect.top - top);
  }
  function dock(on) {
    const wanted = on && checking && narrow.matches;
    if (wanted === docked()) return;
    panel.classList.toggle("docked", wanted);
    document.body.classList.toggle("photo-docked", wanted);
    if (wanted) placeDock(); else figure.style.bottom = "";
  }
  function focusedBox() {
    const active = document.activeElement;
    return active && form.contains(active) && active.matches("input.box[data-deal]") ? active : null;
  }
  if (viewport) {
    viewport.addEventListener("resize", function () {
      placeDock();
      keepClear(focusedBox());
    });
    viewport.addEventListener("scroll", placeDock);
  }

  function go(box) {
    box.focus({preventScroll: true});
    if (box.select) box.select();
    box.scrollIntoView({block: "center", inline: "center"});
    keepClear(box);
  }

  figure.hidden = false;
  form.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("input.box[data-deal]")) {
      dock(true);
      show(event.target);
      const box = event.target;
      keepClear(box);
      // Once more after the browser's own scrolling to the box it focused (a tap).
      window.requestAnimationFrame(function () { if (document.activeElement === box) keepClear(box); });
    }
  });
  document.addEventListener("focusin", function (event) {
    const inside = form.contains(event.target) && event.target.matches("input.box[data-deal]");
    if (!inside && !panel.contains(event.target)) dock(false);
  });
  panel.querySelectorAll(".photo-marks a[data-deal]").forEach(function (link) {
    link.addEventListener("click", function (event) {
      const box = input(link.dataset.deal, link.dataset.seat, link.dataset.kind);
      if (!box) return;
      event.preventDefault();
      go(box);
    });
  });

  /* ---- "Next box to check" ---- */

  let last = null;  // the box that had the focus last: "next" goes on from there
  form.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("input.box[data-deal]")) last = event.target;
  });
  function saveButton() { return form.querySelector(".sheet-save button[type=submit]"); }
  if (next && marked.length) {
    next.hidden = false;
    next.addEventListener("click", function () {
      if (last) check(last);  // left for the next one: looked at
      const open = marked.filter(function (box) { return !checked.has(box); });
      if (!open.length) {
        progress();
        const typing = document.getElementById("typing-help");
    if (typing) typing.hidden = false;
    const save = saveButton();
        if (save) {
          save.focus({preventScroll: true});
          save.scrollIntoView({block: "center"});
        }
        return;
      }
      const here = last ? order(last) : null;
      const after = here ? open.find(function (box) { return before(here, order(box)); }) : null;
      go(after || open[0]);
    });
  }
  progress();

  // The first box to check (or the first box) is on the photo as the page opens.
  const first = marked[0] || form.querySelector("input.box[data-deal]");
  if (first) show(first);
  window.addEventListener("resize", function () {
    const current = focusedBox() || first;
    if (current) show(current);
  });

  /* ---- saved: the photo is kept with the version ---- */

  function kept() {
    checking = false;
    dock(false);
    marked.forEach(function (box) {
      const why = whyOf(box);
      if (why) {
        const described = (box.getAttribute("aria-describedby") || "").split(" ").filter(function (id) { return id && id !== why.id; });
        if (described.length) box.setAttribute("aria-describedby", described.join(" ")); else box.removeAttribute("aria-describedby");
        why.remove();
      }
      delete box.dataset.photo;
      box.removeAttribute("title");
      const cell = box.closest("td.cell");
      if (cell) cell.classList.remove("photo-marked", "photo-checked");
    });
    const field = form.querySelector('input[name="photo"]');
    if (field) field.remove();  // later saves are plain saves
    ["photo-status", "photo-help", "photo-done"].forEach(function (id) {
      const node = document.getElementById(id);
      if (node) node.remove();
    });
    panel.querySelectorAll(".photo-pending, .photo-marks-list, #photo-next").forEach(function (node) { node.remove(); });
    const typing = document.getElementById("typing-help");
    if (typing) typing.hidden = false;
    const save = saveButton();
    if (save) save.textContent = M.save;
    document.getElementById("photo-check-title").textContent = fmt(M.saved_title, {number: form.elements.base_version.value});
    document.getElementById("photo-count").textContent = M.saved;
    panel.classList.add("photo-saved");
  }
  form.addEventListener("bollen:sheet", function (event) {
    if (checking && event.detail.photoKept) kept();
  });
})();
