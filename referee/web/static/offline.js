// The table's engine and screens in the tablet itself: Pyodide (CPython compiled to WebAssembly, served by this app)
// running the project's own Python from the offline kit (the engine, the screens and their words, the table screen's
// templates, referee/tablet), so that when the server cannot be reached the table goes on: each tap checked by the
// same rules, the same screen drawn, its entries kept on the tablet and sent when the server is back.  Nothing here
// decides anything: it hands the tap to the Python, keeps what the Python recorded and shows what it drew.
//   const table = await refereeTablet();  // where Pyodide and the kit are: this script's element says (table.html)
//   await table.open(recordText);  // the record as /games/ID/record.jsonl exports it
//   table.tap({type: "roll", player: "Aki", dice: [3, 4]});  // {recorded, seq, waiting, refusal: {code, message, clause, rule}}
let started = null;
let startedFrom = null;  // "snapshot" or "cold": how this page's Python started (tests and benchmarks read it)
window.refereeStartedFrom = () => startedFrom;

// What the Python runs once the kit is unpacked: the kit's modules imported, the rulesets read, and the functions
// the page calls.
const SETUP = `
import json, sys
sys.path.insert(0, "/referee-kit")
from pathlib import Path
from referee.tablet import games_html, KeptTable, kit_screens, made_json, open_game, TabletTable
with open("/referee-kit/rulesets.json", encoding="utf-8") as f:
    RULESETS = json.load(f)
SCREENS = {}

def screens_at(root):
    if root not in SCREENS:
        SCREENS[root] = kit_screens(Path("/referee-kit"), root)
    return SCREENS[root]

def open_table(record, facts, code, root):
    return TabletTable(screens_at(root), RULESETS, record, json.loads(facts), code)

def open_alone(kept, code, root):  # a game on the tablet alone (referee/tablet/alone.py)
    return open_game(screens_at(root), RULESETS, json.loads(kept), code)

def alone_list(kept, code, root):
    return games_html(screens_at(root), kept, code)

def alone_made(pairs, code, root):
    return made_json(screens_at(root), RULESETS, pairs, code)
`;

// One transaction on a store of this tablet's IndexedDB: ``work(store)`` starts it and gives a function of its result
// once it is complete.
const inDatabase = (database, store, mode, work) => new Promise((done, fail) => {
  const opening = indexedDB.open(database, 1);
  opening.onupgradeneeded = () => opening.result.createObjectStore(store);
  opening.onerror = () => fail(opening.error);
  opening.onsuccess = () => {
    const db = opening.result;
    const tx = db.transaction(store, mode);
    const result = work(tx.objectStore(store));
    tx.oncomplete = () => { db.close(); done(result()); };
    tx.onerror = tx.onabort = () => { db.close(); fail(tx.error || new Error("not kept")); };
  };
});
// Pyodide's first start on a tablet takes seconds (CPython starting in WebAssembly, then the kit's imports): about
// 5 CPU-seconds on a laptop's core, four times that on a tablet-class one.  So a first (cold) start takes a snapshot
// of its Python's memory once the kit is imported (Pyodide's memory snapshot: loadPyodide's _makeSnapshot and
// _loadSnapshot options, of the version referee/web/pyodide.toml pins), written to the tablet's IndexedDB while the
// screen is idle, under the Pyodide, the site's root and the kit it was made from (the kit's SHA-256: a new kit, a
// new snapshot; the older is deleted); every later start (the screen opened again, offline or not) restores it: the
// imports done, the rulesets read (a tablet-class device, CPU throttled 4x: about 2 s from the snapshot against 7.7 s
// cold, benchmarks/tablet.py).  The kit's files are unpacked again (they live outside the Python's memory).  A
// snapshot that cannot be restored (another Pyodide, a damaged value) is deleted and the Python started cold, to take
// a new one: the snapshot only ever saves time.  The tablet makes its own: nothing that runs on it comes from another
// device.
const ENGINE_DB = "referee-engine";
const snapshotOf = (name) => inDatabase(ENGINE_DB, "snapshots", "readonly", (kept) => {
  const got = kept.get(name);
  return () => got.result;
});
const keepSnapshot = (name, snapshot) => inDatabase(ENGINE_DB, "snapshots", "readwrite", (kept) => {
  kept.clear();  // one snapshot: this Pyodide's with this kit
  kept.put(snapshot, name);
  return () => true;
});
const forgetSnapshots = () => inDatabase(ENGINE_DB, "snapshots", "readwrite", (kept) => { kept.clear(); return () => true; });
const digest = async (bytes) => [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))]
  .map((b) => b.toString(16).padStart(2, "0")).join("");
