/* A photo's reading being checked on the sheet page (sheets/_photo.html, sheets.photo_context).
 *
 * The boxes the reader was not sure of, or where the photo differs from the saved sheet, carry
 * data-photo (set by the server); here each also gets its reason as text at the box (read out
 * with it: aria-describedby) and an outline with a "?" on its cell. The box that has focus is
 * shown on the photo: the straightened page, scaled and moved (CSS background) so that the box
 * and its neighbours fill the view, the box itself outlined. "Next box to check" goes to the
 * marked box after the one that has focus. Saving is sheet.js's: the Save button only, while
 * the photo waits.
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
  const zoom = document.getElementById("photo-zoom");
  const zoomBox = zoom.querySelector(".photo-zoom-box");
  const caption = document.getElementById("photo-zoom-caption");
  const next = document.getElementById("photo-next");
  const VIEW_MM = [64, 32];  // what the zoom shows around the box: its deal's neighbours

  function input(deal, seat, kind) {
    return form.querySelector('input.box[data-deal="' + deal + '"][data-seat="' + seat + '"][data-kind="' + kind + '"]');
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
      why.textContent = "? " + M[mark.kind] + ": " + M["box_" + mark.why];
      msg.appendChild(why);
      const described = (box.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
      described.push(why.id);
      box.setAttribute("aria-describedby", described.join(" "));
    }
  });

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
    const item = panel.querySelector('.photo-marks a[data-deal="' + box.dataset.deal + '"][data-seat="' + box.dataset.seat + '"][data-kind="' + box.dataset.kind + '"]');
    if (item) item.classList.add("current");
  }

  function go(box) {
    box.focus();
    if (box.select) box.select();
    box.scrollIntoView({block: "center", inline: "center"});
  }

  panel.querySelector(".photo-zoom-figure").hidden = false;
  // On a narrow screen the photo is below the grid: while a box has focus its zoom docks at the
  // bottom of the screen, so that box and photo are seen together.
  const narrow = window.matchMedia("(max-width: 1099px)");
  function dock(on) {
    const docked = on && narrow.matches;
    if (docked === panel.classList.contains("docked")) return;
    panel.classList.toggle("docked", docked);
    document.body.classList.toggle("photo-docked", docked);
  }
  form.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("input.box[data-deal]")) {
      dock(true);
      show(event.target);
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
  if (next && marked.length) {
    next.hidden = false;
    next.addEventListener("click", function () {
      const here = marked.indexOf(document.activeElement);
      const last = form.dataset.photoLast ? Number(form.dataset.photoLast) : -1;
      const from = here >= 0 ? here : last;
      const index = (from + 1) % marked.length;
      form.dataset.photoLast = String(index);
      go(marked[index]);
    });
  }
  // The first box to check (or the first box) is on the photo as the page opens.
  const first = marked[0] || form.querySelector("input.box[data-deal]");
  if (first) show(first);
  window.addEventListener("resize", function () {
    const current = document.activeElement && document.activeElement.matches("input.box[data-deal]") ? document.activeElement : first;
    if (current) show(current);
  });
  form.addEventListener("bollen:sheet", function (event) {
    if (event.detail.stored && event.detail.reason === "saved") {
      document.getElementById("photo-count").textContent = M.saved;
      panel.classList.add("photo-saved");
    }
  });
})();
