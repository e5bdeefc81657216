// Tally's one screen: the count, whose turn it is, the two moves, the winner.

import { h } from "../dom.js";
import { playerName, t } from "../i18n.js";

export class TallyScreen {
  constructor(room) {
    this.room = room;
    this.root = null;
  }

  mounted() {
    return Boolean(this.root && this.root.isConnected);
  }

  destroy() {}

  name(seat) {
    return playerName(this.room.state.room.players.find((p) => p.seat === seat));
  }

  update(state) {
    const game = state.game;
    const mine = game.to_move !== null && game.to_move === state.you.seat;
    const status =
      game.winner !== null
        ? h("p", { testid: "tally-winner" }, t("tally.winner", { name: this.name(game.winner) }))
        : h(
            "p",
            { testid: "tally-turn" },
            mine ? t("tally.your_turn") : t("tally.their_turn", { name: this.name(game.to_move) }),
          );
    const moves = [1, 2].map((n) =>
      h(
        "button",
        {
          class: "btn primary",
          type: "button",
          testid: `tally-add-${n}`,
          disabled: !mine,
          onclick: () => this.room.send({ t: "act", action: { type: "add", amount: n } }),
        },
        t("tally.add", { n }),
      ),
    );
    this.root = h(
      "main",
      { class: "page", testid: "tally" },
      h(
        "section",
        { class: "card" },
        h("h2", { testid: "tally-count" }, t("tally.count", { total: game.total, target: game.target })),
        status,
        h("div", { class: "actions" }, moves),
      ),
    );
    this.room.shell(h("span", { class: "room-title" }, t("game.tally"), this.room.connectionBadge()), this.root);
  }
}