// Pyodide restores a snapshot into its module's memory as instantiated, whose size the module fixes (not the
// snapshot's: restoring a larger one fails, "offset is out of bounds"): while ``load`` runs, the memory of a
// module instantiated is grown to ``pages`` (the snapshot's memory, which its header's second word says where it
// starts; 64 KiB a page).
const PAGE = 65536;
const snapshotPages = (snapshot) => Math.ceil((snapshot.length - new Uint32Array(snapshot.buffer, snapshot.byteOffset, 2)[1]) / PAGE);
const withMemoryOf = async (pages, load) => {
  const {instantiate, instantiateStreaming} = WebAssembly;
  const grow = (made) => {
    const memory = (made.instance || made).exports.memory;
    const have = memory.buffer.byteLength / PAGE;
    if (pages > have) memory.grow(pages - have);
    return made;
  };
  WebAssembly.instantiate = (...args) => instantiate(...args).then(grow);
  if (instantiateStreaming) WebAssembly.instantiateStreaming = (...args) => instantiateStreaming(...args).then(grow);
  try {
    return await load();
  } finally {
    WebAssembly.instantiate = instantiate;
    WebAssembly.instantiateStreaming = instantiateStreaming;
  }
};

const start = async ({pyodide, kit, root = ""}) => {
  const [{loadPyodide}, zip] = await Promise.all([import(pyodide), fetch(kit).then((r) => {
    if (!r.ok) throw new Error(`the offline kit: ${r.status}`);
    return r.arrayBuffer();
  })]);
  const settings = {indexURL: new URL(".", new URL(pyodide, location.href)).href, fullStdLib: false};
  const name = globalThis.crypto && crypto.subtle ? `${pyodide} ${root} ${await digest(zip)}` : null;
  const snapshot = name && await snapshotOf(name).catch(() => undefined);
  if (snapshot) {
    try {
      const python = await withMemoryOf(snapshotPages(snapshot), () => loadPyodide({...settings, _loadSnapshot: snapshot}));
      python.unpackArchive(zip, "zip", {extractDir: "/referee-kit"});
      startedFrom = "snapshot";
      return python;
    } catch (error) {
      await forgetSnapshots().catch(() => undefined);
    }
  }
  const python = await loadPyodide({...settings, _makeSnapshot: name !== null});
  python.unpackArchive(zip, "zip", {extractDir: "/referee-kit"});
  python.runPython(SETUP);
  startedFrom = "cold";
  if (!name) {
    snapshotKept(false);  // no SHA-256 outside a secure context: nothing to name a snapshot by
  } else {
    try {
      const snapshot = python.makeMemorySnapshot();  // now: before the page's first call into the Python
      idle().then(() => keepSnapshot(name, snapshot)).then(() => snapshotKept(true), () => snapshotKept(false));
    } catch (error) {
      snapshotKept(false);  // no snapshot this time: the next start is cold too
    }
  }
  return python;
};
let snapshotKept = null;
window.refereeSnapshot = new Promise((done) => { snapshotKept = done; });  // a cold start's snapshot kept, or not

const where = document.getElementById("referee-offline").dataset;

// Pyodide that cannot start (its WebAssembly refused, a file missing from the tablet) may never say so: it is given
// up after START_MS, and tried again at the next call.
const START_MS = 120000;
const startOnce = () => Promise.race([start(where), new Promise((_, fail) => setTimeout(
  () => fail(new Error(`Pyodide did not start within ${START_MS / 1000} s`)), START_MS))]);
const python = () => { started = started || startOnce().catch((error) => { started = null; throw error; }); return started; };

export const refereeTablet = async () => {
  const py = await python();
  let table = null;
  return {
    async open(record) {
      table = py.globals.get("KeptTable")(py.globals.get("RULESETS"), record);
      return table.seq;
    },
    tap(entry) {
      if (table === null) throw new Error("no table is open on this tablet");
      return JSON.parse(table.tap_json(JSON.stringify(entry)));
    },
  };
};
window.refereeTablet = refereeTablet;

// Kept against the network's failing: the service worker (sw.js), and through it Pyodide's files, the kit and this
// table's record, fetched once in the background while the screen is idle (about 8 MB the first time, then
// nothing: their addresses name their versions).  A browser that has no service worker here (a page served over
// plain http at a venue's address is not a secure context) keeps nothing: refereeKept says false.
const keep = async () => {
  if (!("serviceWorker" in navigator) || !where.worker) return false;
  await navigator.serviceWorker.register(where.worker, {scope: where.scope});
  const registration = await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller) {
    // the worker takes this page over as it starts (clients.claim); a page loaded while it was starting (the screen
    // loaded again at once) can be left out of that: it asks the worker to take it
    const taken = Promise.race([
      new Promise((yes) => navigator.serviceWorker.addEventListener("controllerchange", () => yes(true), {once: true})),
      new Promise((no) => setTimeout(() => no(false), 30000))]);
    registration.active.postMessage("claim");
    if (!(await taken)) return false;
  }
  const answers = await Promise.all(where.keep.split(" ").map((address) => fetch(address).then(
    async (r) => { await r.arrayBuffer(); return r.ok && !r.redirected; })));
  return answers.every(Boolean);  // false: something was not there to keep (Pyodide not installed on the server)
};
const idle = () => new Promise((go) => ("requestIdleCallback" in window ? requestIdleCallback(go, {timeout: 5000}) : setTimeout(go, 1000)));
window.refereeKept = idle().then(keep).catch(() => false);

