/* The score sheet page: rule hints while typing, and saving that loses nothing.
 *
 * Hints only: the dealer's forbidden bid before it is typed, the boxes out of range, tricks that
 * do not add up, by the rules of static/sheet_rules.js (shared with the phone). The server
 * checks everything again (scoring.check_sheet) and is the judge.
 *
 * Saving: what is typed goes to localStorage at once (one entry per sheet) and is sent with
 * fetch, the same fields as the plain form, plus the version it started from and a random key
 * per submission. One submission is in the air at a time; it is retried with the same key until
 * the server answers, so a retry after a lost answer is stored once. Without a connection the
 * input stays on this device and goes out when the connection is back.
 *
 * A save never blocks: the server counts every legal deal in order and holds back the rest
 * (answer "saved" with ``held``), which stays at its boxes, marked as not saved. A save from an
 * older version is merged by the server; the answer's ``values`` go into every box the user
 * has not touched since sending. Only a box both sides changed differently is a conflict.
 *
 * Focus: the boxes are in document order (a row per player); after a digit the focus moves to
 * the next box in bidding order (bids, the dealer last, then the tricks in the same order),
 * except from a box a photo's reading marks as doubtful.
 * After every redraw the form gets a ``bollen:sheet`` event (detail.reason) for other views;
 * after a save its detail.stored is the counted sheet's boxes (``values`` of the answer), and
 * detail.photoKept says that the save kept the page's waiting photo with its version.
 */
