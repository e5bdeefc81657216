// A drawing's ops in time, for replaying it as it was drawn (replay.py
// computes the same times). Pauses longer than MAX_GAP_MS are shortened to
// it, so a replay shows the drawing, not the thinking.

import { decodeBatch } from "./codec.js";

export const MAX_GAP_MS = 1000;

// [{t, vt, apply(drawing)}] in order; vt is the replay time in ms.
export function timeline(batches, maxGap = MAX_GAP_MS) {
  const events = [];
  let cursor = [0, 0, 0, 0];
  const add = (t, apply) => events.push({ t, vt: 0, apply });
  for (const bytes of batches) {
    let batch;
    try {
      batch = decodeBatch(bytes);
    } catch {
      continue;
    }
    for (const op of batch.ops) {
      switch (op.op) {
        case "begin": {
          const { tool, width, x, y, t, pressure } = op;
          cursor = [x, y, t, pressure ?? 0];
          add(t, (d) => d.begin(tool, width, x, y, t, pressure));
          break;
        }
        case "points": {
          let [x, y, t, p] = cursor;
          const dd = op.deltas;
          for (let i = 0; i < dd.length; i += 4) {
            x += dd[i];
            y += dd[i + 1];
            t += dd[i + 2];
            p += dd[i + 3];
            const pt = [x, y, t, p];
            add(t, (d) => d.point(...pt));
          }
          cursor = [x, y, t, p];
          break;
        }
        case "end":
          add(cursor[2], (d) => d.end());
          break;
        case "undo":
          add(op.t, (d) => d.undo(op.t));
          break;
        case "clear":
          add(op.t, (d) => d.clear(op.t));
          break;
      }
    }
  }
  let vt = 0;
  let prev = events.length ? events[0].t : 0;
  for (const ev of events) {
    vt += Math.min(Math.max(ev.t - prev, 0), maxGap);
    ev.vt = vt;
    prev = ev.t;
  }
  return events;
}