// --- The entries kept on this tablet (IndexedDB): they outlive the page, the browser closed and opened again ----
// One value per table (its screen's address): the record the tablet opened (as the server last sent it) and the
// entries recorded on the tablet since, each {key, entry, after}, in order.  Written before the screen shows a tap
// recorded: what the referee saw recorded is kept.
const KEPT_DB = "referee-kept";
const within = (mode, work) => inDatabase(KEPT_DB, "tables", mode, work);  // on the kept tables
const keptOf = (name) => within("readonly", (tables) => { const got = tables.get(name); return () => got.result; });
// A table's value changed in one transaction (read and written together: a tap kept and a sync's end never
// interleave): ``change(value)`` gives the new value, or undefined to let it go; the new value is given back.
const update = (name, change) => within("readwrite", (tables) => {
  let changed;
  const got = tables.get(name);
  got.onsuccess = () => {
    changed = change(got.result);
    if (changed === undefined) tables.delete(name); else tables.put(changed, name);
  };
  return () => changed;
});
window.refereeKeptEntries = async () => (region() ? keptOf(nameOf()) : undefined);

// --- The tablet referees while the server cannot be reached ------------------------------------------------------
// The screen's live region carries what the tablet needs beyond the record (data-kept: the clock, the judge's line,
// the form token).  When the server cannot be reached (referee.js marks the page offline), or the tablet holds
// entries not yet on the server (the page opened again), the tablet opens the table from the record and its kept
// entries, draws the region itself (with its banner: how many entries it keeps) and takes the entry forms' taps:
// each read, checked and drawn by the Python, kept, shown.  The region's polls wait; once the server answers, the
// kept entries are sent in order (POST /games/ID/sync) and the server's screen comes back with what it recorded.
const body = document.body;
const region = () => document.querySelector("#tablelive[data-kept]");
// the device's language (its language menu's cookie), else the page's: a page opened offline is the kept copy of
// the last one loaded, perhaps in the language the device had then
const chosen = document.cookie.split("; ").find((c) => c.startsWith("lang="));
const language = (chosen && chosen.slice(5)) || document.documentElement.lang || "en";
let table = null;  // the Python's TabletTable, while the tablet referees
let warmed = null;
window.refereeWarmed = new Promise((done) => { warmed = done; });  // every template compiled (a benchmark waits)
let record = "";  // the record it was opened from
let opening = null;
let busy = false;
let syncing = false;
let stuck = false;  // the server refused the kept run: it waits for the referee (the page reloaded)
let keptName = null;  // the name a game on the tablet alone is kept under (else a table's: its screen's address)
const nameOf = () => keptName || region().dataset.panelsPath;

const draw = (html) => {
  const box = document.createElement("div");
  box.innerHTML = html;
  const fresh = box.querySelector("#tablelive");
  const live = region() || document.getElementById("tablelive");
  if (!fresh || !live) return;
  live.replaceWith(fresh);
  if (window.htmx) window.htmx.process(fresh);
  document.dispatchEvent(new CustomEvent("referee:drawn"));
};
const flash = (kind, words) => {  // a line the server said (in the device's language), above the screen
  const line = document.createElement("div");
  line.className = `flash ${kind}`;
  line.setAttribute("role", "status");
  line.textContent = words;
  const live = region();
  if (live) live.prepend(line);
};

// What the server's screen last said of a table beyond its record (its data-kept: the clock, the judge's line...),
// with when the tablet saw it (its time, seconds): a page opened offline is the kept copy of the last one loaded,
// as old as that, so the tablet takes the table from the latest the server said and runs its clock on from then
// (a reload, the browser closed and opened again: the clock does not go back).  Kept for each new drawing of the
// region from the server (its version: the same drawing seen again keeps the time it was first seen), from a poll
// or a tap's answer, and from the page itself unless it is no newer than what is kept (a kept copy: at an entry
// before the kept one, or at the same with its clock no further on; the server's own page at the same entry has
// its clock as far on as the kept one, or further).
const SAID = "referee-said ";
const keepSaid = (fromServer) => {
  const live = region();
  if (!live || table || where.alone) return;
  const name = SAID + live.dataset.panelsPath;
  const seq = Number(live.dataset.seq);
  try {
    const was = JSON.parse(localStorage.getItem(name) || "null");
    const run = (kept) => JSON.parse(kept).elapsed;
    const older = () => was.seq > seq || (was.seq === seq && run(was.kept) >= run(live.dataset.kept));
    if (was && (was.version === live.dataset.version || (!fromServer && older()))) return;
    const said = {kept: live.dataset.kept, seq, version: live.dataset.version, seen: Date.now() / 1000};
    localStorage.setItem(name, JSON.stringify(said));
  } catch (error) { /* not kept (no room): the page's own facts serve */ }
};
// (the form token always the page's own: the session's now, which a browser closed and opened again has changed,
// and a page loaded again on the network brings anew)
const latestSaid = (live) => {
  let said = null;
  try { said = JSON.parse(localStorage.getItem(SAID + live.dataset.panelsPath) || "null"); } catch (error) { said = null; }
  const page = JSON.parse(live.dataset.kept);
  const facts = said && said.seq >= Number(live.dataset.seq) ? {...JSON.parse(said.kept), seen: said.seen, csrf: page.csrf}
    : page;
  return JSON.stringify(facts);
};

