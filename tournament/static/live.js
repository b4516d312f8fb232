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

  // ---- the standings table (public standings, projector) ----

  function standingsRow(row) {
    const tr = element("tr");
    const name = element("td");
    if (config.link_players) {
      const link = element("a", "", row.name);
      link.href = config.player_url.replace("/0/", `/${row.player}/`);
      name.append(link);
    } else {
      name.append(row.name);
    }
    if (row.guest) {
      name.append(" ", element("span", "muted guest-mark", `(${words.guest})`));
    }
    if (row.withdrawn) {
      name.append(" ", element("span", "muted", `(${words.withdrawn})`));
    }
    tr.append(
      element("td", "num", row.rank),
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
    changed = replaceChildrenIfChanged(table.tBodies[0], standings.rows.map(standingsRow)) || changed;
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
        element("span", "who", row.name),
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
        line.append(" ", element("span", "who", row.name), " ", element("span", "points", row.tournament_points));
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
      const name = element("span", "podium-name", row.name);
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

  function drawScreenSeating(seating) {
    const section = find("seating");
    const list = find("places");
    if (!section || !list) {
      return false;
    }
    // Once the tournament is finished the final view takes the seating's place.
    section.hidden = seating.round === null || seating.finished;
    if (seating.round !== null) {
      find("seating-round").textContent = fill(words.seating_round, { number: seating.round });
    }
    const items = seating.places.map((place) => {
      const li = element("li");
      li.append(element("span", "who", place.name), " ", element("span", "where", place.table));
      return li;
    });
    return replaceChildrenIfChanged(list, items);
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
        const link = element("a", "", place.name);
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
  const panels = [];

  function standingsPanel() {
    const table = find("standings");
    return {
      section: table.closest("section"),
      items: () => Array.from(table.tBodies[0].rows),
      perPage(items, room) {
        const height = table.tBodies[0].offsetHeight / Math.max(1, items.length);
        return Math.floor((room - table.tHead.offsetHeight) / height);
      },
    };
  }

  function seatingPanel() {
    const list = find("places");
    return {
      section: list.closest("section"),
      items: () => Array.from(list.children),
      perPage(items, room) {
        if (!items.length) {
          return 1;
        }
        const em = parseFloat(getComputedStyle(list).fontSize);
        const columns = Math.max(1, Math.floor(list.clientWidth / (11 * em)));
        const rows = Math.max(1, Math.floor(room / items[0].offsetHeight));
        list.style.setProperty("--columns", String(columns));
        list.style.setProperty("--rows", String(rows));
        return columns * rows;
      },
    };
  }

  function layout(panel) {
    const items = panel.items();
    for (const item of items) {
      item.hidden = false;
    }
    const room = panel.section.querySelector(".screen-window").clientHeight;
    panel.size = Math.max(1, panel.perPage(items, room) || 1);
    panel.pages = Math.max(1, Math.ceil(items.length / panel.size));
    panel.page = (panel.page || 0) % panel.pages;
    show(panel);
  }

  function show(panel) {
    panel.items().forEach((item, index) => {
      item.hidden = Math.floor(index / panel.size) !== panel.page;
    });
    find("pager", panel.section).textContent =
      panel.pages > 1 ? fill(words.page, { page: panel.page + 1, pages: panel.pages }) : "";
  }

  function layoutAll() {
    for (const panel of panels) {
      if (!panel.section.hidden) {
        layout(panel);
      }
    }
  }

  function startPaging() {
    document.body.classList.add("paging");
    panels.push(seatingPanel(), standingsPanel());
    layoutAll();
    window.addEventListener("resize", layoutAll);
    window.setInterval(() => {
      for (const panel of panels) {
        if (!panel.section.hidden && panel.pages > 1) {
          panel.page = (panel.page + 1) % panel.pages;
          show(panel);
        }
      }
    }, config.page_seconds * 1000);
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
        changed = drawScreenSeating(data.seating) || changed;
        if (changed) {
          layoutAll();
        }
      }
    }
    if (changed || failures > 0) {
      time = data.time;
      say(fill(words.updated, { time }));
    }
  }

  function delay() {
    // Jitter spreads the phones of a room over the interval; each failure doubles the wait.
    const jitter = 0.75 + Math.random() * 0.5;
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
  }
  schedule(delay());
})();
