/* The score sheet deal by deal on a phone: a layer on the grid's form (sheet.js).
 *
 * On a narrow screen the table link shows one deal at a time (its hand size, kind and dealer,
 * the players in bidding order with a button per bid and per number of tricks), the totals in a
 * strip and an overview of the eleven deals. The grid's boxes stay in the form, hidden: a tap
 * sets a box and sends it an "input" event, so sheet.js hints and saves as if it were typed.
 * What the scorer reads is the grid's own: the messages at the boxes (#msg-D-S, #deal-msg-D),
 * the totals the server computed ([data-total][data-seat], by name) and the status line (#sync).
 * The rules it tells (the dealer's forbidden bid) are the grid's: static/sheet_rules.js.
 *
 * Whether a deal is saved: the boxes as the page came from the server are stored; from then on,
 * each save's answer says what the server counts (the ``bollen:sheet`` event's detail.stored),
 * so the overview agrees with the status line, whatever the connection did in between.
 *
 * Re-typing the paper form to confirm it (config.plain) is tapped in the same way, into a blank
 * sheet that is sent as a whole: the overview says which deals are typed, and there are no
 * totals (nothing is counted until the comparison).
 */
(function () {
  "use strict";

  const section = document.getElementById("phone-sheet");
  const form = document.getElementById("sheet-form");
  const configNode = document.getElementById("sheet-config");
  if (!section || !form || !configNode) return;
  const config = JSON.parse(configNode.textContent);
  if (!config.phone || !config.players) return;
  const P = config.phone;
  const retyping = Boolean(config.plain);
  const M = config.messages;
  const players = config.players;
  const seats = [...Array(players.length).keys()];
  const narrow = window.matchMedia("(max-width: 699px)");
  const sync = document.getElementById("sync");

  const dealNode = document.getElementById("phone-deal");
  const title = document.getElementById("phone-deal-title");
  const kindNode = section.querySelector(".phone-kind");
  const dealerNode = section.querySelector(".phone-dealer");
  const bidRows = section.querySelector('.phone-players[data-kind="bid"]');
  const tricksRows = section.querySelector('.phone-players[data-kind="tricks"]');
  const sumNode = section.querySelector(".phone-sum");
  const dealMsgNode = section.querySelector(".phone-deal-msg");
  const previousButton = section.querySelector('[data-move="previous"]');
  const nextButton = section.querySelector('[data-move="next"]');
  const clearAsk = section.querySelector('[data-move="clear-ask"]');
  const clearConfirm = section.querySelector(".phone-clear-confirm");
  const clearQuestion = document.getElementById("phone-clear-question");
  const clearLater = section.querySelector(".phone-clear-later");
  const clearedNode = section.querySelector(".phone-cleared");
  const overview = section.querySelector(".phone-deals");
  const totalsNode = section.querySelector(".phone-totals");
  const totalsList = totalsNode.querySelector("ul");
  const firstDealer = document.getElementById("phone-first-dealer");

  form.before(section);  // under the status line, above the (hidden) grid

  function fmt(template, params) {
    return template.replace(/%\((\w+)\)s/g, function (all, name) {
      return name in params ? String(params[name]) : all;
    });
  }
  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function spec(deal) { return config.deals[deal - 1]; }
  function box(deal, seat, kind) {
    return form.querySelector('input.box[data-deal="' + deal + '"][data-seat="' + seat + '"][data-kind="' + kind + '"]');
  }
  function digit(text) { return /^[0-9]$/.test(text) ? Number(text) : null; }
  function values(deal, kind) { return seats.map(function (seat) { return digit(box(deal, seat, kind).value); }); }
  function filled(list) { return list.every(function (v) { return v !== null; }); }
  function complete(deal) { return filled(values(deal, "bid")) && filled(values(deal, "tricks")); }
  function sum(list) { return list.reduce(function (a, b) { return a + (b || 0); }, 0); }

  /* ---- what the server has ---- */

  // A deal's boxes as one string: "bids|tricks", from the form now or as the page came.
  function dealKey(deal, attribute) {
    return ["bid", "tricks"].map(function (kind) {
      return seats.map(function (seat) { return box(deal, seat, kind)[attribute]; }).join(",");
    }).join("|");
  }
  function formKeys() {
    const keys = {};
    config.deals.forEach(function (d) { keys[d.deal] = dealKey(d.deal, "value"); });
    return keys;
  }
  const stored = {};
  config.deals.forEach(function (d) { stored[d.deal] = dealKey(d.deal, "defaultValue"); });

  // The counted sheet's boxes as the server answered them (a row per deal, per seat
  // {bid, tricks}), in the shape of dealKey.
  function storedKey(row) {
    return ["bid", "tricks"].map(function (kind) {
      return seats.map(function (seat) {
        const value = row && row[seat] ? row[seat][kind] : null;
        return value === null || value === undefined ? "" : String(value);
      }).join(",");
    }).join("|");
  }

  function messages(node, selector) {
    return node ? [...node.querySelectorAll(selector)].map(function (n) { return n.textContent; }) : [];
  }
  // A seat's messages in a deal; with ``kind``, those of that box: a message the server put at
  // the tricks box goes with the tricks, every other one with the bid.
  function seatErrors(deal, seat, kind) {
    const selector = kind === "tricks" ? '.error[data-kind="tricks"]' : kind === "bid" ? '.error:not([data-kind="tricks"])' : ".error";
    return messages(document.getElementById("msg-" + deal + "-" + seat), selector);
  }
  function dealErrors(deal) { return messages(document.getElementById("deal-msg-" + deal), ".error"); }
  function hasProblem(deal) {
    return dealErrors(deal).length > 0 || seats.some(function (seat) { return seatErrors(deal, seat).length > 0; });
  }

  // saved, held (input on this device the server does not have yet), problem or open; while
  // re-typing: typed, started, problem or open.
  function dealState(deal) {
    if (hasProblem(deal)) return "problem";
    if (retyping) return complete(deal) ? "typed" : typed(deal) ? "started" : "open";
    if (dealKey(deal, "value") !== stored[deal]) return "held";
    return complete(deal) ? "saved" : "open";
  }
  // The deal to open: the first one held back (a problem, or input the server does not have)
  // or not complete.
  function inPlay() {
    const done = retyping ? "typed" : "saved";
    const open = config.deals.find(function (d) { return !complete(d.deal) || dealState(d.deal) !== done; });
    return open ? open.deal : config.deals.length;
  }

  /* ---- the deal on screen ---- */

  let shown = inPlay();
  let built = null;  // the deal whose buttons are drawn

  // The dealer's forbidden bid by the rules the grid hints with (static/sheet_rules.js).
  function dealerBid(deal) { return window.BollenRules.dealerBid(spec(deal).hand, spec(deal).order, values(deal, "bid")); }

  function build(deal) {
    const d = spec(deal);
    const dealer = d.order[d.order.length - 1];
    [[bidRows, "bid", P.bid_button], [tricksRows, "tricks", P.tricks_button]].forEach(function (part) {
      const rows = part[0];
      rows.replaceChildren();
      d.order.forEach(function (seat) {
        const name = players[seat];
        const row = el("div", "phone-player");
        row.dataset.seat = seat;
        const head = el("p", "phone-name");
        head.append(el("span", "phone-who", name));
        if (seat === dealer) head.append(el("span", "phone-tag", P.dealer_tag));
        if (part[1] === "bid") head.append(el("span", "phone-tag phone-turn", P.turn));
        else head.append(el("span", "phone-bid-was"));
        const taps = el("div", "phone-taps");
        for (let n = 0; n <= d.hand; n++) {
          const button = el("button", "phone-tap", String(n));
          button.type = "button";
          button.dataset.deal = deal;
          button.dataset.seat = seat;
          button.dataset.kind = part[1];
          button.dataset.value = n;
          button.setAttribute("aria-label", fmt(part[2], {name: name, n: n}));
          button.setAttribute("aria-pressed", "false");
          taps.append(button);
        }
        row.append(head, taps, el("p", "phone-msg"));
        rows.append(row);
      });
    });
    built = deal;
  }

  // ``dealerRule``: the dealer's forbidden bid (dealerBid) on the bid rows, null on the tricks.
  function drawRows(deal, kind, rows, dealerRule) {
    const d = spec(deal);
    const dealer = d.order[d.order.length - 1];
    const forbidden = dealerRule ? dealerRule.forbidden : null;
    const chosen = values(deal, kind);
    const bids = values(deal, "bid");
    const turn = kind === "bid" ? d.order.find(function (seat) { return bids[seat] === null; }) : undefined;
    rows.querySelectorAll(".phone-player").forEach(function (row) {
      const seat = Number(row.dataset.seat);
      row.classList.toggle("phone-next", seat === turn);
      row.querySelectorAll(".phone-tap").forEach(function (button) {
        const n = Number(button.dataset.value);
        button.setAttribute("aria-pressed", String(chosen[seat] === n));
        button.disabled = kind === "bid" && seat === dealer && n === forbidden;
      });
      const bidWas = row.querySelector(".phone-bid-was");
      if (bidWas) bidWas.textContent = bids[seat] === null ? "" : fmt(P.bid_was, {n: bids[seat]});
      const notes = seatErrors(deal, seat, kind);
      const msg = row.querySelector(".phone-msg");
      msg.replaceChildren();
      if (kind === "bid" && seat === dealer && dealerRule.hint !== null) {
        msg.append(el("span", "phone-hint", fmt(M.forbidden, {bid: dealerRule.hint})));
      }
      notes.forEach(function (text) { msg.append(el("span", "phone-error", text)); });
      row.classList.toggle("phone-invalid", notes.length > 0);
    });
  }

  function drawDeal() {
    const deal = shown;
    const d = spec(deal);
    if (built !== deal) build(deal);
    title.textContent = fmt(P.deal, {number: deal, label: d.label}) + " · " + P.cards[d.hand];
    kindNode.textContent = d.kind;
    dealerNode.textContent = fmt(P.dealer, {name: players[d.order[d.order.length - 1]]});
    drawRows(deal, "bid", bidRows, dealerBid(deal));

    const tricks = values(deal, "tricks");
    const allBids = filled(values(deal, "bid"));
    const anyTricks = tricks.some(function (v) { return v !== null; });
    tricksRows.hidden = !allBids && !anyTricks;
    drawRows(deal, "tricks", tricksRows, null);
    const total = sum(tricks);
    if (tricksRows.hidden) sumNode.textContent = P.bids_first;
    else if (total > d.hand) sumNode.textContent = fmt(P.tricks_over, {sum: total, hand: d.hand, over: total - d.hand});
    else if (filled(tricks) && total === d.hand) sumNode.textContent = fmt(P.tricks_done, {sum: total, hand: d.hand});
    else sumNode.textContent = fmt(P.tricks_left, {sum: total, hand: d.hand, left: d.hand - total});
    sumNode.classList.toggle("phone-over", total > d.hand || (filled(tricks) && total !== d.hand));
    // The deal's own messages (the tricks do not add up); a seat's are at its bid.
    dealMsgNode.replaceChildren(...dealErrors(deal).map(function (text) { return el("p", "phone-error", text); }));

    previousButton.disabled = deal <= 1;
    nextButton.hidden = deal >= config.deals.length;
    nextButton.disabled = !complete(deal) || hasProblem(deal);
    drawClear(deal);
  }

  function drawOverview() {
    const playing = inPlay();
    if (overview.children.length !== config.deals.length) {
      overview.replaceChildren(...config.deals.map(function (d) {
        const item = el("li");
        const button = el("button", "phone-jump");
        button.type = "button";
        button.dataset.deal = d.deal;
        button.append(el("span", "phone-jump-deal", fmt(P.deal, {number: d.deal, label: d.label})),
          el("span", "phone-jump-state"));
        item.append(button);
        return item;
      }));
    }
    overview.querySelectorAll(".phone-jump").forEach(function (button) {
      const deal = Number(button.dataset.deal);
      const state = dealState(deal);
      const words = retyping && state === "open" ? P.to_type : state === "open" && deal === playing ? P.current : P[state];
      button.dataset.state = state;
      button.querySelector(".phone-jump-state").textContent = words;
      if (deal === shown) button.setAttribute("aria-current", "step"); else button.removeAttribute("aria-current");
    });
  }

  function drawTotals() {
    if (retyping) {  // nothing is counted while re-typing: no totals to show
      totalsNode.hidden = true;
      reserveBar();
      if (sync) document.body.style.setProperty("--phone-sync-height", sync.offsetHeight + "px");
      return;
    }
    if (totalsList.children.length !== players.length) {
      totalsList.replaceChildren(...players.map(function (name, seat) {
        const item = el("li");
        item.dataset.seat = seat;
        item.append(el("span", "phone-total-name", name), el("span", "phone-total-points"));
        return item;
      }));
    }
    totalsList.querySelectorAll("li").forEach(function (item) {
      const cell = form.querySelector('[data-total="tournament_points"][data-seat="' + item.dataset.seat + '"]');
      const text = cell ? cell.textContent.trim() : "";
      item.querySelector(".phone-total-points").textContent = text || "\u2013";
    });
    // The totals are the server's: while input here is not stored they are those of the last
    // save, and say so.
    const note = section.querySelector(".phone-totals-note");
    if (note) note.hidden = !config.deals.some(function (d) { return dealState(d.deal) === "held"; });
    reserveBar();
    // The sticky status line's height: what scrolling to a deal or to its tricks keeps clear.
    if (sync) document.body.style.setProperty("--phone-sync-height", sync.offsetHeight + "px");
  }

  function drawFirstDealer() {
    const question = config.firstDealer;
    // The question is on the page only while the table has not said who deals first.
    const ask = Boolean(firstDealer && question && question.needed) && !values(1, "bid").some(function (v) { return v !== null; });
    if (firstDealer) firstDealer.hidden = !ask;
    dealNode.hidden = ask;
    if (!ask || firstDealer.querySelector(".phone-choice")) return;
    const choices = firstDealer.querySelector(".phone-choices");
    choices.replaceChildren(...question.players.map(function (name, seat) {
      const button = el("button", "phone-choice", name);
      button.type = "button";
      button.dataset.seat = seat;
      return button;
    }));
  }

  // The totals strip is fixed along the bottom and as tall as its names make it (five long ones
  // take three or four lines): the page keeps that much free under its end (the body's padding)
  // and scrolling keeps what it brings into view above the strip (the root's scroll-padding),
  // both from --phone-totals-height, kept at the strip's real height as it changes.
  function reserveBar() {
    const height = section.hidden || totalsNode.hidden ? 0 : Math.ceil(totalsNode.getBoundingClientRect().height);
    document.documentElement.style.setProperty("--phone-totals-height", height + "px");
  }
  // The row to tap next in the deal on screen: whose turn it is to bid, else the first one
  // without its tricks.
  function nextRow() {
    if (dealNode.hidden) return null;
    const bidder = bidRows.querySelector(".phone-next");
    if (bidder || tricksRows.hidden) return bidder;
    return [...tricksRows.querySelectorAll(".phone-player")].find(function (row) {
      return !row.querySelector('.phone-tap[aria-pressed="true"]');
    }) || null;
  }

  // After a reload: the deal stays at the top of the screen while the page settles (the saved
  // answer to the input put back, the status line growing), until the scorer touches the page.
  // Until then too, the row to tap first stays in full view, clear of the strip at the bottom.
  let pinned = false;
  let opening = true;
  ["pointerdown", "touchstart", "keydown", "wheel"].forEach(function (type) {
    window.addEventListener(type, function () { pinned = false; opening = false; }, {passive: true, capture: true});
  });
  function settle() {
    if (section.hidden) return;
    if (pinned && !dealNode.hidden) dealNode.scrollIntoView({block: "start"});
    const row = opening ? nextRow() : null;
    if (row) row.scrollIntoView({block: "nearest"});
  }
  // The status line grows and shrinks with its words: keep what scrolling keeps clear in step,
  // and a pinned deal's top under it. The strip along the bottom: what the page keeps free.
  if ("ResizeObserver" in window) {
    if (sync) {
      new ResizeObserver(function () {
        document.body.style.setProperty("--phone-sync-height", sync.offsetHeight + "px");
        settle();
      }).observe(sync);
    }
    new ResizeObserver(function () { reserveBar(); settle(); }).observe(totalsNode);
  }

  // All eleven deals stored: the next step in words, and each player's total, bollen and
  // correct bids (the grid's totals as the server computed them).
  const doneNode = document.getElementById("phone-done");
  let wasDone = null;
  function drawDone() {
    if (!doneNode || retyping) return;
    const done = config.deals.every(function (d) { return complete(d.deal) && dealState(d.deal) === "saved"; });
    doneNode.hidden = !done;
    if (done) {
      doneNode.querySelector(".phone-done-text").textContent = P.done;
      const body = doneNode.querySelector("tbody");
      body.replaceChildren(...players.map(function (name, seat) {
        const row = el("tr");
        const head = el("th", "phone-done-name", name);
        head.scope = "row";
        row.append(head);
        ["tournament_points", "bollen", "correct"].forEach(function (name) {
          const cell = form.querySelector('[data-total="' + name + '"][data-seat="' + seat + '"]');
          row.append(el("td", "num", cell ? cell.textContent.trim() : ""));
        });
        return row;
      }));
      // Once, when the last deal is saved here (not when the page opens on a finished sheet).
      if (wasDone === false) doneNode.scrollIntoView({block: "start"});
    }
    wasDone = done;
  }

  function redraw() {
    if (section.hidden) return;
    drawDone();
    drawFirstDealer();
    drawDeal();
    drawOverview();
    drawTotals();
    if (pinned || opening) settle();
  }

  // A deal tapped by mistake (the wrong deal, tricks of a deal not played) is cleared as a
  // whole, after a second tap that names it: "clear" on the grid's boxes, saved like any input.
  // Only the last deal with input: with a later deal typed, the deals would no longer be in
  // order, and the server would keep the cleared deal as it was.
  let clearing = null;
  function editable(deal) {
    return ["bid", "tricks"].flatMap(function (kind) {
      return seats.map(function (seat) { return box(deal, seat, kind); });
    }).filter(function (input) { return input && !input.disabled; });
  }
  function typed(deal) {
    return editable(deal).some(function (input) { return input.value !== ""; });
  }
  let cleared = null;  // the deal just cleared, said until the next tap
  function drawClear(deal) {
    const later = config.deals.filter(function (d) { return d.deal > deal && typed(d.deal); });
    const can = typed(deal) && later.length === 0;
    if (!can) clearing = null;
    clearAsk.hidden = !can || clearing === deal;
    clearConfirm.hidden = clearing !== deal;
    clearLater.hidden = !typed(deal) || later.length === 0;
    if (!clearLater.hidden) {
      clearLater.textContent = fmt(P.clear_later_first, {number: later[later.length - 1].deal});
    }
    clearedNode.textContent = cleared === deal ? fmt(P.cleared, {number: deal}) : "";
    // A saved deal counts: say so before it goes.
    const counted = !retyping && complete(deal) && dealState(deal) === "saved";
    clearQuestion.textContent = fmt(counted ? P.clear_saved_question : P.clear_question, {number: deal});
  }
  function clearDeal(deal) {
    editable(deal).forEach(function (input) {
      if (input.value === "") return;
      input.value = "";
      input.dispatchEvent(new Event("input", {bubbles: true}));
    });
    clearing = null;
    cleared = deal;
    redraw();
    title.focus({preventScroll: true});
    pinned = true;  // the status line's words change with the save: keep the deal's top in view
    dealNode.scrollIntoView({block: "start"});
  }

  let pending = false;
  function redrawSoon() {
    if (pending) return;
    pending = true;
    Promise.resolve().then(function () { pending = false; redraw(); });
  }

  /* ---- taps ---- */

  function tap(button) {
    const input = box(button.dataset.deal, button.dataset.seat, button.dataset.kind);
    if (!input || input.disabled) return;
    cleared = null;
    const deal = Number(button.dataset.deal);
    const bidsBefore = filled(values(deal, "bid"));
    const completeBefore = complete(deal);
    // A chosen value tapped again stays chosen: a scorer checking a row taps what is there.
    // Taking input back is "clear this deal".
    input.value = button.dataset.value;
    input.dispatchEvent(new Event("input", {bubbles: true}));
    redraw();
    // Lead the eye on: to the tricks once everyone has bid, to "next deal" once it is complete.
    if (!bidsBefore && filled(values(deal, "bid"))) tricksRows.parentElement.scrollIntoView({block: "start"});
    else if (!completeBefore && complete(deal)) nextButton.parentElement.scrollIntoView({block: "nearest"});
  }

  function show(deal, focus) {
    shown = Math.max(1, Math.min(config.deals.length, deal));
    clearing = null;
    cleared = null;
    redraw();
    if (focus) {
      title.focus({preventScroll: true});
      dealNode.scrollIntoView({block: "start"});
    }
  }

  section.addEventListener("click", function (event) {
    const target = event.target.closest("button");
    if (!target || target.disabled) return;
    if (target.classList.contains("phone-tap")) tap(target);
    else if (target.classList.contains("phone-jump")) show(Number(target.dataset.deal), true);
    else if (target.dataset.move === "next") show(shown + 1, true);
    else if (target.dataset.move === "previous") show(shown - 1, true);
    else if (target.classList.contains("phone-choice")) chooseFirstDealer(target);
    else if (target.dataset.move === "clear-ask") {
      clearing = shown;
      redraw();
      // Above the totals strip, which covers the bottom of a small phone.
      clearConfirm.scrollIntoView({block: "nearest"});
      clearConfirm.querySelector('[data-move="clear-no"]').focus({preventScroll: true});
    } else if (target.dataset.move === "clear-no") {
      clearing = null;
      redraw();
      clearAsk.focus();
    } else if (target.dataset.move === "clear-yes") clearDeal(shown);
  });

  async function chooseFirstDealer(button) {
    const error = firstDealer.querySelector(".phone-error");
    const body = new URLSearchParams();
    body.append("seat", button.dataset.seat);
    body.append("csrfmiddlewaretoken", form.elements.csrfmiddlewaretoken.value);
    firstDealer.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    try {
      const response = await fetch(config.firstDealer.url, {
        method: "POST", body: body, credentials: "same-origin",
        headers: {"X-Requested-With": "XMLHttpRequest"},
      });
      if (!response.ok) throw new Error(String(response.status));
      window.location.reload();
    } catch (failure) {
      error.textContent = P.first_dealer_failed;
      firstDealer.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
    }
  }

  /* ---- listening to the form ---- */

  form.addEventListener("bollen:sheet", function (event) {
    const detail = event.detail || {};
    // A save's answer says what the server counts: that is the truth.
    if (Array.isArray(detail.stored)) {
      config.deals.forEach(function (d) { stored[d.deal] = storedKey(detail.stored[d.deal - 1]); });
    }
    redrawSoon();
  });
  if (sync) {
    new MutationObserver(redrawSoon).observe(sync, {attributes: true, attributeFilter: ["data-state"],
      childList: true, subtree: true, characterData: true});
  }
  // Messages the server put at the boxes, totals after a save.
  new MutationObserver(redrawSoon).observe(form.querySelector("table.sheet") || form,
    {childList: true, subtree: true, characterData: true});

  function apply() {
    const on = narrow.matches;
    document.body.classList.toggle("phone-on", on);
    document.documentElement.classList.toggle("phone-on", on);
    section.hidden = !on;
    reserveBar();
    redraw();
  }
  narrow.addEventListener("change", apply);
  apply();
  // After a reload the phone opens at the deal to play or correct, at its top: not where the
  // browser was scrolled before (the next-deal button of the deal before).
  if (narrow.matches) {
    if ("scrollRestoration" in history) history.scrollRestoration = "manual";
    pinned = shown > 1;
    settle();
  }
})();
