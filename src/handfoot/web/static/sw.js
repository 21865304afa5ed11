// The service worker: shows a "your turn" notice pushed by the server (Web Push, encrypted
// for this browser) and opens the seat when it is clicked. It handles no fetch: the pages
// always come from the server.

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(self.registration.showNotification(data.title || "handfoot: your turn", {
    body: data.body || "It is your turn.",
    tag: data.tag || "handfoot",
    icon: "/static/icon-192.png",
    badge: "/static/icon-192.png",
    data: { url: data.url || "/games" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  let url = new URL(event.notification.data?.url || "/games", self.location.origin);
  if (url.origin !== self.location.origin) url = new URL("/games", self.location.origin);
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const w of windows) {
      if (w.url === url.href && "focus" in w) return w.focus();
    }
    return self.clients.openWindow(url.href);
  })());
});
