// The table's tablet keeps what it needs to go on refereeing when the venue's network or the server fails: a
// service worker (registered by offline.js from a table screen) keeps Pyodide's files and the app's static files
// (their addresses name their versions: kept as they are, asked for once), and the last copy of each table
// screen, its record, the offline kit and the page of the games on a tablet alone (asked for on the network first; the kept copy answers when the network
// does not).  A table screen opened once on the network then opens again with the network gone, its engine with it.
// The live polls, the forms and every other request go to the network as they always did: their failing is how a
// screen knows it is cut off.
"use strict";
const KEPT = "referee-offline-2";  // renamed when what is kept changes: an older worker's copies are let go
const base = new URL(self.registration.scope).pathname;  // "/" (or the path the app is served under)
const VERSIONED = [`${base}offline/pyodide/`, `${base}static/`];
const TABLE = new RegExp(`^${base}games/\\d+(/record\\.jsonl)?$`);
const KIT = `${base}offline/kit.zip`;
const ALONE = `${base}offline/table`;  // the page of the games on a tablet alone
const SAID = /^\?said=[^&]*$/;  // a table's screen a record sent the tablet on to (its one-time name)

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil((async () => {
  for (const name of await caches.keys()) if (name !== KEPT) await caches.delete(name);  // an older worker's
  await self.clients.claim();
})()));
// A page loaded while this worker was starting can be left out of the claim above: it asks (offline.js).
self.addEventListener("message", (event) => {
  if (event.data === "claim") event.waitUntil(self.clients.claim());
});

// Kept only as this app's own whole answer to the address asked (not a redirect: a PIN screen the request was sent
// to is no copy of the table screen), and a versioned file only when the server says it never changes.  A copy
// that cannot be kept (the device's storage full) changes nothing of the answer.
const keepable = (answer) => answer.ok && !answer.redirected && answer.type === "basic";
const keep = (event, request, answer) => {
  event.waitUntil(caches.open(KEPT).then((cache) => cache.put(request, answer)).catch(() => undefined));
};
const GONE = new Set([502, 503, 504]);  // a proxy's answer for an app it cannot reach: the kept copy is better
const kept = (request) => caches.match(request, {cacheName: KEPT}).catch(() => undefined);

const keptFirst = async (event, request) => {
  const copy = await kept(request);
  if (copy) return copy;
  const answer = await fetch(request);
  if (keepable(answer) && /immutable/.test(answer.headers.get("Cache-Control") || "")) {
    keep(event, request, answer.clone());
  }
  return answer;
};

// ``as``: the address the copy is kept under (a table's screen that a record sent the tablet on to, its address
// naming that one answer: kept as the table's screen, its latest copy).
const networkFirst = async (event, request, as = request) => {
  let answer;
  try {
    answer = await fetch(request);
  } catch (lost) {
    const copy = await kept(as);
    if (copy) return copy;
    throw lost;
  }
  if (keepable(answer)) {
    keep(event, as, answer.clone());
  } else if (GONE.has(answer.status)) {
    const copy = await kept(as);
    if (copy) return copy;
  }
  return answer;
};

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(VERSIONED[0]) || (url.pathname.startsWith(VERSIONED[1]) && url.searchParams.has("v"))) {
    event.respondWith(keptFirst(event, request));
  } else if (url.pathname === KIT || ((TABLE.test(url.pathname) || url.pathname === ALONE) && url.search === "")) {
    event.respondWith(networkFirst(event, request));
  } else if (TABLE.test(url.pathname) && SAID.test(url.search)) {
    event.respondWith(networkFirst(event, request, new Request(url.origin + url.pathname)));
  }
});
