// The play page's service worker: it keeps the page's own files (and the list of levels) so
// that the page opens, and a game in progress goes on, without the server. Each of them is
// asked of the network first, so a reachable server always gives the newest; the kept copy
// answers when the network fails or is slower than three seconds. Nothing else is kept:
// puzzles, hints and results always go to the server (a result that cannot go waits in the
// page's outbox). The server writes its files' version below, so that new files replace the
// kept ones.
"use strict";

const VERSION = "{{VERSION}}";
const CACHE = "pseudoku-" + VERSION;
const SHELL = ["/", "/app.js", "/style.css", "/manifest.webmanifest", "/icon.svg", "/icon-192.png", "/icon-512.png"];
const KEPT = new Set(SHELL.concat(["/v1/levels"]));
const PATIENCE_MS = 3000;

self.addEventListener("install", (event) => {
  // The levels too, when the server gives them without a token (else on the page's first ask).
  const levels = (c) => c.add("/v1/levels").catch(() => undefined);
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL).then(() => levels(c))).then(() => self.skipWaiting()));
});

// The copies of older versions go; this worker takes the open pages at once.
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("pseudoku-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin || !KEPT.has(url.pathname)) return;
  event.respondWith(networkFirst(event.request, url.pathname));
});

// The network's answer (kept when it is a good one), else the kept copy, else the failure.
async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  const network = fetch(request).then((r) => {
    if (r.ok) cache.put(key, r.clone());
    return r;
  });
  const kept = await cache.match(key);
  if (!kept) return network;
  const late = new Promise((resolve) => setTimeout(() => resolve(kept), PATIENCE_MS));
  return Promise.race([network.catch(() => kept), late]);
}