// --- Beside the server's screen: the table folded on the tablet too, to take a tap at once ----------------------
// Once the tablet keeps what it needs (refereeKept), its Python starts in the background and opens the table as the
// screen shows it (the standby); each tap the server answers is followed there too.  A tap the server does not
// answer within QUICK_MS (a slow or lossy network, a server that stopped), or that cannot be sent, is taken by the
// standby at once, kept and sent behind the screen like any offline tap (the server knows a tap that reached it
// by its key, and records nothing twice): the referee never waits on the network.
const QUICK_MS = 700;
let standby = null;
let warming = null;
let shownSeq = region() ? region().dataset.seq : null;
const keepRecord = () => fetch(where.record, {cache: "no-store"}).then((r) => {  // (the service worker keeps it)
  if (!r.ok) throw new Error(`the record: ${r.status}`);
  return r.text();
});
const warmStandby = () => {
  if (!where.keep || where.alone || !region()) return;
  const tried = region().dataset.seq;
  warming = warming || (async () => {
    const py = await python();
    const text = await keepRecord();
    const live = region();
    if (table || !live) return;
    const opened = py.globals.get("open_table")(text, live.dataset.kept, language, where.root || "");
    if (opened.table.seq !== Number(live.dataset.seq)) { opened.destroy(); return; }
    if (standby) standby.destroy();
    standby = opened;
  })().catch(() => undefined).finally(() => {
    warming = null;
    const live = region();  // the screen moved on meanwhile: once more
    if (!standby && !table && live && live.dataset.seq !== tried) setTimeout(warmStandby, 0);
  });
};
const ready = () => standby && !table && region() && standby.table.seq === Number(region().dataset.seq);
// The standby takes the table over: what the screen says beyond the record read now, nothing kept yet.
const standbyTakes = () => {
  standby.resume_json(region().dataset.kept);
  table = standby;
  standby = null;
  record = table.kept_record();
  body.dataset.tablet = "1";
  warmTemplates();
};
// A tap the server answered in time, followed by the standby (after the answer is shown): recorded there as the
// server recorded it; a tap the server refused is not (refused as stale, another entry came first: the standby is
// then behind the screen, and opened anew).  The kept copy of the record follows, now and then.
const RECORD_EVERY_MS = 5000;
let recordAt = -Infinity;
let recordDue = null;
const keepRecordSoon = () => {  // now, or once RECORD_EVERY_MS has passed since the last: never one entry behind
  if (recordDue !== null) return;
  recordDue = setTimeout(() => {
    recordDue = null;
    recordAt = performance.now();
    keepRecord().catch(() => undefined);
  }, Math.max(0, RECORD_EVERY_MS - (performance.now() - recordAt)));
};
const follow = (pairs) => setTimeout(() => {
  const live = region();
  if (!standby || table || !live) return;
  if (!live.querySelector(":scope > .flash.refused")) {
    try { standby.follow_json(JSON.stringify(pairs)); } catch (error) { /* judged below */ }
  }
  if (standby.table.seq !== Number(live.dataset.seq)) { standby.destroy(); standby = null; warmStandby(); return; }
  keepRecordSoon();
}, 0);
addEventListener("visibilitychange", () => {  // the tablet put down: its kept copy as the screen shows it
  if (document.visibilityState === "hidden" && ready()) keepRecord().catch(() => undefined);
});
// Sent, and taken by the tablet if the server is slow: the server's answer drawn if it comes within QUICK_MS and
// the tablet has not taken the table meanwhile (the network lost as the tap went: the tablet takes the tap too, its
// key making it once on the server); else the standby takes it.  With no standby at the screen's entry, the
// server's answer is waited for, LATE_MS at most, and then the screen loaded again.
const LATE_MS = 15000;
const quickTap = async (target, pairs) => {
  const sent = fetch(target, {method: "POST", body: new URLSearchParams(pairs), cache: "no-store",
                              headers: {"HX-Request": "true"}})
    .then(async (answer) => ({answer, html: answer.ok ? await answer.text() : ""}));
  sent.catch(() => undefined);
  let said = null;
  try {
    said = await Promise.race([sent, new Promise((late) => setTimeout(() => late(null), QUICK_MS))]);
  } catch (lost) {
    said = null;
  }
  if (table) { await takeTap(pairs, false); return; }
  const answered = (got) => {
    const redirect = got.answer.headers.get("HX-Redirect");
    if (redirect) { location.assign(redirect); return; }
    if (!got.html.includes('id="tablelive"')) { location.reload(); return; }
    draw(got.html);
    shownSeq = region() ? region().dataset.seq : shownSeq;
    keepSaid(true);
    follow(pairs);
  };
  if (said && said.answer.status < 502) { answered(said); return; }
  if (ready()) {
    standbyTakes();
    table.waited = true;  // its banner: the server slow to answer, not cut off
    await takeTap(pairs, false);
    return;
  }
  const late = await Promise.race([sent.catch(() => null), new Promise((wait) => setTimeout(() => wait(null), LATE_MS))]);
  if (table) { await takeTap(pairs, false); return; }
  if (late && late.answer.status < 502) answered(late); else location.reload();
};

