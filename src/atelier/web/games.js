// The games this server offers and what the shared modules need to know of
// each: every game's screens folder exports a descriptor (its game.js), listed
// by the server (GET /api/games), so no shared module names a game.
//
// A descriptor (every field but name and screen may be left out):
//   name         the game's name, as the server registered it
//   screen       the class that shows a running game: new Screen(room), update(state),
//                mounted(), destroy(), and optionally onMessage, onInk, onInkSync
//   lobbyCards(room)  the game’s own cards in the lobby ({top, afterPlayers, afterSettings}: lobby.js)
//   hints        the settings form's hints by field (settings.js says what they hold)
//   startFields  settings worth choosing on the start page
//   startCard(go, shell)  the game's own card on the start page, under the forms
//   wordLanguage whether the room's settings take the start page's word language
//   cues(prev, next, me)  the cue names between two states (cues.js plays them)
//   presence     whether the absent bar shows during play (absent.js)
//   deckPanel    whether the lobby shows the custom deck's card (decks.js)

const descriptors = new Map(); // name -> descriptor, in the server's order

// Reads every game's descriptor once; the pages wait for it (app.js).
export async function loadGames() {
  const response = await fetch("/api/games").catch(() => null);
  const { games } = response?.ok ? await response.json() : { games: [] };
  const loaded = await Promise.all(games.map(({ module }) => import(module).then((m) => m.default).catch(() => null)));
  for (const game of loaded) if (game) descriptors.set(game.name, game);
}

export function gameNames() {
  return [...descriptors.keys()];
}

// The descriptor of a game; an empty one for a game without screens.
export function gameOf(name) {
  return descriptors.get(name) || { name };
}
