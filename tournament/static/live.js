// The live public pages: the public standings, "where do I sit" and the projector poll the
// tournament's live document (live.json) with If-None-Match, and redraw in place when it
// changed. Names are written with textContent only. Without JavaScript every page is complete
// as the server renders it. The page's settings are a JSON data block (#live-config): the
// Content Security Policy runs no inline script.
(() => {
  "use strict";
  const configNode = document.getElementById("live-config");
  if (!configNode) {
    return;
  }
  const config = JSON.parse(configNode.textContent);
  const words = config.words;
  const fill = (text, values) =>
    text.replace(/%\((\w+)\)s/g, (_match, name) => String(values[name] ?? ""));
  const find = (name, root = document) => root.querySelector(`[data-live="${name}"]`);
  const status = find("status");

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) {
      node.className = className;
    }
    if (text !== undefined) {
      node.textContent = String(text);
    }
    return node;
  }

  // A name that wraps between its words only, as the pages' filter "unbroken" writes it: each
  // hyphenated part ("Bakker-van") in a span kept on one line (a browser breaks after a hyphen).
  function nameElement(tag, className, name) {
    const node = element(tag, className);
    String(name).split(" ").forEach((word, index) => {
      if (index > 0) {
        node.append(" ");
      }
      node.append(/[-\u2010\u2013/]/.test(word) ? element("span", "name-part", word) : word);
    });
    return node;
  }

  // What a list shows, cell by cell (text and classes): to tell whether a redraw changes
  // anything, whether the list was drawn by the server or by this script.
  function signature(rows) {
    return Array.from(rows, (row) =>
      Array.from(row.children, (cell) =>
        `${cell.className}:${cell.textContent.replace(/\s+/g, " ").trim()}`).join("|"),
    ).join("\n");
  }

  function replaceChildrenIfChanged(container, children) {
    if (signature(container.children) === signature(children)) {
      return false;
    }
    container.replaceChildren(...children);
    return true;
  }

  // The first of a list's items that a redraw with `children` changes (-1: none): the
  // projector turns to its page.
  function firstChange(container, children) {
    const before = signature(container.children).split("\n");
    const after = signature(children).split("\n");
    const index = after.findIndex((line, i) => line !== before[i]);
    return index < 0 && after.length !== before.length ? Math.max(0, after.length - 1) : index;
  }
  const changes = { standings: -1, places: -1 };

  // ---- the standings table (public standings, projector) ----

  function standingsRow(row) {
    const tr = element("tr");
    const name = element("td", "name");
    if (config.link_players) {
      const link = nameElement("a", "", row.name);
      link.href = config.player_url.replace("/0/", `/${row.player}/`);
      name.append(link);
    } else {
      name.append(...nameElement("span", "", row.name).childNodes);
    }
    if (row.guest) {
      name.append(" ", element("span", "muted guest-mark", `(${words.guest})`));
    }
    if (row.withdrawn) {
      name.append(" ", element("span", "muted", `(${words.withdrawn})`));
    }
    tr.append(
      element("td", "num rank", row.rank),
      name,
      element("td", row.provisional ? "num total provisional" : "num total", row.tournament_points),
      element("td", "num", row.bollen),
    );
    for (const [value, provisional] of row.per_round_cells) {
      tr.append(element("td", provisional ? "num provisional" : "num", value ?? "\u2013"));
    }
    return tr;
  }

  function drawStandings(standings) {
    const table = find("standings");
    if (!table) {
      return false;
    }
    const head = table.tHead.rows[0];
    const fixed = Array.from(head.cells).slice(0, 4);
    const headCells = [
      ...fixed,
      ...standings.rounds.map((number) => element("th", "num", fill(words.round, { number }))),
    ];
    let changed = replaceChildrenIfChanged(head, headCells);
    const rows = standings.rows.map(standingsRow);
    changes.standings = firstChange(table.tBodies[0], rows);
    changed = replaceChildrenIfChanged(table.tBodies[0], rows) || changed;
    const legend = find("legend");
    if (legend) {
      if (standings.any_provisional && !legend.textContent) {
        legend.className = "provisional-legend";
        legend.append(element("strong", "", "*"), ` ${words.legend}`);
      }
      legend.hidden = !standings.any_provisional;
    }
    return changed;
  }

  // ---- the standings' heading (public standings, projector) ----

  // The words of StandingsState.title(), from the state values of the live document.
  function standingsTitle(data) {
    const standings = data.standings;
    if (data.final) {
      return words.title_final;
    }
    const playing = standings.in_play.join(", ");
    const round = standings.after_round;
    let title;
    if (round === 0) {
      title = playing ? fill(words.title_playing, { playing }) : words.title_none;
    } else if (playing) {
      title = fill(words.title_after_playing, { round, playing });
    } else {
      title = fill(words.title_after, { round });
    }
    return standings.any_provisional ? fill(words.title_provisional, { title }) : title;
  }

  function drawTitle(data) {
    const node = find("title");
    if (!node || !words.title_final) {
      return false;
    }
    const title = standingsTitle(data);
    if (node.textContent === title) {
      return false;
    }
    node.textContent = title;
    return true;
  }

  // ---- the projector's final view: the prize winners large, no seating ----

  function drawFinal(data) {
    const section = find("podium-section");
    if (!section) {
      return false;
    }
    const rows = data.final ? data.standings.rows : [];
    const winners = rows.filter((row) => row.prize).slice(0, config.podium_rows);
    const losers = rows.filter((row) => row.loser);
    const wasFinal = document.body.classList.contains("final");
    document.body.classList.toggle("final", data.final);
    section.hidden = winners.length + losers.length === 0;
    const items = winners.map((row) => {
      const li = element("li", `place-${row.rank}`);
      li.append(
        element("span", "place", row.rank),
        nameElement("span", "who", row.name),
        element("span", "points", row.tournament_points),
      );
      return li;
    });
    let changed = replaceChildrenIfChanged(find("podium"), items);
    // "The loser: Name 7" (several when they share the last place).
    const loser = find("loser");
    if (loser) {
      const line = element("p");
      line.append(element("span", "label", words.loser));
      for (const row of losers) {
        line.append(" ", nameElement("span", "who", row.name), " ", element("span", "points", row.tournament_points));
      }
      if (loser.textContent !== line.textContent) {
        loser.replaceChildren(...line.childNodes);
        changed = true;
      }
      loser.hidden = losers.length === 0;
    }
    return changed || wasFinal !== data.final;
  }

  // The front page of a finished tournament: its prize winners (the top three when it names
  // no prizes) and the last place, as the page draws them.
  function drawHomePodium(data) {
    const list = find("home-podium");
    if (!list) {
      return false;
    }
    const rows = data.final ? data.standings.rows : [];
    let winners = rows.filter((row) => row.prize);
    if (winners.length === 0) {
      winners = rows.filter((row) => row.rank <= 3);
    }
    const shown = [
      ...winners.slice(0, config.podium_rows).map((row) => [row, row.prize ? fill(words.prize, { place: row.rank }) : ""]),
      ...rows.filter((row) => row.loser).map((row) => [row, words.loser]),
    ];
    const items = shown.map(([row, prize]) => {
      const li = element("li");
      const name = nameElement("span", "podium-name", row.name);
      if (prize) {
        name.append(" ", element("span", "muted", `\u00b7 ${prize}`));
      }
      li.append(element("span", "podium-rank", row.rank), " ", name, " ", element("span", "podium-points", row.tournament_points));
      return li;
    });
    list.hidden = items.length === 0;
    return replaceChildrenIfChanged(list, items);
  }

  // ---- the seating (projector, "where do I sit") ----

  // Every round played: the planned rounds are all complete and no round was published after
  // them (public_views.done_playing).
  function donePlaying(data) {
    const after = data.standings.after_round;
    return after >= config.rounds_planned && (data.seating.round ?? 0) <= after;
  }

  function drawScreenSeating(data) {
    const seating = data.seating;
    const section = find("seating");
    const list = find("places");
    if (!section || !list) {
      return false;
    }
    // Once the tournament is finished the final view takes the seating's place; once every
    // round is played the standings take the whole width.
    const wasHidden = section.hidden;
    section.hidden = seating.round === null || seating.finished || donePlaying(data);
    if (seating.round !== null) {
      find("seating-round").textContent = fill(words.seating_round, { number: seating.round });
    }
    const items = seating.places.map((place) => {
      const li = element("li");
      li.append(nameElement("span", "who", place.name), " ", element("span", "where", place.table));
      return li;
    });
    changes.places = firstChange(list, items);
    return replaceChildrenIfChanged(list, items) || wasHidden !== section.hidden;
  }

  function drawHomeSeating(seating) {
    const section = find("seating");
    const body = find("places");
    if (!section || !body) {
      return false;
    }
    const over = find("over");
    const wasOver = over ? !over.hidden : false;
    section.hidden = seating.round === null || seating.over;
    find("no-round").hidden = seating.round !== null || seating.over;
    if (over) {
      over.hidden = !seating.over;
      if (seating.over) {
        find("over-title").textContent = seating.finished
          ? words.finished
          : fill(words.round_over, { number: seating.round });
        find("over-text").textContent = seating.finished ? words.finished_text : words.round_over_text;
        find("over-link").textContent = seating.finished ? words.final_standings : words.standings;
      }
    }
    if (seating.round !== null) {
      find("home-round").textContent = fill(words.home_round, { number: seating.round });
    }
    const wanted = config.players === null ? null : new Set(config.players);
    const rows = seating.places
      .filter((place) => wanted === null || wanted.has(place.player))
      .map((place) => {
        const tr = element("tr");
        const name = element("td");
        const link = nameElement("a", "", place.name);
        link.href = config.player_url.replace("/0/", `/${place.player}/`);
        name.append(link);
        if (place.club) {
          name.append(" ", element("span", "muted", `\u00b7 ${place.club}`));
        }
        tr.append(name, element("td", "num big-table", place.table));
        return tr;
      });
    find("found").hidden = rows.length === 0;
    const nobody = find("nobody");
    if (nobody) {
      nobody.hidden = rows.length > 0 || config.players === null;
    }
    return replaceChildrenIfChanged(body, rows) || wasOver !== Boolean(seating.over);
  }

  // ---- the projector's pages ----

  // Each list shows what fits its window, a page at a time, "page 2 of 3" beside its title.
  // Names wrap between their words where a column is too narrow, so items differ in height:
  // the pages are made from each item's measured height.
  const panels = [];
  const MAX_COLUMNS = 6;

  // The page each item is on, the items (`heights`) filling `columns` columns of `room` pixels
  // one after the other, as the browser flows them.
  function pagesOf(heights, room, columns) {
    let page = 0;
    let column = 0;
    let used = 0;
    return heights.map((height) => {
      if (used > 0 && used + height > room) {
        column += 1;
        used = 0;
        if (column >= columns) {
          page += 1;
          column = 0;
        }
      }
      used += height;
      return page;
    });
  }

  // The pages made even: the least room a page needs for the items to keep to as many pages,
  // so that 19 rows make pages of 10 and 9, not 18 and 1 (`room` pixels give `pages` pages).
  function evenPages(heights, room, columns) {
    const count = (pageOf) => (pageOf.length ? pageOf[pageOf.length - 1] + 1 : 1);
    const pages = count(pagesOf(heights, room, columns));
    let low = 0;
    let high = room;
    while (pages > 1 && high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (count(pagesOf(heights, middle, columns)) <= pages) {
        high = middle;
      } else {
        low = middle;
      }
    }
    return { pageOf: pagesOf(heights, high, columns), room: high };
  }

  // The standings' type, as a part of its own size (--fit in screen.css): as large as the window
  // holds, up to LARGEST, so that a short list uses the screen's height; a list a little too
  // long for its window is shown smaller, down to SMALLEST, on one page rather than with its
  // last rows alone on a second one. Names stay on one line where a size no smaller than the
  // table's own (or than the window needs anyway) allows it.
  const SMALLEST = 0.8;
  const LARGEST = 1.5;

  const heightOf = (node) => node.getBoundingClientRect().height;

  // The largest size from SMALLEST to LARGEST (to a hundredth) that passes `test` (sizes that
  // pass it are all smaller than sizes that fail it); null: none does.
  function largestPassing(test) {
    if (!test(SMALLEST)) {
      return null;
    }
    if (test(LARGEST)) {
      return LARGEST;
    }
    let low = SMALLEST;
    let high = LARGEST;
    while (high - low > 0.01) {
      const middle = (low + high) / 2;
      if (test(middle)) {
        low = middle;
      } else {
        high = middle;
      }
    }
    return Math.max(SMALLEST, Math.floor(low * 100) / 100);
  }

  function standingsPanel() {
    const table = find("standings");
    const head = table.tHead.rows[0];
    return {
      section: table.closest("section"),
      items: () => Array.from(table.tBodies[0].rows),
      reset() {
        table.style.tableLayout = "";
        table.style.removeProperty("--fit");
        for (const cell of head.cells) {
          cell.style.width = "";
        }
      },
      fit(box, room) {
        // Measured at each size tried: a name that wraps at one size may fit on one line at
        // a smaller one, and rows are as high as their names' lines.
        const sized = (fit) => {
          table.style.setProperty("--fit", String(fit));
          return box.scrollHeight <= room + 1 && box.scrollWidth <= box.clientWidth + 1;
        };
        const oneLine = () => {
          const names = Array.from(table.tBodies[0].rows, (row) => row.cells[1]);
          const size = names.length ? parseFloat(getComputedStyle(names[0]).fontSize) : 0;
          return names.every((cell) => heightOf(cell) < 2 * size);
        };
        const any = largestPassing(sized);
        const whole = largestPassing((fit) => sized(fit) && oneLine());
        const fit = whole !== null && whole >= Math.min(1, any) ? whole : any;
        if (fit === null) {
          table.style.removeProperty("--fit"); // too long at any size: pages, at its own size
        } else {
          table.style.setProperty("--fit", String(fit));
        }
      },
      measure(items, room) {
        // The columns as wide as with every row shown, and kept so while a page shows some of
        // them: each row is as high on its page as measured here.
        const widths = Array.from(head.cells, (cell) => cell.getBoundingClientRect().width);
        Array.from(head.cells).forEach((cell, index) => {
          cell.style.width = `${widths[index]}px`;
        });
        table.style.tableLayout = "fixed";
        // A pixel to spare: the browser's rounding must not push a row below the window.
        return evenPages(items.map(heightOf), room - heightOf(table.tHead) - 2, 1).pageOf;
      },
    };
  }

  function seatingPanel() {
    const list = find("places");
    return {
      section: list.closest("section"),
      items: () => Array.from(list.children),
      reset() {
        list.style.height = "";
        list.style.setProperty("--columns", "1");
      },
      measure(items, room) {
        // The fewest pages; of those, the fewest columns (the widest: the most names on one
        // line); never columns narrower than a name's longest part.
        list.style.height = `${room}px`;
        let best = null;
        for (let columns = 1; columns <= MAX_COLUMNS; columns += 1) {
          list.style.setProperty("--columns", String(columns));
          if (columns > 1 && items.some((item) => item.scrollWidth > item.clientWidth + 1)) {
            break;
          }
          const pageOf = pagesOf(items.map(heightOf), room - 2, columns);
          const pages = pageOf.length ? pageOf[pageOf.length - 1] + 1 : 1;
          if (best === null || pages < best.pages) {
            best = { columns, pages, pageOf };
          }
          if (pages === 1) {
            break;
          }
        }
        list.style.setProperty("--columns", String(best.columns));
        // The columns of a page as long as the even pages need: the browser fills them so.
        const even = evenPages(items.map(heightOf), room - 2, best.columns);
        list.style.height = `${even.room + 2}px`;
        return even.pageOf;
      },
    };
  }

  function layout(panel, again = false) {
    const items = panel.items();
    for (const item of items) {
      item.hidden = false;
    }
    panel.reset();
    // Everything fits (or the window grows with what it shows, on a phone): one page.
    const box = panel.section.querySelector(".screen-window");
    const room = box.clientHeight;
    // The page is one screen (not on a phone, where it scrolls): the type fills the window.
    if (panel.fit && getComputedStyle(document.body).overflowY === "hidden") {
      panel.fit(box, room);
    }
    panel.pageOf = box.scrollHeight <= room + 1 ? items.map(() => 0) : panel.measure(items, room);
    panel.pages = panel.pageOf.length ? panel.pageOf[panel.pageOf.length - 1] + 1 : 1;
    panel.page = Math.min(panel.page || 0, panel.pages - 1);
    draw(panel);
    // "Page 1 of 2" beside the title may take it onto a second line, the window lower.
    if (!again && box.clientHeight < room - 1) {
      layout(panel, true);
    }
  }

  function draw(panel) {
    panel.items().forEach((item, index) => {
      item.hidden = panel.pageOf[index] !== panel.page;
    });
    find("pager", panel.section).textContent =
      panel.pages > 1 ? fill(words.page, { page: panel.page + 1, pages: panel.pages }) : "";
  }

  function turn(panel, page) {
    panel.page = page;
    panel.shownAt = Date.now();
    panel.wanted = null;
    draw(panel);
  }

  function layoutAll() {
    for (const panel of panels) {
      if (!panel.section.hidden) {
        layout(panel);
      }
    }
  }

  // After a redraw: a list whose change is on a page not shown turns to that page once the page
  // shown has been up for change_seconds (the projector shows a correction at once, not when its
  // page comes round).
  function showChanges() {
    for (const panel of panels) {
      const index = changes[panel.name];
      changes[panel.name] = -1;
      if (index >= 0 && !panel.section.hidden && panel.pageOf[index] !== panel.page) {
        panel.wanted = panel.pageOf[index];
      }
    }
    tick();
  }

  function tick() {
    const now = Date.now();
    for (const panel of panels) {
      if (panel.section.hidden || panel.pages < 2) {
        continue;
      }
      if (panel.wanted !== null && now - panel.shownAt >= config.change_seconds * 1000) {
        turn(panel, Math.min(panel.wanted, panel.pages - 1));
      } else if (now - panel.shownAt >= config.page_seconds * 1000) {
        turn(panel, (panel.page + 1) % panel.pages);
      }
    }
  }

  function startPaging() {
    document.body.classList.add("paging");
    panels.push(
      { name: "places", shownAt: Date.now(), wanted: null, ...seatingPanel() },
      { name: "standings", shownAt: Date.now(), wanted: null, ...standingsPanel() },
    );
    layoutAll();
    window.addEventListener("resize", layoutAll);
    if (document.fonts) {
      document.fonts.ready.then(layoutAll);
    }
    window.setInterval(tick, 200);
  }

  // ---- the public standings on a phone ----

  // Place, name and total stay in view while the other columns scroll sideways in the table's
  // box (public.css); measured here: where the name and the total stick, and how many of the
  // three stick (as many as leave room beside them for the widest other column; none when the
  // whole table fits its box).
  function stickColumns() {
    const table = find("standings");
    const box = table && table.closest(".scroll");
    if (!box) {
      return;
    }
    const widths = Array.from(table.tHead.rows[0].cells, (cell) => cell.getBoundingClientRect().width);
    const widest = Math.max(0, ...widths.slice(3));
    const stuckWidth = (count) => widths.slice(0, count).reduce((sum, width) => sum + width, 0);
    let stuck = 3;
    while (stuck > 0 && stuckWidth(stuck) + widest > box.clientWidth) {
      stuck -= 1;
    }
    table.style.setProperty("--name-left", `${widths[0]}px`);
    table.style.setProperty("--total-left", `${widths[0] + widths[1]}px`);
    table.dataset.stuck = box.scrollWidth > box.clientWidth + 1 ? String(stuck) : "0";
    // Columns out of sight are said under the table (nothing else shows they are there).
    const more = document.getElementById("standings-more");
    if (more) {
      more.hidden = box.scrollWidth <= box.clientWidth + 1;
    }
  }

  // ---- polling ----

  let tag = null;
  let time = config.time;
  let failures = 0;
  let timer = null;
  let paused = false;

  function say(text) {
    // A polite live region: it speaks only when the standings or the seating changed, or the
    // connection was lost or came back, never on a poll that found nothing new.
    if (status && status.textContent !== text) {
      status.textContent = text;
    }
  }

  function apply(data) {
    let changed = false;
    if (config.page === "home") {
      changed = drawHomeSeating(data.seating);
      changed = drawHomePodium(data) || changed;
    } else {
      changed = drawStandings(data.standings);
      changed = drawTitle(data) || changed;
      if (config.page === "screen") {
        changed = drawFinal(data) || changed;
        changed = drawScreenSeating(data) || changed;
        if (changed) {
          layoutAll();
          showChanges();
        }
      }
    }
    if (changed && config.page === "standings") {
      stickColumns();
    }
    if (changed || failures > 0) {
      time = data.time;
      say(fill(words.updated, { time }));
    }
  }

  function delay() {
    // Jitter spreads the phones of a room over the interval; each failure doubles the wait.
    const jitter = 1 - config.poll_jitter + Math.random() * 2 * config.poll_jitter;
    return config.poll_seconds * jitter * Math.min(8, 2 ** failures) * 1000;
  }

  function schedule(ms) {
    window.clearTimeout(timer);
    timer = window.setTimeout(poll, ms);
  }

  function failed() {
    failures += 1;
    if (failures === 1) {
      say(fill(words.offline, { time }));
    }
  }

  async function poll() {
    if (document.visibilityState === "hidden") {
      paused = true; // polled again as soon as the page is looked at
      return;
    }
    if (navigator.onLine === false) {
      failed();
      schedule(delay());
      return;
    }
    try {
      const response = await fetch(config.url, {
        headers: tag ? { "If-None-Match": tag } : {},
        cache: "no-store",
      });
      if (response.status === 200) {
        const data = await response.json();
        tag = response.headers.get("ETag");
        apply(data);
        failures = 0;
      } else if (response.status === 304) {
        if (failures > 0) {
          say(fill(words.updated, { time }));
        }
        failures = 0;
      } else {
        failed();
      }
    } catch (_error) {
      failed();
    }
    schedule(delay());
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && paused) {
      paused = false;
      schedule(500 + Math.random() * 1500);
    }
  });
  window.addEventListener("online", () => schedule(500 + Math.random() * 1500));
  window.addEventListener("offline", () => failed());

  if (config.page === "screen") {
    startPaging();
  } else if (config.page === "standings") {
    stickColumns();
    window.addEventListener("resize", stickColumns);
    if (document.fonts) {
      document.fonts.ready.then(stickColumns);
    }
  }
  schedule(delay());
})();