const takeOver = () => {
  opening = opening || (async () => {
    const live = region();
    if (!live || table || !where.keep) return;  // the app keeps nothing for the tablets (TABLETS_KEEP_OFFLINE)
    const name = live.dataset.panelsPath;
    const kept = await keptOf(name);
    if (table) return;  // (a slow tap's fallback took the table meanwhile)
    if (!kept && ready()) {  // the standby has the table as the screen shows it
      standbyTakes();
      draw(table.region());
      return;
    }
    const py = await python();
    const text = kept ? kept.record : await fetch(where.record).then((r) => {
      if (!r.ok) throw new Error(`the record: ${r.status}`);
      return r.text();
    });
    if (table) return;
    const opened = py.globals.get("open_table")(text, latestSaid(live), language, where.root || "");
    if (kept) opened.replay_json(JSON.stringify(kept.entries));
    // (with entries kept, the record they follow is the tablet's, whatever the screen shows since)
    if (!kept && opened.table.seq < Number(live.dataset.seq)) {  // the tablet's copy is older than the screen
      opened.destroy();
      throw new Error("this tablet's copy of the record is older than its screen: it cannot referee offline");
    }
    if (standby) { standby.destroy(); standby = null; }
    table = opened;
    record = text;
    body.dataset.tablet = "1";
    draw(table.region());
    warmTemplates();
  })().catch((error) => { console.warn("the tablet cannot referee:", error); }).finally(() => { opening = null; });
  return opening;
};

// The server has every entry: its screen again, with what it recorded (unless taps were taken meanwhile: the
// tablet goes on, and sends them at the next beat).  The tablet's table stays beside it as the standby when the
// server's record is the tablet's (``same``: its run recorded as it was sent), else a standby is opened anew.
const giveBack = async (words, same) => {
  const answer = await fetch(`${region().dataset.panelsPath}?v=synced`, {headers: {"HX-Request": "true"}, cache: "no-store"});
  if (!answer.ok) return false;
  const html = await answer.text();
  const kept = await keptOf(nameOf()).catch(() => undefined);
  if (busy || (kept && kept.entries.length)) return false;
  const was = table;
  table = null;
  delete body.dataset.tablet;
  draw(html);
  if (words) flash("done", words);
  const live = region();
  shownSeq = live ? live.dataset.seq : shownSeq;
  keepSaid(true);
  keepRecordSoon();  // the kept copy of the record with what was just recorded
  if (was && same && live && was.table.seq === Number(live.dataset.seq)) {
    was.resume_json(live.dataset.kept);
    standby = was;
  } else {
    if (was) was.destroy();
    warmStandby();
  }
  return true;
};
// the screens' other templates compiled while the referee reads this one, one at a time, between taps
const warmTemplates = () => idle().then(() => { const on = table || standby; if (on && on.screens.warm()) warmTemplates(); else warmed(); });

