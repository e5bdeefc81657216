// placeholder while the round screen is written
export class PictomaniaScreen {
  constructor(room) { this.room = room; this.root = null; }
  mounted() { return false; }
  update(state) { this.room.shell(null, document.createTextNode(JSON.stringify(state.game).slice(0, 500))); }
}
