// The table's tablet keeps what it needs to go on refereeing when the venue's network or the server fails: a
// service worker (registered by offline.js from a table screen) keeps Pyodide's files and the app's static files
// (their addresses name their versions: kept as they are, asked for once), and the last copy of each table
// screen, its record and the offline kit (asked for on the network first; the kept copy answers when the network
// does not).  A table screen opened once on the network then opens again with the network gone, its engine with it.
// The live polls, the forms and every other request go to the network as they always did: their failing is how a
// screen knows it is cut off.
"use strict";
const KEPT = "referee-offline-1";
const base = new URL(self.registration.scope).pathname;  // "/" (or the path the app is served under)
const VERSIONED = [`${base}offline/pyodide/`, `${base}static/`];
const TABLE = new RegExp(`^${base}games/\\d+(/record\\.jsonl)?$`);
const KIT = `${base}offline/kit.zip`;

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

const keptFirst = async (request) => {
  const cache = await caches.open(KEPT);
  const kept = await cache.match(request);
  if (kept) return kept;
  const answer = await fetch(request);
  if (answer.ok) await cache.put(request, answer.clone());
  return answer;
};

const networkFirst = async (request) => {
  const cache = await caches.open(KEPT);
  try {
    const answer = await fetch(request);
    if (answer.ok) await cache.put(request, answer.clone());
    return answer;
  } catch (lost) {
    const kept = await cache.match(request, {ignoreSearch: false});
    if (kept) return kept;
    throw lost;
  }
};

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (VERSIONED.some((path) => url.pathname.startsWith(path)) &&
      (url.pathname.startsWith(VERSIONED[0]) || url.searchParams.has("v"))) {
    event.respondWith(keptFirst(request));
  } else if (url.pathname === KIT || (TABLE.test(url.pathname) && url.search === "")) {
    event.respondWith(networkFirst(request));
  }
});