// The forms the tablet answers while it referees: an entry's and the redo of a void's entries (both kept and sent
// like any tap), and, for a game on the tablet alone, its clock's.
const TAKEN = ["/record", "/redo"];
// A tap taken by the tablet's Python (the table it referees): checked, kept, its answer drawn.
const takeTap = async (pairs, redo) => {
  const name = nameOf();
  const open = [...region().querySelectorAll("details[data-panel][open]")].map((d) => d.dataset.panel);
  const said = redo ? table.redo_json : table.tap_json;
  const answer = JSON.parse(said(JSON.stringify(pairs), JSON.stringify(open)));
  if (answer.kept.length) {
    try {
      const clock = keptName !== null ? {clock: JSON.parse(table.clock_json())} : {};  // a game alone's, as it runs
      await update(name, (kept) => ({...(kept || {record}), entries: [...(kept ? kept.entries : []), ...answer.kept],
                                     at: Date.now(), ...clock}));
    } catch (error) {  // not kept (the device's storage full or refused): not recorded either
      table.destroy();
      table = null;
      await (keptName !== null ? openAlone(keptName) : takeOver());
      if (table) draw(table.not_kept());
      return;
    }
    holding = keptName === null;
  }
  draw(answer.region);
};
document.addEventListener("submit", async (e) => {
  // an entry form's (a button's own formaction, such as the trade builder's check, is not recorded here)
  // (the form's attribute, not form.action: a control named "action", the clock's buttons, would stand in for it)
  const target = e.submitter && e.submitter.hasAttribute("formaction") ? e.submitter.formAction
    : new URL(e.target.getAttribute("action") || "", location.href).href;
  const clock = keptName !== null && target.endsWith("/clock");
  // online, with the standby ready: the server first, the tablet if the server is slow to answer
  const quick = ready() && target.endsWith("/record") && !body.dataset.offline && navigator.onLine;
  if (!quick && (!table || !(clock || TAKEN.some((end) => target.endsWith(end))))) return;  // others: referee.js
  e.preventDefault();
  e.stopImmediatePropagation();
  // one tap at a time (a double tap's second finds the first's screen, which referee.js arms); a conflict waits
  // for the referee's choice first
  if (busy || stuck) return;
  busy = true;
  try {
    const pairs = [...new FormData(e.target, e.submitter)].map(([field, value]) => [field, String(value)]);
    if (quick) {
      await quickTap(target, pairs);
    } else if (clock) {
      const drawn = table.set_clock(new Map(pairs).get("action") || "");
      const now = JSON.parse(table.clock_json());
      await update(nameOf(), (kept) => (kept ? {...kept, clock: now} : undefined));
      draw(drawn);
    } else {
      await takeTap(pairs, target.endsWith("/redo"));
    }
  } catch (error) {
    console.error("the tablet could not take the tap:", error);
  } finally {
    busy = false;
  }
}, true);

// While the tablet referees, the region's polls wait (the server's region would hide the kept entries), and a
// panel opened is drawn by the tablet (as the server's table.panel draws it).
document.addEventListener("htmx:beforeRequest", (e) => {
  const elt = e.detail.elt;
  if (where.alone && elt && elt.matches && elt.matches(".live")) { e.preventDefault(); return; }  // no server's table
  if (!table || !elt || !elt.matches) return;
  if (elt.matches(".live")) { e.preventDefault(); return; }
  if (elt.matches("details[data-panel]")) {
    e.preventDefault();
    const contents = elt.querySelector(".panel-body");
    contents.innerHTML = table.panel(elt.dataset.panel);
    if (window.htmx) window.htmx.process(contents);
  }
});

// Refused (another device recorded at this table meanwhile, a tap the rules refuse there...): the entries stay
// kept, nothing more is sent, and the screen says why.  A conflict is drawn by the tablet's Python: both records
// from the first difference and the referee's two choices (each sent with the kept run, POST /games/ID/sync).
const refused = (said) => {
  stuck = true;
  body.dataset.conflict = "1";
  if (said.conflict && table) { draw(table.conflict_json(JSON.stringify(said))); return; }
  flash("refused", said.message || said.refused || (said.refusal && said.refusal.message) || "");
};
const choose = async (choice, seen) => {
  const live = region();
  const name = nameOf();
  const kept = await keptOf(name);
  if (!kept || syncing) return;
  syncing = true;
  try {
    const answer = await fetch(where.sync, {
      method: "POST", cache: "no-store", body: JSON.stringify({taps: kept.entries, choice, seen}),
      headers: {"Content-Type": "application/json", "X-CSRFToken": JSON.parse(live.dataset.kept).csrf}});
    const said = await answer.json().catch(() => null);
    if (!said) { unanswered(answer); return; }  // the choice stays on the screen, to be made again
    if (!answer.ok) { refused(said); return; }  // the table moved on since: the conflict as it is now
    await update(name, () => undefined);
    holding = false;
    // the choice recorded: the screen stays as it is (no tap taken) until the server's is drawn
    const drawn = await giveBack(said.message, false).catch(() => false);
    stuck = false;
    delete body.dataset.conflict;
    if (!drawn) location.reload();
  } catch (error) {
    // not reached: the choice stays on the screen
  } finally {
    syncing = false;
  }
};
document.addEventListener("click", (e) => {
  const button = e.target.closest && e.target.closest("#sync-conflict [data-choice]");
  if (!button) return;
  e.preventDefault();
  choose(button.dataset.choice, Number(button.closest("#sync-conflict").dataset.seen));
});

// The record as the tablet has it, saved as a record file (the server's import replays it): for a venue whose
// server is gone for good.
const saveFile = (text, name) => {
  const file = new Blob([text], {type: "application/x-ndjson"});
  const link = document.createElement("a");
  link.href = URL.createObjectURL(file);
  link.download = name;
  link.dataset.keptFile = "";  // a click referee.js lets through offline
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
};
const fileName = (name) => (name !== null ? `${name.replace(":", "-")}.jsonl`
  : `game-${JSON.parse(region().dataset.kept).game}-kept-on-tablet.jsonl`);
