// The table's engine in the tablet itself: Pyodide (CPython compiled to WebAssembly, served by this app) running the
// project's own Python from the offline kit (the engine, referee/tablet, the rulesets' values), so that a tap can be
// checked by the same rules as on the server when the server cannot be reached.  Nothing here decides anything: it
// hands the tap to the Python and gives back its answer.
//   const table = await refereeTablet();  // where Pyodide and the kit are: this script's element says (table.html)
//   await table.open(recordText);  // the record as /games/ID/record.jsonl exports it
//   table.tap({type: "roll", player: "Aki", dice: [3, 4]});  // {recorded, seq, waiting, refusal: {code, message, clause, rule}}
let started = null;

const start = async ({pyodide, kit}) => {
  const {loadPyodide} = await import(pyodide);
  const [python, zip] = await Promise.all([
    loadPyodide({indexURL: new URL(".", new URL(pyodide, location.href)).href, fullStdLib: false}),
    fetch(kit).then((r) => { if (!r.ok) throw new Error(`the offline kit: ${r.status}`); return r.arrayBuffer(); }),
  ]);
  python.unpackArchive(zip, "zip", {extractDir: "/referee-kit"});
  python.runPython(`
import json, sys
sys.path.insert(0, "/referee-kit")
from referee.tablet import KeptTable
with open("/referee-kit/rulesets.json", encoding="utf-8") as f:
    RULESETS = json.load(f)
`);
  return python;
};

const where = document.getElementById("referee-offline").dataset;

// Pyodide that cannot start (its WebAssembly refused, a file missing from the tablet) may never say so: it is given
// up after START_MS, and tried again at the next call.
const START_MS = 120000;
const startOnce = () => Promise.race([start(where), new Promise((_, fail) => setTimeout(
  () => fail(new Error(`Pyodide did not start within ${START_MS / 1000} s`)), START_MS))]);

export const refereeTablet = async () => {
  started = started || startOnce().catch((error) => { started = null; throw error; });
  const python = await started;
  let table = null;
  return {
    async open(record) {
      table = python.globals.get("KeptTable")(python.globals.get("RULESETS"), record);
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
// table's record, fetched once in the background while the screen is idle (about 6.7 MB the first time, then
// nothing: their addresses name their versions).  A browser that has no service worker here (a page served over
// plain http at a venue's address is not a secure context) keeps nothing: refereeKept says false.
const keep = async () => {
  if (!("serviceWorker" in navigator) || !where.worker) return false;
  await navigator.serviceWorker.register(where.worker, {scope: where.scope});
  await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller) {  // the worker takes this page over as it starts (clients.claim)
    const taken = await Promise.race([
      new Promise((yes) => navigator.serviceWorker.addEventListener("controllerchange", () => yes(true), {once: true})),
      new Promise((no) => setTimeout(() => no(false), 30000))]);
    if (!taken) return false;
  }
  const answers = await Promise.all(where.keep.split(" ").map((address) => fetch(address).then(
    async (r) => { await r.arrayBuffer(); return r.ok && !r.redirected; })));
  return answers.every(Boolean);  // false: something was not there to keep (Pyodide not installed on the server)
};
const idle = () => new Promise((go) => ("requestIdleCallback" in window ? requestIdleCallback(go, {timeout: 5000}) : setTimeout(go, 1000)));
window.refereeKept = idle().then(keep).catch(() => false);
