/* Sending photos of score sheets (sheet_photos/_upload.html): each photo on its own, made
 * smaller in the browser first (a phone's photo is several MB; the site takes a few MB per
 * request, and reads a sheet just as well at 3000 pixels), the outcome of each listed as it
 * comes. Without this script the form sends the photos as they are, all at once.
 *
 * After the photos: a form with data-reload (a table's link) opens its page again, at the top,
 * where #photo-outcome says what became of the photo (kept for that one reload in
 * sessionStorage); a form with data-refresh (the round page) puts the page's parts marked
 * data-photo-refresh (the tables, the sheets waiting) in place again from the page as it is now.
 */
(function () {
  "use strict";

  const LONG_SIDE = 3000;
  const QUALITY = 0.9;
  const OUTCOME_KEY = "bollen-photo-outcome:" + window.location.pathname;

  // What the last upload of this page said, shown once at the top after its reload.
  (function showOutcome() {
    const node = document.getElementById("photo-outcome");
    let kept = null;
    try {
      kept = JSON.parse(sessionStorage.getItem(OUTCOME_KEY) || "null");
      sessionStorage.removeItem(OUTCOME_KEY);
    } catch (error) { kept = null; }
    const list = node && node.querySelector("ul");
    if (!list || !kept || !Array.isArray(kept.lines) || !kept.lines.length) return;
    list.replaceChildren(...kept.lines.map(function (line) {
      const item = document.createElement("li");
      item.dataset.ok = line.ok ? "yes" : "no";
      item.textContent = (line.ok ? "✓ " : "✗ ") + line.text;
      return item;
    }));
    node.hidden = false;
  })();

  // The parts of the page an upload changes, as the server draws them now.
  async function refresh() {
    const parts = document.querySelectorAll("[data-photo-refresh][id]");
    if (!parts.length || !window.DOMParser) return;
    try {
      const response = await fetch(window.location.href, {credentials: "same-origin", cache: "no-store"});
      if (!response.ok) return;
      const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
      parts.forEach(function (part) {
        const now = fresh.getElementById(part.id);
        if (now) part.replaceWith(document.importNode(now, true));
      });
    } catch (error) { /* no connection: the page shows what it showed */ }
  }

  function fmt(template, params) {
    return template.replace(/\{(\w+)\}/g, function (all, name) {
      return name in params ? String(params[name]) : all;
    });
  }

  // The photo as a JPEG at most LONG_SIDE pixels long, turned as the camera meant it.
  async function smaller(file) {
    if (!window.createImageBitmap) return file;
    const bitmap = await createImageBitmap(file, {imageOrientation: "from-image"});
    const scale = Math.min(1, LONG_SIDE / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    return await new Promise(function (resolve) {
      canvas.toBlob(function (blob) { resolve(blob || file); }, "image/jpeg", QUALITY);
    });
  }

  document.querySelectorAll("form[data-photo-upload]").forEach(function (form) {
    const progress = form.querySelector(".photo-progress");
    const list = form.querySelector(".photo-results");
    const button = form.querySelector("button[type=submit]");
    const token = form.querySelector("input[name=csrfmiddlewaretoken]").value;

    function add(text, ok, url, table) {
      const item = document.createElement("li");
      item.dataset.ok = ok ? "yes" : "no";
      item.textContent = (ok ? "✓ " : "✗ ") + text;
      if (ok && url && !form.dataset.reload) {
        const link = document.createElement("a");
        link.href = url;
        link.textContent = fmt(form.dataset.check, {table: table});
        item.append(" ", link);
      }
      list.appendChild(item);
    }

    form.addEventListener("submit", async function (event) {
      const files = [];
      form.querySelectorAll("input[type=file]").forEach(function (input) { files.push(...input.files); });
      if (!files.length || !window.fetch) return;  // the plain form says what is missing
      event.preventDefault();
      button.disabled = true;
      list.textContent = "";
      let read = 0;
      const lines = [];
      for (let i = 0; i < files.length; i++) {
        const file = files[i];
        progress.textContent = fmt(form.dataset.reading, {n: i + 1, total: files.length, file: file.name});
        let blob = file;
        try { blob = await smaller(file); } catch (error) { blob = file; }
        const body = new FormData();
        body.append("csrfmiddlewaretoken", token);
        body.append("photos", blob, file.name);
        let data = null;
        try {
          const response = await fetch(form.action, {
            method: "POST", body: body, credentials: "same-origin",
            headers: {"X-Requested-With": "XMLHttpRequest", "Accept": "application/json"},
          });
          if ((response.headers.get("Content-Type") || "").includes("application/json")) data = await response.json();
        } catch (error) { data = null; }
        if (!data || !data.results) {
          add(file.name + ": " + form.dataset.failed, false);
          continue;
        }
        data.results.forEach(function (result) {
          if (result.ok) read += 1;
          lines.push({ok: result.ok, text: result.message});
          add(result.message, result.ok, result.url, result.table);
        });
      }
      progress.textContent = fmt(form.dataset.done, {ok: read, total: files.length});
      form.querySelectorAll("input[type=file]").forEach(function (input) { input.value = ""; });
      button.disabled = false;
      if (form.dataset.reload && read) {
        try { sessionStorage.setItem(OUTCOME_KEY, JSON.stringify({lines: lines})); } catch (error) { /* ignore */ }
        if ("scrollRestoration" in history) history.scrollRestoration = "manual";
        window.scrollTo(0, 0);
        window.location.reload();
      } else if (form.dataset.refresh && read) {
        await refresh();
      }
      // On a phone the results are under the button, below the screen: bring them up.
      if (!form.dataset.reload || !read) list.scrollIntoView({block: "nearest"});
    });
  });
})();