document.addEventListener("click", (e) => {
  if (!table || !e.target.closest || !e.target.closest("#kept-export")) return;
  saveFile(table.record_text(), fileName(keptName));
});

// An answer that is not the sync's: the app's PIN screen (this tablet's unlock ended while it was cut off: the
// referee unlocks it again, and the entries, kept, are sent from the table screen it comes back to), the app's
// refusal of a form token that is no longer the session's (the screen loaded again gives a new one, once), or a
// proxy's page (the server not reached: sent again at the next beat).
const unanswered = (answer) => {
  if (answer.redirected) { location.assign(answer.url); return; }
  if ((answer.status === 400 || answer.status === 403) && !sessionStorage.getItem("referee-sync-reloaded")) {
    sessionStorage.setItem("referee-sync-reloaded", "1");
    location.reload();
  }
};

// Sent even when the tablet's Python could not start again (the page reopened): the entries are in IndexedDB.
let holding = false;  // entries are kept for this table
const send = async () => {
  const live = region();
  if (where.alone || !live || (!table && !holding) || syncing || stuck || body.dataset.offline || !navigator.onLine) return;
  const name = nameOf();
  const kept = await keptOf(name);
  holding = Boolean(kept && kept.entries.length);
  if (!holding) { if (table) await giveBack("", true); return; }
  syncing = true;
  try {
    const run = kept.entries.slice();
    const answer = await fetch(where.sync, {
      method: "POST", cache: "no-store", body: JSON.stringify({taps: run}),
      headers: {"Content-Type": "application/json", "X-CSRFToken": JSON.parse(live.dataset.kept).csrf}});
    const said = await answer.json().catch(() => null);
    if (!said) { unanswered(answer); return; }
    if (answer.ok) {
      // Taps taken while the run was on its way: all are kept, and sent again at the next beat (those the server
      // has are known by their keys and counted, not recorded twice).  Else the server has every one.  A tap being
      // taken now is let finish first (the Python has recorded it; its keeping follows).
      while (busy) await new Promise((go) => setTimeout(go, 20));
      const left = await update(name, (now) => (now && now.entries.length > run.length ? now : undefined));
      if (left) return;
      holding = false;
      if (table) record = table.kept_record();  // the record a tap taken from now on follows
      await giveBack(said.message, true);
      return;
    }
    refused(said);
  } catch (error) {
    // not reached: tried again at the next beat
  } finally {
    syncing = false;
  }
};
setInterval(send, 1000);

// The tablet's copy of the record follows the screen: each new entry shown (another device's, a poll's), it is asked
// for again (through the service worker, which keeps the copy that answers when the network is gone), and the
// standby opened on it.
document.addEventListener("htmx:afterSettle", () => {
  const live = region();
  if (live && !table) keepSaid(true);  // a region from the server
  if (!live || table || live.dataset.seq === shownSeq) return;
  shownSeq = live.dataset.seq;
  if (ready()) keepRecord().catch(() => undefined);
  else warmStandby();
});
window.refereeKept.then((kept) => { if (kept && !where.alone) idle().then(warmStandby); });
window.refereeStandby = () => Boolean(ready());  // the table folded beside the screen, at its entry (tests wait)

// The screen cut off (referee.js marks it), or entries kept from before: the tablet referees.
new MutationObserver(() => {
  if (body.dataset.offline && table && !where.alone) table.waited = false;  // cut off now: said at the next tap
  if (body.dataset.offline && !table && !where.alone) takeOver();
})
  .observe(body, {attributes: true, attributeFilter: ["data-offline"]});
if (region() && !where.alone) {
  keepSaid(false);
  keptOf(region().dataset.panelsPath).then((kept) => {
    holding = Boolean(kept && kept.entries.length);
    if (holding) takeOver();
  }).catch(() => undefined);
}

