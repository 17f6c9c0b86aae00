// The table screen's few behaviours that need the browser.  Everything that decides anything is on the
// server: a tap made against an old screen is refused there, so nothing here can record a fact twice.
"use strict";
(() => {
  const body = document.body;
  // A tap's screen is asked for under a one-time name (``?said=``: the screen the record's own request made, its
  // notice with it): the address shown, kept on the home screen or reloaded is the table's own.
  if (/^\?said=[^&]*$/.test(location.search)) history.replaceState(history.state, "", location.pathname);
  // a tap must begin at least this long after a screen (or a change of it) was shown: the app's ARM_MS setting
  const ARM_MS = Number(body.dataset.armMs) || 600;

  // --- No ghost entries ----------------------------------------------------------------------------
  // A double tap's second touch lands on the screen the first one brought up (the next player's dice
  // pad, a new auction...).  Controls are armed only ARM_MS after a screen is shown, and a tap whose
  // finger went down before that acts on nothing.
  let armedAt = Infinity;
  let downAt = -Infinity;
  const arm = () => {
    armedAt = performance.now() + ARM_MS;
    body.classList.add("arming");
    setTimeout(() => { if (performance.now() >= armedAt) body.classList.remove("arming"); }, ARM_MS + 10);
  };
  const ghost = () => performance.now() < armedAt || downAt < armedAt;
  addEventListener("pointerdown", (e) => { downAt = e.timeStamp || performance.now(); }, true);
  addEventListener("click", (e) => {
    const control = e.target.closest("button, a, summary, input[type=submit], label, select");
    // offline, the top bar's links (other pages, the language menu's) lead to pages the tablet does not keep: not
    // followed (the browser's own error page is no place for a referee); its menus still open
    if (control && body.dataset.offline && control.matches("a") && control.closest("header.bar")) {
      e.preventDefault();
      e.stopImmediatePropagation();
      return;
    }
    if (!control || control.closest("header.bar")) return;
    // A click the keyboard made (Enter) has no pointer: it counts from the moment of the click.
    if (e.detail === 0) downAt = performance.now();
    // offline, a control of an entry form (or a confirmation's) stays live while the tablet referees (offline.js)
    const taken = body.dataset.tablet && control.closest('form[action$="/record"], details.confirm > summary, details[data-panel] > summary, #kept-export, a[data-kept-file]');
    // on the page of the games on a tablet alone, every control is the tablet's but the form sent to the server
    const alone = body.dataset.alone && !control.closest("[data-server]");
    if (ghost() || (body.dataset.offline && !taken && !alone)) { e.preventDefault(); e.stopImmediatePropagation(); }
  }, true);
  addEventListener("pageshow", () => { delete body.dataset.sending; arm(); });

  // --- A table's PIN screen says how many entries this tablet keeps for it, not yet on the server -----------
  // (offline.js keeps them in IndexedDB, by the table screen's address: its unlock ended while it was cut off, or
  // the browser was closed and opened again); they are sent once the table is unlocked.  Read only: a device that
  // keeps nothing is left with nothing made.
  const waiting = document.getElementById("kept-waiting");
  if (waiting && window.indexedDB) {
    const opening = indexedDB.open("referee-kept", 1);
    opening.onupgradeneeded = () => opening.transaction.abort();  // nothing kept on this device
    opening.onsuccess = () => {
      const db = opening.result;
      try {
        const got = db.transaction("tables").objectStore("tables").get(waiting.dataset.table);
        got.onsuccess = () => {
          const count = got.result && got.result.entries ? got.result.entries.length : 0;
          if (count) { waiting.querySelector("strong").textContent = String(count); waiting.hidden = false; }
        };
      } finally {
        db.close();
      }
    };
  }
  // A confirmation appears where the finger just was: it is armed anew when it opens.
  document.addEventListener("toggle", (e) => { if (e.target.matches && e.target.matches("details.confirm") && e.target.open) arm(); }, true);

  // --- The top bar folds its links into the menu where they do not fit --------------------------------
  // Its links, the menu (☰), Lock and the language stay on one row: the last links go into the menu until they
  // do (in their order).  The page's title keeps its own room (or its own row on a phone).  Without this script
  // the links wrap onto more rows: nothing overlaps either way.
  const bar = document.getElementById("bar");
  const barLinks = document.getElementById("bar-links");
  const barMenu = document.getElementById("bar-menu");
  const oneRow = () => {
    const brand = bar.firstElementChild.getBoundingClientRect();
    const row = [...bar.children].filter((el) => !el.classList.contains("title") || getComputedStyle(el).order === "0");
    const onRow = (el) => { const r = el.getBoundingClientRect(); return r.top < brand.bottom - 2 && r.bottom > brand.top + 2; };
    const title = bar.querySelector(".title");  // on the links' row: two lines at most
    if (title && onRow(title) && title.getBoundingClientRect().height > brand.height + 2) return false;
    return barLinks.getBoundingClientRect().height <= brand.height + 2 &&
      row.every((el) => el.offsetParent === null || el.getBoundingClientRect().height === 0 || onRow(el));
  };
  const fold = () => {
    if (!bar || !barLinks || !barMenu) return;
    for (const link of [...barMenu.children]) barLinks.append(link);
    bar.classList.remove("folded");
    while (!oneRow() && barLinks.lastElementChild) {
      bar.classList.add("folded");
      barMenu.prepend(barLinks.lastElementChild);
    }
    if (!barMenu.children.length) bar.classList.remove("folded");
  };
  let folding = 0;
  const foldSoon = () => { cancelAnimationFrame(folding); folding = requestAnimationFrame(fold); };
  fold();
  addEventListener("resize", foldSoon);
  if (document.fonts) document.fonts.ready.then(fold);

  // --- The room display: its cards and standings a page at a time where they do not fit the screen ----------
  // On a projector ([data-paged] parts, laid out to fill the screen) the items that fit make a page; each page is
  // held PAGE_MS, the same page on every screen at the same moment (counted from the clock), and kept through the
  // live region's redraw.  A smaller screen shows every item, one part under another.
  const PAGE_MS = 12000;
  const projector = matchMedia("(min-width: 1000px) and (min-height: 560px)");
  const pageItems = (box) => [...box.querySelectorAll(".table-card, li, h3")];
  const pagesOf = (box, items) => {
    const pages = [];
    for (let start = 0; start < items.length;) {
      items.forEach((el, k) => { el.hidden = k < start; });
      const bottom = box.getBoundingClientRect().bottom + 1;
      let end = start;
      while (end + 1 < items.length && items[end + 1].getBoundingClientRect().bottom <= bottom) end += 1;
      pages.push([start, end]);
      start = end + 1;
    }
    return pages;
  };
  const turnPages = (all) => {
    for (const box of document.querySelectorAll("[data-paged]")) {
      const items = pageItems(box);
      const info = document.querySelector(`[data-pageinfo="${box.dataset.paged}"]`);
      items.forEach((el) => { el.hidden = false; });
      if (!projector.matches || box.scrollHeight <= box.clientHeight + 1) {
        if (info) info.textContent = "";
        delete box.dataset.pages;
        continue;
      }
      if (all || !box.pages) box.pages = pagesOf(box, items);
      const pages = box.pages;
      const page = Math.floor(Date.now() / PAGE_MS) % pages.length;
      items.forEach((el, k) => { el.hidden = k < pages[page][0] || k > pages[page][1]; });
      box.dataset.page = page;
      if (info) info.textContent = (box.dataset.pageWords || "").replace("{page}", page + 1).replace("{pages}", pages.length);
    }
  };
  if (document.querySelector("[data-paged]")) {
    turnPages(true);
    addEventListener("resize", () => turnPages(true));
    document.addEventListener("htmx:afterSettle", () => turnPages(true));
    setInterval(() => {
      const turned = [...document.querySelectorAll("[data-paged][data-page]")].some(
        (box) => box.pages && String(Math.floor(Date.now() / PAGE_MS) % box.pages.length) !== box.dataset.page);
      if (turned) turnPages(false);
    }, 1000);
  }

  // --- The server can be reached, and one tap is one entry -----------------------------------------
  // The screen hears from the server every second: the live region's poll, else a ping (when nothing else was
  // heard for QUIET_MS).  A request that fails (at once, when the Wi-Fi is off), a ping unanswered for PING_MS (a
  // network that swallows requests), or the browser's "offline" event
  // puts the screen offline: the banner across the top, the controls greyed, a tap sent nowhere (the click
  // guard above and the submit guard below).  From then until a poll answers, the live region's polls name the
  // entries this screen showed and its forms' keys (since=, keys=): the server says what was recorded meanwhile
  // at the top of the region, or answers 204 (nothing changed), said in the "back" line for a few seconds.
  const QUIET_MS = 1200;
  const PING_MS = 1500;  // a busy server answers a ping well within this; a lost network never does
  let heard = performance.now();
  let pinging = false;
  let returning = false;  // this screen was cut off: its region's polls ask what happened meanwhile
  const back = (shown) => {
    const line = document.getElementById("back");
    if (line) line.hidden = !shown;
    if (shown) setTimeout(() => back(false), 10000);
  };
  const offline = (down) => {
    if (down === Boolean(body.dataset.offline)) return;
    back(false);
    if (!down) { delete body.dataset.offline; return; }
    body.dataset.offline = "1";
    returning = document.querySelector(".live[data-seq]") !== null;
  };
  const reached = (status) => { if (status > 0 && status < 502) { heard = performance.now(); offline(false); } else offline(true); };
  const ping = () => {
    pinging = true;
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), PING_MS);
    return fetch(body.dataset.ping, {cache: "no-store", signal: stop.signal}).then((r) => reached(r.status))
      .catch(() => offline(true)).finally(() => { clearTimeout(timer); pinging = false; });
  };
  addEventListener("offline", () => offline(true));
  // One timer, set for the moment the screen will have heard nothing for QUIET_MS: a tablet at the table all day on
  // its battery is woken about once a second, not four times.  A ping answered or not, the next is QUIET_MS on.
  const EARLY_MS = 20;  // a timer that fires this little before the moment it was set for finds the spell over
  const listen = () => {
    const quiet = performance.now() - heard;
    if (quiet < QUIET_MS - EARLY_MS || pinging) { setTimeout(listen, pinging ? QUIET_MS : QUIET_MS - quiet); return; }
    ping().then(() => setTimeout(listen, QUIET_MS));
  };
  if (body.dataset.ping) {
    addEventListener("online", ping);
    setTimeout(listen, QUIET_MS);
  }
  // The app's own answer that its database could not answer (503, HX-Retarget "#notice": views/errors.py) is the
  // server reached: its notice is swapped in above the screen, which stays as it is and goes on polling; the next
  // request answered takes the notice away.
  const NOTICE = "#notice";
  const databaseDown = (xhr) => Boolean(xhr) && xhr.status === 503 && xhr.getResponseHeader("HX-Retarget") === NOTICE;
  document.addEventListener("htmx:beforeSwap", (e) => {
    if (databaseDown(e.detail.xhr)) { e.detail.shouldSwap = true; e.detail.isError = false; }
  });
  document.addEventListener("htmx:afterRequest", (e) => {
    const status = e.detail.xhr ? e.detail.xhr.status : 0;
    const down = databaseDown(e.detail.xhr);
    if (status) reached(down ? 200 : status);
    const notice = document.querySelector(NOTICE);
    if (!down && status >= 200 && status < 400 && notice && !notice.hidden) { notice.hidden = true; notice.replaceChildren(); }
    if (status === 204 && returning && e.detail.elt.matches(".live[data-seq]")) {
      returning = false;
      back(true);  // nothing changed while the network was lost
    }
  });
  for (const type of ["htmx:sendError", "htmx:timeout"]) document.addEventListener(type, () => offline(true));
  // A page the server sends this screen to (HX-Redirect: the tablet was locked, its PIN screen) is loaded once: a
  // poll queued behind the one that was answered so, and answered the same, would load it again, and the second
  // load would lose the one-time message the first one showed ("this tablet is locked ...").
  let leaving = false;
  document.addEventListener("htmx:beforeRequest", (e) => { if (leaving) e.preventDefault(); });
  document.addEventListener("htmx:beforeOnLoad", (e) => {
    if (leaving) { e.preventDefault(); return; }
    if (e.detail.xhr && e.detail.xhr.getResponseHeader("HX-Redirect")) leaving = true;
  });
  addEventListener("pageshow", () => { leaving = false; });
  document.addEventListener("submit", (e) => {
    if (!navigator.onLine || body.dataset.offline) { e.preventDefault(); offline(true); return; }
    if (body.dataset.sending) { e.preventDefault(); return; }
    if (e.target.dataset.stay === undefined) body.dataset.sending = "1";
  });

  // --- Clocks count down on the screen; the server's clock is the truth at every refresh ------------
  // The second's timer runs while a running clock is on the screen (it comes and goes with the live region).
  let clocks = new WeakMap();  // a clock on the screen: the seconds it was sent with, and when (a new region: anew)
  let ticking = 0;
  const tick = () => {
    const running = document.querySelectorAll(".clock[data-running='1']");
    if (!running.length) { clearInterval(ticking); ticking = 0; return; }
    if (!ticking) ticking = setInterval(tick, 1000);
    for (const c of running) {
      if (!clocks.has(c)) clocks.set(c, {left: +c.dataset.left, from: performance.now()});
      const {left, from} = clocks.get(c);
      const now = Math.round(left - (performance.now() - from) / 1000);
      c.textContent = now > 0 ? `${Math.floor(now / 60)}:${String(now % 60).padStart(2, "0")}` : c.dataset.up;
      c.classList.toggle("up", now <= 0);
    }
  };
  tick();
  document.addEventListener("htmx:afterSettle", tick);

  // --- Live: a screen follows entries made elsewhere without losing what is being typed ------------
  // htmx polls the screen's live region (hx-get ... every 1s); the server answers 204 while nothing
  // changed.  Before a new region replaces the old one, what the referee has typed, ticked or opened is
  // noted and put back on the same form of the new region, and the controls are armed anew.
  const kept = [];
  const typed = (el) => (el.type === "checkbox" || el.type === "radio") ? el.checked !== el.defaultChecked
    : el.tagName === "SELECT" ? [...el.options].some((o) => o.selected !== o.defaultSelected)
    : el.type !== "hidden" && el.value !== el.defaultValue;
  // A tap that has started is not taken from under the finger: while a pointer is down (or went down in the last
  // ARM_MS), while a confirmation is open, or just after a panel opened, the new region is not swapped in; the
  // element keeps its old version, so the next poll brings the region again.
  let pressed = false;
  let openedAt = -Infinity;
  addEventListener("pointerdown", () => { pressed = true; }, true);
  for (const type of ["pointerup", "pointercancel"]) addEventListener(type, () => { pressed = false; }, true);
  document.addEventListener("toggle", (e) => { if (e.target.open) openedAt = performance.now(); }, true);
  const busy = (region) => pressed || performance.now() - downAt < ARM_MS || performance.now() - openedAt < ARM_MS
    || region.querySelector("details.confirm[open]") !== null;
  document.addEventListener("htmx:beforeSwap", (e) => {
    if (!e.detail.target || !e.detail.target.matches(".live")) return;
    if (e.detail.shouldSwap && busy(e.detail.target)) { e.detail.shouldSwap = false; return; }
    kept.length = 0;
    const active = document.activeElement;
    for (const d of e.detail.target.querySelectorAll("details[id][open]")) kept.push({details: d.id});
    for (const form of e.detail.target.querySelectorAll("form[id]")) {
      for (const el of form.elements) {
        if (!el.name || !typed(el)) continue;
        kept.push({form: form.id, name: el.name, value: el.value, checked: el.checked, type: el.type,
                   focus: el === active, start: el.selectionStart, end: el.selectionEnd});
      }
    }
  });
  // A changed poll may be answered with the parts that changed alone (the director's page, views/director_live.py):
  // each is swapped in place, out of band, the region itself not swapped, and the answer's Live-Version and
  // Live-Drawing headers name the version they bring it to and the drawing they make of it, which the region's next
  // poll names (v and d).  An answer not swapped in (a tap under way) moves nothing.
  const changesOnly = (xhr) => Boolean(xhr) && Boolean(xhr.getResponseHeader("Live-Version"));
  const moved = new WeakSet();  // regions whose version an answer of changes moved
  document.addEventListener("htmx:afterSwap", (e) => {
    if (changesOnly(e.detail.xhr) && e.target === e.detail.target && e.detail.elt.matches(".live[data-version]")) {
      e.detail.elt.dataset.version = e.detail.xhr.getResponseHeader("Live-Version");
      e.detail.elt.dataset.drawn = e.detail.xhr.getResponseHeader("Live-Drawing");
      moved.add(e.detail.elt);
    }
  });
  // The poll names the panels open on this screen: the server draws them open, with their contents.
  document.addEventListener("htmx:configRequest", (e) => {
    if (!e.detail.elt.matches || !e.detail.elt.matches(".live")) return;
    if (moved.has(e.detail.elt)) {  // its address names the version and drawing it was drawn at: those it shows
      const asked = new URL(e.detail.path, location.href);
      asked.searchParams.set("v", e.detail.elt.dataset.version);
      asked.searchParams.set("d", e.detail.elt.dataset.drawn);
      e.detail.path = asked.pathname + asked.search;
    }
    const open = [...e.detail.elt.querySelectorAll("details[data-panel][open]")].map((d) => d.dataset.panel);
    if (open.length) e.detail.parameters.open = open.join(",");
    if (returning && e.detail.elt.dataset.seq) {  // what happened while this screen was cut off
      e.detail.parameters.since = e.detail.elt.dataset.seq;
      const keys = new Set([...e.detail.elt.querySelectorAll("input[name=entry_key]")].map((i) => i.value));
      e.detail.parameters.keys = [...keys].slice(0, 8).join(",");
    }
  });
  document.addEventListener("htmx:afterSettle", (e) => {
    if (!e.detail.target || !e.detail.target.matches(".live")) return;
    if (e.detail.target.matches("[data-seq]")) returning = false;  // the region says what happened meanwhile
    if (changesOnly(e.detail.xhr)) {  // parts swapped in place: the rest is as it was, its clocks counting on
      if (e.target === e.detail.target) { kept.length = 0; tick(); arm(); }
      return;
    }
    clocks = new WeakMap();
    for (const k of kept) {
      if (k.details) { const d = document.getElementById(k.details); if (d) d.open = true; continue; }
      const form = document.getElementById(k.form);
      if (!form) continue;
      for (const el of form.elements) {
        if (el.name !== k.name) continue;
        if (k.type === "checkbox" || k.type === "radio") { if (el.value === k.value) el.checked = k.checked; continue; }
        el.value = k.value;
        if (k.focus) { el.focus(); try { el.setSelectionRange(k.start, k.end); } catch (_) { /* not a text field */ } }
      }
    }
    kept.length = 0;
    tick();
    arm();
  });
  // The tablet drew the region itself (offline.js): its clocks and controls as after a swap.
  document.addEventListener("referee:drawn", () => { clocks = new WeakMap(); tick(); arm(); });
  // --- Panels the referee opens stay open through the screen's reloads -------------------------------
  // (recording an entry reloads the screen).  A panel marked data-keep that the referee opens or closes is
  // noted in the "panels" cookie of this game's pages (names joined by |), which the server reads to draw it
  // open, with its contents, on the next screen.  Only the referee's own taps count: a panel a debt opened
  // by itself is not kept.
  const keep = (d) => {
    const live = d.closest("[data-panels-path]");
    if (!live) return;
    const now = (document.cookie.match(/(?:^|;\s*)panels=([^;]*)/) || ["", ""])[1];
    const names = new Set(now.split("|").filter(Boolean));
    if (d.open) names.add(d.dataset.panel); else names.delete(d.dataset.panel);
    const secure = location.protocol === "https:" ? "; Secure" : "";  // over https, never sent in the clear
    document.cookie = `panels=${[...names].join("|")}; path=${live.dataset.panelsPath}; SameSite=Strict; max-age=86400${secure}`;
  };
  document.addEventListener("click", (e) => {
    const summary = e.target.closest && e.target.closest("details[data-keep] > summary");
    if (summary) setTimeout(() => keep(summary.parentElement), 0);  // after the tap has opened or closed it
  });

  // --- The new-game screen: only the chosen ruleset's house-rule switches are shown ------------------
  const rulesetSelect = document.querySelector("select[data-house-rules]");
  const showHouseRules = () => {
    for (const set of document.querySelectorAll("fieldset.house-rules")) set.hidden = set.dataset.ruleset !== rulesetSelect.value;
  };
  if (rulesetSelect) { rulesetSelect.addEventListener("change", showHouseRules); showHouseRules(); }

  // --- The new-tournament form: the players entered against the fewest the chosen format needs ------------
  const playersField = document.querySelector("textarea[data-count-players]");
  const playersCount = document.getElementById("players-count");
  const countPlayers = () => {
    const chosen = document.querySelector("input[name=format]:checked");
    if (!chosen || !playersCount) return;
    const count = playersField.value.split("\n").filter((line) => line.trim()).length;
    const least = +chosen.dataset.least;
    const short = count < least;
    playersCount.textContent = playersCount.dataset[short ? "short" : "words"]
      .replace("{count}", count).replace("{n}", least);
    playersCount.classList.toggle("short", short);
  };
  if (playersField) {
    playersField.addEventListener("input", countPlayers);
    for (const radio of document.querySelectorAll("input[name=format]")) radio.addEventListener("change", countPlayers);
    countPlayers();
  }

  arm();
  tick();
})();
