// nagi's service worker (docs/offline.md): the pages and their assets from the network when the server answers and
// from the cache when it does not, and the sessions a person kept (window.nagi.offline.keep()) from the cache of kept
// sessions, audio ranges included, so a kept session loads and plays on its schedule with the server gone.

const SHELL_CACHE = "nagi-shell-v1";
const KEPT_CACHE = "nagi-kept";
const SHELL = ["/", "/pace", "/manifest.webmanifest", "/favicon.svg", "/assets/common.css", "/assets/studio.css",
  "/assets/pace.css", "/assets/api.js", "/assets/offline.js", "/assets/studio.js", "/assets/pacer.js",
  "/assets/scene.js", "/assets/schedule.js", "/assets/icon-192.png", "/assets/icon-512.png"];

/** The URLs kept for offline use, once read from the cache; until then every API request is checked there. */
let keptURLs = null;

async function readKept() {
  const cache = await caches.open(KEPT_CACHE);
  keptURLs = new Set((await cache.keys()).map((request) => request.url));
}

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

// Read when the worker starts (it may be stopped and started again at any time) and before it takes the pages,
// so that requests of sessions nobody kept go straight to the server (media through a worker is slower, and WebKit
// has failed such loads).
readKept();

self.addEventListener("activate", (event) => {
  event.waitUntil(readKept().then(() => self.clients.claim()));
});

self.addEventListener("message", (event) => {
  if (event.data === "kept-changed") event.waitUntil(readKept());
});

/** A 206 of `response`'s bytes for a `Range: bytes=a-b` header (the audio element asks for ranges). */
async function ranged(response, range) {
  const match = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
  const body = await response.arrayBuffer();
  const size = body.byteLength;
  if (!match || (match[1] === "" && match[2] === "")) return new Response(null, { status: 416, headers: { "Content-Range": `bytes */${size}` } });
  let start;
  let end;
  if (match[1] === "") {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(size - 1, Number(match[2]));
  }
  if (start >= size || start > end) return new Response(null, { status: 416, headers: { "Content-Range": `bytes */${size}` } });
  const headers = new Headers(response.headers);
  headers.set("Content-Range", `bytes ${start}-${end}/${size}`);
  headers.set("Content-Length", String(end - start + 1));
  return new Response(body.slice(start, end + 1), { status: 206, headers });
}

/** The server first; the cache (kept sessions, then the shell) when the server cannot be reached. */
async function networkThenCache(request, url) {
  try {
    const response = await fetch(request);
    if (url.pathname === "/" || url.pathname === "/pace" || url.pathname.startsWith("/assets/")) {
      if (response.ok && request.method === "GET") {
        const copy = response.clone();
        caches.open(SHELL_CACHE).then((cache) => cache.put(url.origin + url.pathname, copy)).catch(() => {});
      }
    }
    return response;
  } catch (error) {
    const kept = await (await caches.open(KEPT_CACHE)).match(request.url);
    if (kept) {
      const range = request.headers.get("Range");
      return range ? ranged(kept, range) : kept;
    }
    const shell = await (await caches.open(SHELL_CACHE)).match(request, { ignoreSearch: true });
    if (shell) return shell;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // The API goes straight to the server unless the request is one a person kept (or the kept list is not read yet).
  if (url.pathname.startsWith("/api/") && keptURLs && !keptURLs.has(request.url)) return;
  event.respondWith(networkThenCache(request, url));
});