// --- Games on the tablet alone (the page /offline/table): no server at all ------------------------------------
// The tablet's Python makes a game from the new-game form (the server's fields), keeps it under a name of its own
// ("alone:" and when it was made), draws the list of the games kept here and the table screen of the one open,
// and answers its taps as it answers a table's whose server cannot be reached; nothing is sent, but a game's
// record to the server's import when the referee asks (its form, filled with the record as a file).
const ALONE = "alone:";
const alonePart = (which) => {
  for (const id of ["alone-games-part", "alone-table-part"]) document.getElementById(id).hidden = id !== which;
  document.getElementById("alone-send").hidden = true;
};
const aloneKept = () => within("readonly", (tables) => {
  const range = IDBKeyRange.bound(ALONE, `${ALONE}\uffff`);
  const names = tables.getAllKeys(range);
  const values = tables.getAll(range);
  return () => names.result.map((name, i) => [name, values.result[i]]).sort((a, b) => b[1].created - a[1].created);
});
const drawList = async () => {
  const py = await python();
  const box = document.getElementById("alone-games");
  box.innerHTML = py.globals.get("alone_list")(JSON.stringify(await aloneKept()), language, where.root || "");
  box.dataset.drawn = "1";
};
const openAlone = async (name) => {
  const kept = await keptOf(name);
  if (!kept) return;
  const py = await python();
  if (table) table.destroy();
  table = py.globals.get("open_alone")(JSON.stringify(kept), language, where.root || "");
  keptName = name;
  body.dataset.tablet = "1";
  alonePart("alone-table-part");
  document.getElementById("tablelive").replaceWith(Object.assign(document.createElement("div"), {id: "tablelive"}));
  draw(table.region());
  history.replaceState(null, "", `#${name}`);
  warmTemplates();
};
const closeAlone = async () => {
  if (table) table.destroy();
  table = null;
  keptName = null;
  // its region goes with it: a region left on the page would poll a server that has no such table
  document.getElementById("tablelive").replaceWith(Object.assign(document.createElement("div"), {id: "tablelive"}));
  delete body.dataset.tablet;
  history.replaceState(null, "", location.pathname + location.search);
  alonePart("alone-games-part");
  await drawList();
};
// A listed game's record as a file (the tablet's Python writes it, with the hash its entries chain to).
const recordOf = async (name) => {
  const py = await python();
  const opened = py.globals.get("open_alone")(JSON.stringify(await keptOf(name)), language, where.root || "");
  try { return opened.record_text(); } finally { opened.destroy(); }
};

if (where.alone) {
  body.dataset.alone = "1";
  const status = document.getElementById("alone-status");
  const made = document.getElementById("alone-new");
  python().then(async () => {
    made.querySelector("button[type=submit]").disabled = false;
    await drawList();
    const asked = decodeURIComponent(location.hash.slice(1));
    if (asked.startsWith(ALONE)) await openAlone(asked);
    status.textContent = (await window.refereeKept) ? status.dataset.ready : status.dataset.unkept;
    status.classList.add("done");
  }).catch((error) => {
    console.warn("the tablet cannot referee on its own:", error);
    status.textContent = status.dataset.failed;
    status.classList.add("refused");
  });
  made.addEventListener("submit", async (e) => {
    e.preventDefault();
    e.stopImmediatePropagation();
    if (busy) return;
    busy = true;
    try {
      const py = await python();
      const pairs = [...new FormData(made)].map(([field, value]) => [field, String(value)]);
      const said = JSON.parse(py.globals.get("alone_made")(JSON.stringify(pairs), language, where.root || ""));
      const message = document.getElementById("alone-new-message");
      if (said.refused) { message.innerHTML = said.refused; message.scrollIntoView({block: "center"}); return; }
      message.replaceChildren();
      const now = Date.now();
      const name = `${ALONE}${now}-${Math.random().toString(36).slice(2, 8)}`;
      try {
        await update(name, () => ({record: said.game.record, entries: [], created: now, at: now,
                                   limit_minutes: said.game.limit_minutes, clock: {elapsed: 0, running: false}}));
      } catch (error) {
        message.innerHTML = "";
        message.append(Object.assign(document.createElement("p"), {className: "flash refused", textContent: status.dataset.failed}));
        return;
      }
      made.reset();
      await openAlone(name);
    } finally {
      busy = false;
    }
  }, true);
  document.addEventListener("click", async (e) => {
    const target = e.target.closest ? e.target : null;
    if (!target) return;
    if (target.closest("#alone-close")) { e.preventDefault(); await closeAlone(); return; }
    if (target.closest("#alone-send-cancel")) { document.getElementById("alone-send").hidden = true; return; }
    // a link of the table screen leads to a server's page (a rule's text, the log at an entry): none here
    const link = target.closest("#tablelive a[href]");
    if (link && !link.hasAttribute("data-kept-file")) { e.preventDefault(); return; }
    const button = target.closest("#alone-games [data-alone]");
    if (!button) return;
    const item = button.closest("[data-name]");
    const name = item.dataset.name;
    const what = button.dataset.alone;
    if (what === "open") await openAlone(name);
    else if (what === "file") saveFile(await recordOf(name), fileName(name));
    else if (what === "delete") { await update(name, () => undefined); await drawList(); }
    else if (what === "send") {
      const form = document.getElementById("alone-send");
      const files = new DataTransfer();
      files.items.add(new File([await recordOf(name)], fileName(name), {type: "application/x-ndjson"}));
      document.getElementById("alone-send-record").files = files.files;
      document.getElementById("alone-send-which").textContent = item.querySelector("strong").textContent;
      form.hidden = false;
      form.scrollIntoView({block: "center"});
      document.getElementById("alone-send-pin").focus();
    }
  });
}
