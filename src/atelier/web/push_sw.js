// Web Push in the service worker (docs/protocol.md, "Seats and nudges"): a
// nudge's payload is {room, text}, nothing secret; it shows as a notification
// whose data.url is the room's page, which the worker's notificationclick
// handler opens (or focuses). Loaded by sw.js with importScripts, so a push
// reaches the worker whichever page registered it.

const ROOM_CODE = /^[A-Za-z0-9]{1,16}$/;

function payloadOf(event) {
  try {
    return event.data ? event.data.json() : {};
  } catch {
    return { text: event.data ? event.data.text() : "" };
  }
}

function nudgeOf(event) {
  const data = payloadOf(event) || {};
  const room = typeof data.room === "string" && ROOM_CODE.test(data.room) ? data.room.toUpperCase() : null;
  const text = typeof data.text === "string" ? data.text.slice(0, 200) : "";
  return { room, text };
}

self.addEventListener("push", (event) => {
  const { room, text } = nudgeOf(event);
  event.waitUntil(
    self.registration.showNotification("Atelier", {
      body: text,
      // one notification per room: a newer nudge replaces the last one
      tag: room ? `room-${room}` : "atelier",
      renotify: true,
      data: { url: room ? `/r/${room}` : "/" },
    }),
  );
});