(function () {
  "use strict";

  // The rules of a deal (static/sheet_rules.js, loaded before this script).
  const dealProblems = window.BollenRules.dealProblems;
  window.BollenSheet = {focusNext: function () { return false; }};

  const form = document.getElementById("sheet-form");
  const configNode = document.getElementById("sheet-config");
  if (!form || !configNode) return;
  const config = JSON.parse(configNode.textContent);
  const M = config.messages;
  const sync = document.getElementById("sync");
  const syncText = sync.querySelector(".sync-text");
  const problemsNode = document.getElementById("problems");
  const conflictNode = document.getElementById("conflict");
  const penaltiesNode = document.getElementById("penalties");
  const resultNode = document.getElementById("result");
  const stateBadge = document.getElementById("sheet-state");
  const nSeats = config.deals[0].order.length;
  const SKIP = new Set(["csrfmiddlewaretoken", "base_version", "idempotency_key"]);
  const AUTOSAVE_MS = 1200;

  const boxes = {};
  form.querySelectorAll("input.box[data-deal]").forEach(function (input) {
    boxes[input.dataset.deal + ":" + input.dataset.seat + ":" + input.dataset.kind] = input;
    if (input.getAttribute("aria-invalid") === "true") input.dataset.serverInvalid = "1";
  });
  function box(deal, seat, kind) { return boxes[deal + ":" + seat + ":" + kind]; }

  function announce(reason, extra) {
    form.dispatchEvent(new CustomEvent("bollen:sheet", {detail: Object.assign({reason: reason}, extra)}));
  }

  /* ---- focus in bidding order ---- */

  // Every box in the order a table fills them: per deal the bids in bidding order (the dealer
  // last), then the tricks in the same order.
  const entryOrder = [];
  config.deals.forEach(function (spec) {
    ["bid", "tricks"].forEach(function (kind) {
      spec.order.forEach(function (seat) { entryOrder.push([spec.deal, seat, kind]); });
    });
  });
  function focusNext(deal, seat, kind) {
    const here = entryOrder.findIndex(function (p) { return p[0] === deal && p[1] === seat && p[2] === kind; });
    const next = here >= 0 ? entryOrder[here + 1] : null;
    const target = next && box(next[0], next[1], next[2]);
    if (!target || target.disabled) return false;
    target.focus();
    target.select();
    return true;
  }
  window.BollenSheet.focusNext = focusNext;

  function fmt(template, params) {
    return template.replace(/%\((\w+)\)s/g, function (all, name) {
      return name in params ? String(params[name]) : all;
    });
  }
  function digit(input) { return /^[0-9]$/.test(input.value) ? Number(input.value) : null; }
  function span(cls, text) {
    const node = document.createElement("span");
    node.className = cls;
    node.textContent = text;
    return node;
  }

  /* ---- hints ---- */

  const localErrors = {};  // deal -> number of local problems

  function hintDeal(deal) {
    const spec = config.deals[deal - 1];
    const hand = spec.hand;
    const seats = [...Array(nSeats).keys()];
    const messages = seats.map(function () { return []; });
    const invalid = {};
    const dealer = spec.order[spec.order.length - 1];
    const typed = function (kind) { return seats.map(function (seat) { return digit(box(deal, seat, kind)); }); };
    const found = dealProblems(hand, spec.order, typed("bid"), typed("tricks"));
    const hint = found.forbidden === null ? null : fmt(M.forbidden, {bid: found.forbidden});
    let dealMessage = null;
    found.problems.forEach(function (problem) {
      if (problem.code === "tricks_sum") {
        dealMessage = fmt(M.tricks_sum, {sum: problem.sum, hand_size: hand});
        return;
      }
      const kind = problem.code === "tricks_range" ? "tricks" : "bid";
      invalid[problem.seat + kind] = true;
      messages[problem.seat].push(problem.code === "dealer_bid"
        ? fmt(M.dealer_bid, {bid: problem.bid, hand_size: hand})
        : fmt(kind === "bid" ? M.bid_range : M.tricks_range, {hand_size: hand}));
    });

    let count = dealMessage ? 1 : 0;
    seats.forEach(function (seat) {
      const msg = document.getElementById("msg-" + deal + "-" + seat);
      msg.querySelectorAll(".local, .hint").forEach(function (n) { n.remove(); });
      const fromServer = [...msg.querySelectorAll(".server")].map(function (n) { return n.textContent; });
      messages[seat].forEach(function (text) {
        count += 1;
        if (!fromServer.includes(text)) msg.appendChild(span("error local", text));
      });
      if (hint && seat === dealer) msg.appendChild(span("hint", hint));
      let cellInvalid = false;
      ["bid", "tricks"].forEach(function (kind) {
        const input = box(deal, seat, kind);
        const bad = Boolean(invalid[seat + kind]) || input.dataset.serverInvalid === "1";
        if (bad) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
        cellInvalid = cellInvalid || bad;
      });
      msg.parentElement.classList.toggle("invalid", cellInvalid);
    });
    const dealNode = document.getElementById("deal-msg-" + deal);
    dealNode.querySelectorAll(".local").forEach(function (n) { n.remove(); });
    const dealFromServer = [...dealNode.querySelectorAll(".server")].map(function (n) { return n.textContent; });
    if (dealMessage && !dealFromServer.includes(dealMessage)) dealNode.appendChild(span("error local", dealMessage));
    localErrors[deal] = count;
  }

  function clearServerMarks(deal) {
    for (let seat = 0; seat < nSeats; seat++) {
      ["bid", "tricks"].forEach(function (kind) { delete box(deal, seat, kind).dataset.serverInvalid; });
      document.getElementById("msg-" + deal + "-" + seat).querySelectorAll(".server").forEach(function (n) { n.remove(); });
    }
    document.getElementById("deal-msg-" + deal).querySelectorAll(".server").forEach(function (n) { n.remove(); });
  }

  function dealFinished(deal) {
    if (localErrors[deal]) return false;
    for (let seat = 0; seat < nSeats; seat++) {
      if (digit(box(deal, seat, "bid")) === null || digit(box(deal, seat, "tricks")) === null) return false;
    }
    return true;
  }

  // "Deals in order", before typing: the deals after the first one that is not finished are
  // greyed and say which deal to play first (still typable, to copy a paper sheet).
  function hintOrder() {
    const open = config.deals.find(function (spec) { return !dealFinished(spec.deal); });
    config.deals.forEach(function (spec) {
      const later = Boolean(open) && spec.deal > open.deal;
      const node = document.getElementById("deal-msg-" + spec.deal);
      node.querySelectorAll(".order").forEach(function (n) { n.remove(); });
      if (later) node.appendChild(span("hint order", fmt(M.play_first, {deal: open.deal})));
      for (let seat = 0; seat < nSeats; seat++) {
        document.getElementById("msg-" + spec.deal + "-" + seat).parentElement.classList.toggle("later", later);
      }
      const head = form.querySelector('th.deal[data-deal="' + spec.deal + '"]');
      if (head) head.classList.toggle("later", later);
    });
  }

  function hintAll() {
    config.deals.forEach(function (spec) { hintDeal(spec.deal); });
    hintOrder();
  }

  // After a digit typed in the box that has the focus, on to the next box in bidding order.
  // (A value put in by another view, with the focus elsewhere, moves nothing.) A box a photo's
  // reading marks as doubtful (data-photo, static/sheet_photo.js) keeps the focus, its digit
  // selected: it is being compared with the photo, zoomed onto it, and may be typed again.
  function moveOn(target) {
    if (target !== document.activeElement || digit(target) === null) return;
    if (target.dataset.photo) {
      target.select();
      return;
    }
    focusNext(Number(target.dataset.deal), Number(target.dataset.seat), target.dataset.kind);
  }

  function boxTyped(target) {
    const digits = target.value.replace(/[^0-9]/g, "");
    if (digits !== target.value) target.value = digits.slice(-1);
    clearServerMarks(Number(target.dataset.deal));
    hintDeal(Number(target.dataset.deal));
    hintOrder();
  }

  // A box holds one digit: whether it is reached by Tab, a click or a tap, its digit is
  // selected, so typing a new one corrects it (on a phone there is no Tab to select with).
  function selectBox(event) {
    if (event.target.classList && event.target.classList.contains("box")) event.target.select();
  }
  form.addEventListener("focusin", selectBox);
  form.addEventListener("click", selectBox);

  // Re-typing the paper form to compare it with the stored sheet: hints while typing, and the
  // form is sent as it is (nothing is saved, so there is nothing to queue). What is typed is
  // kept on this device as it is typed (config.retypeKey), so that leaving the page half-way
  // loses nothing: a blank page puts it back. Sending it forgets it; a page that comes back
  // with the typing in its boxes (the boxes that differ) keeps that instead.
  if (config.plain) {
    const retypeKey = config.retypeKey;
    const typedFields = function () {
      return snapshot().filter(function (pair) {
        const field = form.elements.namedItem(pair[0]);
        return pair[1] !== "" && field && field.type !== "hidden";
      });
    };
    const keepRetyping = function () {
      if (!retypeKey) return;
      try {
        const fields = typedFields();
        if (fields.length) localStorage.setItem(retypeKey, JSON.stringify({fields: fields, at: Date.now()}));
        else localStorage.removeItem(retypeKey);
      } catch (error) { /* storage full or disabled: the form itself still holds the input */ }
    };
    form.addEventListener("input", function (event) {
      if (event.target.classList.contains("box")) {
        boxTyped(event.target);
        moveOn(event.target);
      }
      keepRetyping();
    });
    form.addEventListener("change", keepRetyping);
    form.addEventListener("submit", function () {
      try { if (retypeKey) localStorage.removeItem(retypeKey); } catch (error) { /* ignore */ }
    });
    const fromServer = [...form.querySelectorAll("input.box[data-deal], select")].some(function (field) {
      return field.tagName === "SELECT" ? field.querySelector("option[selected]:not([value=''])") !== null : field.defaultValue !== "";
    });
    let kept = null;
    try { kept = retypeKey ? JSON.parse(localStorage.getItem(retypeKey) || "null") : null; } catch (error) { kept = null; }
    if (fromServer) {
      keepRetyping();
    } else if (kept && Array.isArray(kept.fields) && kept.fields.length) {
      kept.fields.forEach(function (pair) {
        const field = form.elements.namedItem(pair[0]);
        if (!field || field.type === "hidden") return;
        if (field.type === "checkbox") field.checked = true; else field.value = pair[1];
      });
      setSync("dirty", M.retype_restored);
    }
    hintAll();
    form.dataset.ready = "1";
    return;
  }

  /* ---- what may be sent without asking ---- */

  function readyToAutosave() {
    if (state.conflict || state.blocked || state.refused) return false;
    // A photo's reading waits to be checked (static/sheet_photo.js): only the Save button counts it.
    if (config.photo && !state.photoDone) return false;
    for (const spec of config.deals) {
      let bids = 0;
      let tricks = 0;
      for (let seat = 0; seat < nSeats; seat++) {
        if (digit(box(spec.deal, seat, "bid")) !== null) bids += 1;
        if (digit(box(spec.deal, seat, "tricks")) !== null) tricks += 1;
      }
      // Tricks go in for everyone at once, after every bid: wait until they are all typed.
      if (tricks > 0 && (tricks < nSeats || bids < nSeats)) return false;
    }
    const fresh = penaltiesNode.querySelector("tr.penalty-new");
    if (fresh) {
      const chosen = [...fresh.querySelectorAll("select")].filter(function (s) { return s.value !== ""; });
      if (chosen.length === 1) return false;
    }
    return true;
  }

  /* ---- the queue ---- */

  const state = {
    acked: Number(form.elements.base_version.value),
    inflight: null, dirty: false, sending: false, again: false,
    blocked: false, conflict: false, conflictVersion: null, offline: false, refused: false,
    held: false,
    draftSeen: config.draftSeen || "",  // the server's draft this page shows (merged, not replaced)
    retries: 0, retryTimer: null, saveTimer: null,
    edits: 0,  // changes typed or chosen here: an idle poll's answer yields to any of them
  };

  function snapshot() {
    const fields = [];
    new FormData(form).forEach(function (value, name) { if (!SKIP.has(name)) fields.push([name, value]); });
    return fields;
  }

  function persist() {
    try {
      localStorage.setItem(config.storageKey, JSON.stringify({
        acked: state.acked, inflight: state.inflight, dirty: state.dirty, held: state.held,
        draftSeen: state.draftSeen,
        fields: snapshot(), at: Date.now(),
      }));
    } catch (error) { /* storage full or disabled: the form itself still holds the input */ }
  }
  function forget() { try { localStorage.removeItem(config.storageKey); } catch (error) { /* ignore */ } }

  function uuid4() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);  // crypto.randomUUID needs HTTPS; this works on plain http too
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = Array.from(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  // The cookie's token, not the page's: signing in again (in another tab) changes it, and the
  // waiting input must still go out without reloading the page.
  function csrfToken() {
    const cookie = document.cookie.split("; ").find(function (c) { return c.startsWith("csrftoken="); });
    return cookie ? decodeURIComponent(cookie.slice("csrftoken=".length)) : form.elements.csrfmiddlewaretoken.value;
  }

  function setSync(name, text) {
    sync.dataset.state = name;
    syncText.textContent = text;
    announce("sync");
  }

  function scheduleAutosave() {
    clearTimeout(state.saveTimer);
    state.saveTimer = setTimeout(function () { if (readyToAutosave()) flush(false); }, AUTOSAVE_MS);
  }

  function scheduleRetry() {
    clearTimeout(state.retryTimer);
    const wait = Math.min(2000 * Math.pow(2, state.retries), 15000);
    state.retries += 1;
    state.retryTimer = setTimeout(function () { flush(false); }, wait);
  }

  // Send what is waiting: the submission in the air first (same key), else what was typed.
  // ``explicit``: the Save button, which also sends a deal whose tricks are not all typed.
  function flush(explicit) {
    clearTimeout(state.retryTimer);
    if (state.refused) return;
    if (state.sending) {
      if (explicit) state.again = true;  // after the answer; autosave reschedules itself
      return;
    }
    if (!state.inflight) {
      if (!state.dirty || (!explicit && !readyToAutosave())) return;
      state.inflight = {fields: snapshot(), key: uuid4(), base: state.acked, draft: state.draftSeen};
      state.dirty = false;
      persist();
    }
    send(state.inflight);
  }

  async function send(submission) {
    state.sending = true;
    if (!state.offline) setSync("saving", M.saving);
    const body = new URLSearchParams();
    submission.fields.forEach(function (pair) { body.append(pair[0], pair[1]); });
    body.append("base_version", submission.base);
    body.append("idempotency_key", submission.key);
    body.append("draft_seen", submission.draft || "");
    body.append("csrfmiddlewaretoken", csrfToken());
    let response;
    let data = null;
    try {
      if (navigator.onLine === false) throw new Error("offline");
      const abort = new AbortController();
      const timer = setTimeout(function () { abort.abort(); }, 20000);
      response = await fetch(form.getAttribute("action") || window.location.href, {
        method: "POST", body: body, credentials: "same-origin", signal: abort.signal,
        headers: {"X-Requested-With": "XMLHttpRequest", "Accept": "application/json"},
      });
      clearTimeout(timer);
    } catch (error) {
      return failed("offline", M.offline);
    }
    const type = response.headers.get("Content-Type") || "";
    if (!type.includes("application/json")) {
      return response.redirected || response.status === 403
        ? failed("signed-out", M.signed_out)
        : failed("error", M.server_error);
    }
    try { data = await response.json(); } catch (error) { return failed("error", M.server_error); }
    state.sending = false;
    state.offline = false;
    state.retries = 0;
    // Input typed since the snapshot (while it was in the air, or offline between retries) was
    // not judged by this answer: it is never blocked by it, and goes out at once.
    const typedSince = state.dirty;
    if (data.outcome === "saved") {
      const sent = sentValues(submission);
      state.acked = data.version;
      state.draftSeen = data.draft_seen || "";
      // The save kept the photo with its version (the server says: a save that counted nothing
      // new and held the rest back leaves it waiting).
      const photoKept = Boolean(config.photo && !state.photoDone && data.photo_kept);
      if (photoKept) state.photoDone = true;
      state.inflight = null;
      state.held = data.held.length > 0 || data.held_penalties.length > 0;
      // Until the next change: sending the same again gives the same answer.
      state.blocked = state.held && !typedSince;
      applySaved(data);
      applyValues(data.values, sent, heldDeals(data.held));
      applyValues(heldValues(data.held), sent, new Set());
      showHeld(data.held, data.held_penalties);
      if (state.dirty || state.held) persist(); else forget();
      setSync(state.held ? "held" : "saved", data.status_text);
      // What the server counts, for other views (the phone's overview says per deal whether
      // its boxes are stored, in agreement with the status line).
      announce(state.held ? "problems" : "saved", {stored: data.values, photoKept: photoKept});
    } else if (data.outcome === "problems") {
      state.inflight = null;
      state.dirty = true;
      state.blocked = !typedSince;  // until the next change: sending it again gives the same answer
      persist();
      showProblems(data);
      setSync("problems", problemsText(data));
      announce("problems");
    } else if (data.outcome === "conflict") {
      const sent = sentValues(submission);
      state.inflight = null;
      state.dirty = true;
      state.conflict = true;
      state.conflictVersion = data.current_version;
      // The other side's boxes that do not conflict go in at once; the conflicting ones wait
      // for the choice.
      const clashing = new Set(data.conflicts.map(function (c) { return c.deal + ":" + c.seat + ":" + c.kind; }));
      applyValues(data.values, sent, new Set(), clashing);
      persist();
      conflictNode.innerHTML = data.html;
      setSync("conflict", M.conflict);
      conflictNode.scrollIntoView({block: "nearest"});
      announce("conflict");
    } else if (data.outcome === "refused") {
      // The server will not take this sheet from here any more (a table link that was revoked,
      // a sheet the director has confirmed): keep the input on this device and stop sending.
      state.inflight = null;
      state.dirty = true;
      state.refused = true;
      persist();
      setSync("refused", data.message);
    } else {
      return failed("error", M.server_error);
    }
    if (state.again) { state.again = false; flush(true); }
    else if (typedSince && state.dirty) {
      clearTimeout(state.saveTimer);
      if (readyToAutosave()) flush(false); else scheduleAutosave();
    }
  }

  function failed(name, text) {
    state.sending = false;
    state.again = false;
    state.offline = true;
    persist();
    setSync(name, text);
    scheduleRetry();
  }

  /* ---- answers ---- */

  function applySaved(data) {
    form.elements.base_version.value = data.version;
    problemsNode.innerHTML = "";
    conflictNode.innerHTML = "";
    data.cells.forEach(function (row, index) {
      row.forEach(function (cell, seat) {
        const td = document.getElementById("msg-" + (index + 1) + "-" + seat).parentElement;
        td.dataset.state = cell.state;
        const score = td.querySelector(".score");
        score.textContent = cell.score;
        score.dataset.penalties = cell.penalties;
      });
    });
    // data.totals: per seat, {bollen, points, correct, tournament_points} (the page's data-total).
    data.totals.forEach(function (totals, seat) {
      Object.keys(totals).forEach(function (name) {
        form.querySelector('[data-total="' + name + '"][data-seat="' + seat + '"]').textContent = totals[name];
      });
    });
    stateBadge.className = "status status-" + data.status;
    stateBadge.dataset.state = data.status;
    stateBadge.textContent = data.status_label;
    resultNode.innerHTML = data.result_html;
    // Redraw the penalty bollen as stored (with a fresh empty row) unless more is being typed.
    // data.penalties: [deal, seat] pairs, the cells' key order.
    const wanted = JSON.stringify(data.penalties);
    const edited = [...penaltiesNode.querySelectorAll("tr.penalty-new select")].some(function (s) { return s.value !== ""; })
      || penaltiesNode.querySelector("input[type=checkbox]:checked") !== null;
    const keepTyped = data.held_penalties && data.held_penalties.length > 0;
    if (!state.dirty && !keepTyped && (penaltiesNode.dataset.penalties !== wanted || edited)) {
      const focused = penaltiesNode.contains(document.activeElement);
      penaltiesNode.innerHTML = data.penalties_html;
      penaltiesNode.dataset.penalties = wanted;
      if (focused) {
        const first = penaltiesNode.querySelector("tr.penalty-new select");
        if (first) first.focus();
      }
    }
  }

  // What each box held when the submission was made: a box still like that was not touched
  // since, and may take the server's value.
  function sentValues(submission) {
    const sent = {};
    if (submission) submission.fields.forEach(function (pair) { sent[pair[0]] = pair[1]; });
    return sent;
  }

  function heldDeals(held) { return new Set(held.map(function (h) { return h.deal; })); }

  // The held deals' boxes as the server keeps them (another device's held input among them),
  // in the shape of ``values``: a row per deal, null for a deal that is not held.
  function heldValues(held) {
    const rows = config.deals.map(function () { return null; });
    held.forEach(function (item) { if (item.values) rows[item.deal - 1] = item.values; });
    return rows;
  }

  // The counted sheet's boxes (a merge brings in another device's input): into every box that
  // is not being typed in, was not changed since sending, and is not in a held deal.
  function applyValues(values, sent, held, skip) {
    if (!values) return;
    const touched = new Set();
    values.forEach(function (row, index) {
      const deal = index + 1;
      if (!row || held.has(deal)) return;
      row.forEach(function (pair, seat) {
        ["bid", "tricks"].forEach(function (kind) {
          const input = box(deal, seat, kind);
          if (!input || input === document.activeElement) return;
          if (skip && skip.has(deal + ":" + seat + ":" + kind)) return;
          if (input.name in sent && sent[input.name] !== input.value) return;
          const value = pair[kind] === null ? "" : String(pair[kind]);
          if (input.value !== value) {
            input.value = value;
            touched.add(deal);
          }
        });
      });
    });
    touched.forEach(function (deal) { clearServerMarks(deal); hintDeal(deal); });
    if (touched.size) hintOrder();
  }

  // The deals (and penalty bollen) the server did not count: their messages at their boxes,
  // marked as not saved, and listed above the sheet.
  function showHeld(held, heldPenalties) {
    config.deals.forEach(function (spec) { clearServerMarks(spec.deal); });
    form.querySelectorAll("td.cell.held, th.deal.held").forEach(function (n) { n.classList.remove("held"); });
    const lines = [];
    held.forEach(function (item) {
      item.boxes.forEach(function (b) {
        box(b.deal, b.seat, b.kind).dataset.serverInvalid = "1";
        document.getElementById("msg-" + b.deal + "-" + b.seat).appendChild(span("error server held", b.message));
      });
      const node = document.getElementById("deal-msg-" + item.deal);
      node.appendChild(span("server held-mark", M.held));
      item.deal_messages.forEach(function (text) { node.appendChild(span("error server held", text)); });
      for (let seat = 0; seat < nSeats; seat++) {
        document.getElementById("msg-" + item.deal + "-" + seat).parentElement.classList.add("held");
      }
      const head = form.querySelector('th.deal[data-deal="' + item.deal + '"]');
      if (head) head.classList.add("held");
      item.messages.forEach(function (text) { lines.push(fmt(M.deal_line, {deal: item.deal}) + " " + text); });
    });
    heldPenalties.forEach(function (item) { lines.push(item.message); });
    hintAll();
    if (!lines.length) { problemsNode.innerHTML = ""; return; }
    const section = document.createElement("section");
    section.className = "problems card held";
    const list = document.createElement("ul");
    list.className = "errorlist";
    lines.forEach(function (text) {
      const line = document.createElement("li");
      line.textContent = text;
      list.appendChild(line);
    });
    section.append(list);
    problemsNode.replaceChildren(section);
  }

  // The status line of a refused save: "see the marked boxes" when some are marked, else the
  // server's own words (a problem no box can show).
  function problemsText(data) {
    if (data.boxes.length || Object.keys(data.deals).length) return M.problems;
    const lines = data.summary.length ? data.summary : data.penalties;
    return lines.length ? fmt(M.not_saved_because, {reason: lines.join(" ")}) : M.problems;
  }

  function showProblems(data) {
    config.deals.forEach(function (spec) { clearServerMarks(spec.deal); });
    data.boxes.forEach(function (item) {
      const input = box(item.deal, item.seat, item.kind);
      input.dataset.serverInvalid = "1";
      document.getElementById("msg-" + item.deal + "-" + item.seat).appendChild(span("error server", item.message));
    });
    Object.keys(data.deals).forEach(function (deal) {
      const node = document.getElementById("deal-msg-" + deal);
      data.deals[deal].forEach(function (text) { node.appendChild(span("error server", text)); });
    });
    hintAll();
    // The status line says the sheet was not saved; the list says what is wrong and where.
    const section = document.createElement("section");
    section.className = "problems card";
    const list = document.createElement("ul");
    list.className = "errorlist";
    data.summary.concat(data.penalties).forEach(function (text) {
      const item = document.createElement("li");
      item.textContent = text;
      list.appendChild(item);
    });
    section.append(list);
    problemsNode.replaceChildren(section);
  }

  /* ---- events ---- */

  form.addEventListener("input", function (event) {
    const target = event.target;
    if (target.classList.contains("box")) boxTyped(target);
    state.edits += 1;
    state.dirty = true;
    state.blocked = false;
    persist();
    if (!state.offline && !state.conflict) setSync("dirty", M.unsaved);
    scheduleAutosave();
    announce("hints");
    if (target.classList.contains("box")) moveOn(target);
  });
  form.addEventListener("change", function (event) {
    if (event.target.tagName === "SELECT" || event.target.type === "checkbox") {
      state.edits += 1;
      state.dirty = true;
      state.blocked = false;
      persist();
      scheduleAutosave();
    }
  });

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    clearTimeout(state.saveTimer);
    const submitter = event.submitter;
    if (state.conflict && submitter && conflictNode.contains(submitter)) {
      resolveConflict(submitter.dataset.action);
    }
    state.blocked = false;
    state.dirty = true;
    flush(true);
  });

  // The conflict's choices: per box (the radio buttons), or all mine / all theirs. The chosen
  // values go into the boxes, and the sheet is saved on the version that is in the way.
  function resolveConflict(action) {
    conflictNode.querySelectorAll("tr[data-conflict]").forEach(function (row) {
      const place = row.dataset.conflict.split("-");
      const input = box(Number(place[0]), Number(place[1]), place[2]);
      const theirs = row.querySelector('input[name^="theirs-"]');
      if (!input || !theirs) return;
      const picked = row.querySelector("input[type=radio]:checked");
      const choice = action === "take-theirs" ? "theirs" : action === "keep-mine" ? "yours" : (picked ? picked.value : "yours");
      if (choice === "theirs") input.value = theirs.value;
    });
    state.conflict = false;
    state.acked = state.conflictVersion;
    conflictNode.innerHTML = "";
    config.deals.forEach(function (spec) { clearServerMarks(spec.deal); });
    hintAll();
    announce("hints");
  }

  // Leaving with input that is not saved (waiting, in the air, or held back) asks first.
  window.addEventListener("beforeunload", function (event) {
    if (state.dirty || state.inflight || state.held) {
      event.preventDefault();
      event.returnValue = M.leave;
      return M.leave;
    }
    return undefined;
  });

  /* ---- another device saves: an idle page follows ---- */

  // While nothing is typed, in the air or chosen here (and the page is seen and online), ask
  // now and then whether the sheet moved on: a GET with the tag of what this page shows
  // (If-None-Match), answered 304 while nothing changed, else the sheet in the shape of a
  // save's answer, put in place as one.
  const POLL_MS = (config.pollSeconds || 15) * 1000;
  let pollTag = null;
  function idle() {
    return !state.dirty && !state.inflight && !state.sending && !state.conflict && !state.refused
      && !(config.photo && !state.photoDone)  // the photo's reading stays in the boxes
      && document.visibilityState === "visible" && navigator.onLine !== false;
  }
  function schedulePoll() {
    setTimeout(poll, POLL_MS * (1 + Math.random() / 4));
  }
  async function poll() {
    if (!idle()) { schedulePoll(); return; }
    const typedBefore = state.edits;
    try {
      const headers = {"X-Requested-With": "XMLHttpRequest", "Accept": "application/json"};
      if (pollTag) headers["If-None-Match"] = pollTag;
      const response = await fetch(window.location.pathname + "?state=" + state.acked, {
        credentials: "same-origin", headers: headers, cache: "no-store",
      });
      const tag = response.headers.get("ETag");
      if (response.status === 200 && (response.headers.get("Content-Type") || "").includes("application/json")) {
        const data = await response.json();
        // Only if nothing happened here meanwhile: a save of this page answers for itself.
        if (data.outcome === "state" && idle() && state.edits === typedBefore && data.version >= state.acked) {
          pollTag = tag;
          putInPlace(data);
        }
      } else if (response.status === 304) {
        pollTag = tag || pollTag;
      }
    } catch (error) { /* no connection: the next round asks again */ }
    schedulePoll();
  }
  function putInPlace(data) {
    const shown = {};
    snapshot().forEach(function (pair) { shown[pair[0]] = pair[1]; });
    state.acked = data.version;
    state.draftSeen = data.draft_seen || "";
    state.held = data.held.length > 0 || data.held_penalties.length > 0;
    state.blocked = state.held;
    applySaved(data);
    applyValues(data.values, shown, heldDeals(data.held));
    applyValues(heldValues(data.held), shown, new Set());
    showHeld(data.held, data.held_penalties);
    if (state.held) persist(); else forget();
    setSync(state.held ? "held" : data.version ? "saved" : "idle", data.status_text);
    announce(state.held ? "problems" : "saved", {stored: data.values});
  }
  if (!config.plain && config.pollSeconds !== 0) schedulePoll();

  window.addEventListener("online", function () { state.retries = 0; flush(false); });
  window.addEventListener("focus", function () { if (state.inflight) flush(false); });

  /* ---- start: put back what this device typed but did not get saved ---- */

  penaltiesNode.dataset.penalties = penaltiesNode.dataset.penalties || "[]";
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem(config.storageKey) || "null"); } catch (error) { kept = null; }
  if (kept && (kept.inflight || kept.dirty || kept.held)) {
    form.querySelectorAll("input[type=checkbox]").forEach(function (c) { c.checked = false; });
    kept.fields.forEach(function (pair) {
      const field = form.elements.namedItem(pair[0]);
      if (!field || field.type === "hidden") return;
      if (field.type === "checkbox") field.checked = true; else field.value = pair[1];
    });
    state.acked = kept.acked;
    state.draftSeen = kept.draftSeen || "";
    state.inflight = kept.inflight;
    state.dirty = kept.dirty || Boolean(kept.held);
    hintAll();
    setSync("dirty", M.restored_local);
    flush(true);
  } else {
    forget();
    hintAll();
    if (config.held) {
      // Input held back at the last save (from any device) is back in its boxes.
      state.held = true;
      state.blocked = true;
      showHeld(config.held.deals, config.held.penalties);
      setSync("held", config.statusText);
      announce("problems");
    }
    if (config.photo) setSync("held", config.photo.messages.waiting);
  }

  // On a phone the grid scrolls sideways: start at the first deal that is not finished.
  if (config.scrollToOpen) {
    const open = config.deals.find(function (spec) {
      for (let seat = 0; seat < nSeats; seat++) {
        if (digit(box(spec.deal, seat, "tricks")) === null) return true;
      }
      return false;
    });
    const head = open && open.deal > 1 && form.querySelector('th.deal[data-deal="' + open.deal + '"]');
    if (head) head.scrollIntoView({inline: "center", block: "nearest"});
  }

  // Digits typed before this script ran (a slow phone, a quick hand): hinted and sent like any
  // other input, so that nothing (a later poll of the sheet) takes them for untouched boxes.
  const early = [...form.querySelectorAll("input.box[data-deal]")].filter(function (input) {
    return input.value !== input.defaultValue;
  });
  if (early.length) {
    early.forEach(boxTyped);
    state.dirty = true;
    state.blocked = false;
    persist();
    setSync("dirty", M.unsaved);
    scheduleAutosave();
  }
  form.dataset.ready = "1";  // the tests wait for this before typing
})();
