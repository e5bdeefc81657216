// The vote: every drawing is turned over; a vote is two taps, a drawing and
// then the tile of the word I think is hidden in it. Each of my numbers goes
// on one drawing only; the backs of placed cards are public, their numbers not.

import { h, nameList, nameTag, replace, wholeWords } from "../dom.js";
import { deckLanguage, t, tn } from "../i18n.js";
import { rulesButton } from "../rules.js";
import { voteCards, wordTiles } from "./parts.js";

export class VotingPhase {
  constructor(screen) {
    this.screen = screen;
    this.parts = {};
    this.selected = null; // the drawing picked by the first tap
    this.sending = false;
  }

  build() {
    const screen = this.screen;
    const parts = this.parts;
    const main = h("main", { class: "ig ig-voting", testid: "ig-voting" });
    parts.banner = h("div", { class: "ig-countdown", testid: "ig-countdown", hidden: true });
    parts.prompt = h("p", { class: "ig-prompt", testid: "ig-prompt" });
    parts.drawings = h("section", { class: "ig-drawings", testid: "ig-drawings" });
    parts.tiles = h("section", { class: "ig-tiles-panel", testid: "ig-tiles-panel" });
    parts.bar = h("section", { class: "ig-bar", testid: "ig-bar" });
    parts.frames = new Map();
    for (const p of screen.view.players) {
      const frame = screen.drawingFrame(p.seat);
      const meta = h("div", { class: "ig-drawing-meta" });
      const backs = h("div", { class: "stack-backs", testid: "ig-backs" });
      const el = h(
        "button",
        {
          type: "button",
          class: `ig-pic ${p.seat === screen.seat ? "own" : ""}`,
          testid: `ig-drawing-${p.seat}`,
          dataset: { seat: String(p.seat) },
          style: { "--c": screen.colour(p.seat) },
          onclick: () => this.pick(p.seat),
        },
        frame,
        backs,
        meta,
      );
      parts.frames.set(p.seat, { el, frame, meta, backs });
      parts.drawings.append(el);
    }
    parts.drawings.dataset.count = String(screen.view.players.length);
    main.append(parts.banner, parts.prompt, parts.drawings, parts.tiles, parts.bar);
    return main;
  }

  mounted() {
    for (const [seat, { frame }] of this.parts.frames) this.screen.board.mountViewer(seat, frame);
  }

  get myVotes() {
    const out = new Map();
    for (const [author, tile] of Object.entries(this.screen.view.my_votes || {})) out.set(Number(author), tile);
    return out;
  }

  get canVote() {
    const me = this.screen.me;
    return Boolean(me) && !me.done_voting;
  }

  pick(seat) {
    if (!this.canVote || seat === this.screen.seat || this.myVotes.has(seat)) {
      this.selected = null;
    } else {
      this.selected = this.selected === seat ? null : seat;
    }
    this.refresh();
  }

  async place(tile) {
    const author = this.selected;
    if (author === null || this.sending) return;
    this.sending = true;
    this.selected = null;
    try {
      await this.screen.act({ type: "vote", author, tile });
    } finally {
      this.sending = false;
      if (this.screen.view.phase === "voting") this.refresh();
    }
  }

  refresh() {
    const screen = this.screen;
    const view = screen.view;
    const parts = this.parts;
    const votes = this.myVotes;
    const spent = new Set(votes.values());
    if (!this.canVote || votes.has(this.selected)) this.selected = null;

    // Who has placed a card on each drawing (face down).
    const backsOn = new Map(view.players.map((p) => [p.seat, []]));
    for (const p of view.players) for (const author of p.voted_on || []) backsOn.get(author)?.push(p.seat);

    for (const [seat, { el, meta, backs }] of parts.frames) {
      const p = view.players[seat];
      const mine = votes.get(seat);
      const own = seat === screen.seat;
      el.classList.toggle("selected", this.selected === seat);
      el.classList.toggle("voted", mine !== undefined);
      el.disabled = !this.canVote || own || mine !== undefined;
      el.setAttribute("aria-pressed", String(this.selected === seat));
      replace(
        meta,
        screen.swatch(seat),
        own
          ? h("span", { class: "ig-drawing-name" }, t("ig.your_drawing"))
          : nameTag(screen.name(seat), "ig-drawing-name"),
        h("span", { class: "ig-drawing-location", lang: deckLanguage() }, wholeWords(p.location)),
        mine !== undefined ? h("span", { class: "ig-my-vote", testid: "ig-my-vote" }, `→ ${mine}`) : null,
        own && view.word_tile
          ? h("span", { class: "ig-my-vote own" }, `${view.word_tile} · `, wholeWords(view.word))
          : null,
      );
      replace(
        backs,
        backsOn
          .get(seat)
          .map((by) =>
            h("span", { class: "card-back", title: screen.name(by), style: { background: screen.colour(by) } }),
          ),
      );
    }

    const me = screen.me;
    let prompt;
    if (!me) prompt = t("ig.spectator_voting");
    else if (me.done_voting) prompt = t("ig.you_finished_voting");
    else if (this.selected !== null)
      prompt = tn("ig.pick_tile", {
        name: nameList([screen.name(this.selected)]),
        location: wholeWords(view.players[this.selected].location),
      });
    else prompt = t("ig.pick_drawing");
    replace(parts.prompt, prompt);
    parts.prompt.classList.toggle("active", this.selected !== null);

    // Which drawing each of my numbers lies on.
    const marks = {};
    for (const [author, tile] of votes) marks[tile] = ["→ ", nameTag(screen.name(author))];
    replace(
      parts.tiles,
      wordTiles(view.tiles, {
        mine: view.word_tile,
        spent,
        marks,
        onTile: this.canVote && this.selected !== null ? (n) => this.place(n) : null,
      }),
    );
    parts.tiles.classList.toggle("armed", this.selected !== null);

    const bar = [];
    if (me) {
      bar.push(voteCards(spent));
      if (!me.done_voting) {
        bar.push(
          h(
            "button",
            {
              class: "btn",
              type: "button",
              testid: "ig-done-voting",
              onclick: () => screen.act({ type: "done_voting" }),
            },
            t("ig.done_voting"),
          ),
        );
      } else {
        bar.push(h("span", { class: "hint", testid: "ig-waiting" }, t("ig.waiting_voters")));
      }
    }
    const pending = view.players.filter((p) => !p.done_voting).map((p) => screen.name(p.seat));
    if (pending.length)
      bar.push(h("span", { class: "hint ig-pending" }, tn("ig.still_voting", { names: nameList(pending) })));
    bar.push(rulesButton("incognito", "small"));
    replace(parts.bar, bar);
  }

  tick(left) {
    const banner = this.parts.banner;
    banner.hidden = left === null;
    if (left !== null) {
      banner.textContent = t("ig.countdown_voting", { n: left });
      banner.classList.toggle("urgent", left <= 10);
    }
  }

  destroy() {}
}
