// The ink demo page (demo.html); a file of its own, as the CSP allows no inline script.
import { InkSurface, InkViewer } from "../../web/ink/surface.js";
import { decodeBatch } from "../../web/ink/codec.js";

const stats = { batches: 0, bytes: 0, points: 0 };
const sent = [];
const $ = (id) => document.getElementById(id);
const colour = $("colour").value;

const echo = new InkViewer($("echo"), { colour });
const drawer = new InkSurface($("drawer"), {
  colour,
  onBatch(bytes) {
    sent.push(bytes);
    stats.batches += 1;
    stats.bytes += bytes.length;
    stats.points += decodeBatch(bytes).points;
    echo.applyRemote(bytes);
    const per = stats.points ? (stats.bytes / stats.points).toFixed(2) : "-";
    $("stats").textContent = `${stats.batches} batches, ${stats.bytes} bytes, ` +
      `${stats.points} points: ${per} bytes per point`;
  },
  onChange(s) {
    $("undo").disabled = !s.canUndo;
  },
});

function pick(tool) {
  drawer.setTool(tool);
  $("pen").setAttribute("aria-pressed", String(drawer.tool === "pen"));
  $("eraser").setAttribute("aria-pressed", String(drawer.tool === "eraser"));
}
$("pen").onclick = () => pick("pen");
$("eraser").onclick = () => pick("eraser");
$("undo").onclick = () => drawer.undo();
$("clear").onclick = () => drawer.clear();
$("replay").onclick = () => echo.replay(sent, 1);
$("colour").oninput = (e) => {
  drawer.setColour(e.target.value);
  echo.setColour(e.target.value);
};

window.demo = { drawer, echo, stats, sent };
