// Installable and offline (docs/offline.md): registers the service worker (/sw.js), and keeps a session — its
// schedule, its sound and what the pacer needs to load it — in the cache the service worker serves from when the
// server cannot be reached.

const KEPT_CACHE = "nagi-kept";
const INDEX_PREFIX = "/offline/kept/";

/** The service worker's registration, or null where the browser has none (a page over plain HTTP beyond loopback). */
export const registration = "serviceWorker" in navigator
  ? navigator.serviceWorker.register("/sw.js").catch(() => null)
  : Promise.resolve(null);

/** Stores `urls` (fetched whole, the token going by cookie) and an index entry for the page; resolves once stored and
 * the service worker serves them. `entry`: { page, title, seconds }. */
export async function keep(entry, urls) {
  if (!("caches" in window)) throw new Error("this browser cannot keep sessions (no Cache Storage)");
  if (!(await registration)) throw new Error("this browser cannot keep sessions (no service worker)");
  const worker = await navigator.serviceWorker.ready;
  const cache = await caches.open(KEPT_CACHE);
  for (const url of urls) {
    const response = await fetch(url, { cache: "no-store" });
    if (!response.ok) throw new Error(`the server answered ${response.status} for ${url}`);
    await cache.put(new URL(url, location.href).href, response);
  }
  const record = { ...entry, urls: urls.map((url) => new URL(url, location.href).href), keptAt: new Date().toISOString() };
  await cache.put(new URL(INDEX_PREFIX + encodeURIComponent(entry.page), location.href).href,
    new Response(JSON.stringify(record), { headers: { "Content-Type": "application/json" } }));
  worker.active?.postMessage("kept-changed");
  return record;
}

/** What is kept: one record ({ page, title, seconds, urls, keptAt }) a session. */
export async function list() {
  if (!("caches" in window)) return [];
  const cache = await caches.open(KEPT_CACHE);
  const records = [];
  for (const request of await cache.keys()) {
    if (!new URL(request.url).pathname.startsWith(INDEX_PREFIX)) continue;
    records.push(await (await cache.match(request)).json());
  }
  return records.sort((a, b) => a.keptAt.localeCompare(b.keptAt));
}
