// The console's service worker: the console page and its scripts kept for an offline reopen.
//
// Served from /referee/sw.js (its scope covers every console). Pages and scripts are asked
// of the network first and kept; without a network the kept copy answers. The API is
// never answered from here: submissions wait in the page's own queue instead.

const CACHE = "carambole-console-v1";
const SCRIPTS = [
/*SCRIPTS*/
];

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // One by one: a script that cannot be fetched now is kept at its first use instead.
    await Promise.all(SCRIPTS.map((url) => cache.add(url).catch(() => null)));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

function kept(request) {
  if (request.method !== "GET") return false;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return false;
  if (request.mode === "navigate") return url.pathname.startsWith("/referee/matches/");
  return url.pathname.startsWith("/static/") || url.pathname.startsWith("/jsi18n/");
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    // A redirect (to the login page, say) is not the page asked for: never kept in its place.
    if (response.ok && !response.redirected) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const copy = await cache.match(request, { ignoreVary: true });
    if (copy) return copy;
    throw error;
  }
}

// The page names itself and what it loaded before this worker controlled it.
self.addEventListener("message", (event) => {
  const urls = (event.data && event.data.keep) || [];
  const own = urls.filter((url) => new URL(url, self.location.href).origin === self.location.origin);
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await Promise.all(own.map((url) => cache.add(url).catch(() => null)));
    if (event.source) event.source.postMessage({ kept: own.length });
  })());
});

self.addEventListener("fetch", (event) => {
  if (kept(event.request)) event.respondWith(networkFirst(event.request));
});
