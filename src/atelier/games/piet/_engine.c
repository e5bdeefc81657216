/* Piet's engine in C: the greedy play-out (ai.playout_py) and the exact search
 * (search.Search with exact=True, below).
 *
 * The play-out is the end of the game from a state, with greedy play on both
 * sides and ties broken by Python's own random.Random. Play-outs are nine tenths of what the hard computer, its hints and the
 * reviews of posted records spend (docs/piet.md): the hard computer plays up
 * to sixty games out per move, and each step of a game scores every painting
 * move there is. In Python a step built a tuple per move and a state per step;
 * here a step is a loop over the same tables on a few machine words.
 *
 * The answer must be the Python's to the bit, since a computer's move is a pure
 * function of (state, level, seed) and a replayed game must replay exactly:
 * - the moves are listed in the Python's order (shapes by size, then by their
 *   palette cells; each shape's placements by anchor; filling moves by colour,
 *   then cell), so a tie is broken by the same index;
 * - the random numbers are CPython's: MT19937 seeded as random.Random(seed)
 *   seeds it for a seed below 2**32, and randrange(n) as _randbelow draws it
 *   (getrandbits of n's bit length, drawn again while it is n or more). A
 *   step with one best painting move draws nothing, as in Python; a filling
 *   step always draws.
 * tests/test_piet_engine_c.py holds both to the Python on many states and seeds.
 *
 * playout(pal_r, pal_y, pal_b, c0_r, c0_y, c0_b, c1_r, c1_y, c1_b, score0, score1,
 *         phase, to_move, starter, next_painter, finisher, seed)
 *   -> the same sixteen numbers for the final state (phase: 0 painting,
 *      1 filling, 2 over; seed: 0 <= seed < 2**32).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { PAINTING = 0, FILLING = 1, OVER = 2 };
#define FULL_CANVAS 0xFFFFu
#define FULL_PALETTE 0x1FFu
#define PER_COLOUR 3
#define FULL_BONUS 2

/* --- CPython's Mersenne Twister ------------------------------------------------ */

#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t mt[MT_N];
    int index;
} Twister;

static void mt_init_genrand(Twister *t, uint32_t s) {
    t->mt[0] = s;
    for (int i = 1; i < MT_N; i++)
        t->mt[i] = 1812433253u * (t->mt[i - 1] ^ (t->mt[i - 1] >> 30)) + (uint32_t)i;
    t->index = MT_N;
}

/* random.Random(seed) for 0 <= seed < 2**32: init_by_array with the one word. */
static void mt_seed(Twister *t, uint32_t seed) {
    uint32_t *mt = t->mt;
    mt_init_genrand(t, 19650218u);
    int i = 1;
    for (int k = MT_N; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + seed;
        if (++i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
    }
    for (int k = MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        if (++i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000u;
}

static uint32_t mt_next(Twister *t) {
    static const uint32_t mag01[2] = {0u, 0x9908b0dfu};
    uint32_t *mt = t->mt, y;
    if (t->index >= MT_N) {
        int k;
        for (k = 0; k < MT_N - MT_M; k++) {
            y = (mt[k] & 0x80000000u) | (mt[k + 1] & 0x7fffffffu);
            mt[k] = mt[k + MT_M] ^ (y >> 1) ^ mag01[y & 1u];
        }
        for (; k < MT_N - 1; k++) {
            y = (mt[k] & 0x80000000u) | (mt[k + 1] & 0x7fffffffu);
            mt[k] = mt[k + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 1u];
        }
        y = (mt[MT_N - 1] & 0x80000000u) | (mt[0] & 0x7fffffffu);
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 1u];
        t->index = 0;
    }
    y = mt[t->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
}

/* random.Random.randrange(n) for 0 < n < 2**32. */
static uint32_t randbelow(Twister *t, uint32_t n) {
    int k = 32 - __builtin_clz(n);
    uint32_t r = mt_next(t) >> (32 - k);
    while (r >= n)
        r = mt_next(t) >> (32 - k);
    return r;
}

/* --- the tables: board.py's SHAPES and LINE ------------------------------------ */

typedef struct {
    uint16_t mask;
    uint8_t anchor;
    uint8_t cells[3];
} Placement;

typedef struct {
    uint16_t mask;        /* palette cells */
    uint8_t size;
    uint8_t cells[3];     /* palette cells in reading order */
    uint8_t n_places;
    Placement places[16]; /* by anchor, ascending */
} Shape;

static Shape shapes[64];
static int n_shapes;
static uint8_t line_table[256];

static int connected(const int *cells, int n) {
    int seen = 1, grew = 1;
    while (grew) {
        grew = 0;
        for (int i = 0; i < n; i++) {
            if (seen >> i & 1)
                continue;
            for (int j = 0; j < n; j++) {
                if (!(seen >> j & 1))
                    continue;
                int a = cells[i], b = cells[j];
                int dr = a / 3 - b / 3, dc = a % 3 - b % 3;
                if ((dr == 0 && (dc == 1 || dc == -1)) || (dc == 0 && (dr == 1 || dr == -1))) {
                    seen |= 1 << i;
                    grew = 1;
                    break;
                }
            }
        }
    }
    return seen == (1 << n) - 1;
}

static void add_shape(const int *cells, int n) {
    if (!connected(cells, n))
        return;
    Shape *s = &shapes[n_shapes++];
    s->size = (uint8_t)n;
    s->mask = 0;
    s->n_places = 0;
    int r0 = cells[0] / 3, c0 = cells[0] % 3;
    for (int i = 0; i < n; i++) {
        s->cells[i] = (uint8_t)cells[i];
        s->mask |= (uint16_t)(1u << cells[i]);
    }
    for (int anchor = 0; anchor < 16; anchor++) {
        Placement p = {0, (uint8_t)anchor, {0, 0, 0}};
        int fits = 1;
        for (int i = 0; i < n && fits; i++) {
            int r = anchor / 4 + cells[i] / 3 - r0, c = anchor % 4 + cells[i] % 3 - c0;
            if (r < 0 || r >= 4 || c < 0 || c >= 4)
                fits = 0;
            else {
                p.cells[i] = (uint8_t)(r * 4 + c);
                p.mask |= (uint16_t)(1u << (r * 4 + c));
            }
        }
        if (fits)
            s->places[s->n_places++] = p;
    }
}

static void build_tables(void) {
    /* sorted by (size, cells), as board._shapes sorts them */
    int cells[3];
    for (int a = 0; a < 9; a++) {
        cells[0] = a;
        add_shape(cells, 1);
    }
    for (int a = 0; a < 9; a++)
        for (int b = a + 1; b < 9; b++) {
            cells[0] = a, cells[1] = b;
            add_shape(cells, 2);
        }
    for (int a = 0; a < 9; a++)
        for (int b = a + 1; b < 9; b++)
            for (int c = b + 1; c < 9; c++) {
                cells[0] = a, cells[1] = b, cells[2] = c;
                add_shape(cells, 3);
            }
    /* LINE[full << 4 | new]: the lengths of the runs of two or more in a line of
     * four that hold a new cell */
    for (int full = 0; full < 16; full++)
        for (int fresh = 0; fresh < 16; fresh++) {
            if (fresh & ~full)
                continue;
            int total = 0, col = 0;
            while (col < 4) {
                if (full >> col & 1) {
                    int start = col;
                    while (col < 4 && (full >> col & 1))
                        col++;
                    int length = col - start, run = ((1 << length) - 1) << start;
                    if (length >= 2 && (run & fresh))
                        total += length;
                } else
                    col++;
            }
            line_table[full << 4 | fresh] = (uint8_t)total;
        }
}

/* --- scoring: board.chain_score and move_score ---------------------------------- */

static inline uint32_t column(uint32_t mask, int c) {
    return (mask >> c & 1) | (mask >> (c + 3) & 2) | (mask >> (c + 6) & 4) | (mask >> (c + 9) & 8);
}

static int chain_score(uint32_t full, uint32_t fresh) {
    uint32_t right = full & (full >> 1) & 0x7777u;
    uint32_t left = full & (full << 1) & 0xEEEEu;
    uint32_t vertical = full & ((full >> 4) | (full << 4));
    int total = __builtin_popcount(fresh & ~((right | left | vertical) & FULL_CANVAS));
    for (int i = 0; i < 4; i++) {
        uint32_t row_new = fresh >> (4 * i) & 15, col_new = column(fresh, i);
        if (row_new)
            total += line_table[(full >> (4 * i) & 15) << 4 | row_new];
        if (col_new)
            total += line_table[column(full, i) << 4 | col_new];
    }
    return total;
}

/* board.colour_at on the palette: the colour on a cell that holds a piece */
static inline int palette_colour(uint32_t red, uint32_t yellow, int cell) {
    return (red >> cell & 1) ? 0 : (yellow >> cell & 1) ? 1 : 2;
}

/* board.move_score: points for placing `added` (disjoint from it) on a canvas */
static int move_score(uint32_t r, uint32_t y, uint32_t b, const uint32_t *added) {
    const uint32_t canvas[3] = {r, y, b};
    int points = 0;
    for (int c = 0; c < 3; c++)
        if (added[c])
            points += chain_score(canvas[c] | added[c], added[c]);
    return points;
}

/* --- the game: rules.State, and the greedy step ------------------------------- */

typedef struct {
    uint32_t pal[3];
    uint32_t can[2][3];
    int score[2];
    int phase, to_move, starter, next_painter, finisher;
} State;

static inline uint32_t occupied(const uint32_t *m) { return m[0] | m[1] | m[2]; }

/* rules.filling_starter */
static int filling_starter(const State *s) {
    if (s->score[0] != s->score[1])
        return s->score[0] < s->score[1] ? 0 : 1;
    int a = __builtin_popcount(occupied(s->can[0])), b = __builtin_popcount(occupied(s->can[1]));
    if (a != b)
        return a < b ? 0 : 1;
    return s->starter;
}

static void fill_step(State *s, Twister *t) {
    int colours[27], cells[27], n = 0;
    uint32_t taken = occupied(s->pal);
    for (int colour = 0; colour < 3; colour++) {
        if (__builtin_popcount(s->pal[colour]) >= PER_COLOUR)
            continue;
        for (int cell = 0; cell < 9; cell++)
            if (!(taken >> cell & 1)) {
                colours[n] = colour;
                cells[n++] = cell;
            }
    }
    int pick = (int)randbelow(t, (uint32_t)n);
    s->pal[colours[pick]] |= 1u << cells[pick];
    if (occupied(s->pal) == FULL_PALETTE) {
        s->phase = PAINTING;
        s->to_move = s->starter = s->next_painter;
    } else
        s->to_move = 1 - s->to_move;
}

typedef struct {
    uint16_t taken;
    uint16_t added[3];
} Choice;

static void paint_step(State *s, Twister *t) {
    Choice best[1024]; /* 43 shapes, at most 16 placements each; on the stack, since
                        * threads may play out at once */
    int player = s->to_move, n_best = 0, top = -1;
    uint32_t *canvas = s->can[player];
    uint32_t have = occupied(s->pal);
    uint32_t free_cells = FULL_CANVAS & ~occupied(canvas);
    int colour_of[9];
    for (int i = 0; i < 9; i++)
        colour_of[i] = palette_colour(s->pal[0], s->pal[1], i);
    for (int k = 0; k < n_shapes; k++) {
        const Shape *shape = &shapes[k];
        if ((have & shape->mask) != shape->mask)
            continue;
        for (int p = 0; p < shape->n_places; p++) {
            const Placement *place = &shape->places[p];
            if ((free_cells & place->mask) != place->mask)
                continue;
            uint32_t added[3] = {0, 0, 0};
            for (int i = 0; i < shape->size; i++)
                added[colour_of[shape->cells[i]]] |= 1u << place->cells[i];
            int points = move_score(canvas[0], canvas[1], canvas[2], added);
            if (points > top) {
                top = points;
                n_best = 0;
            }
            if (points == top) {
                Choice *choice = &best[n_best++];
                choice->taken = shape->mask;
                for (int c = 0; c < 3; c++)
                    choice->added[c] = (uint16_t)added[c];
            }
        }
    }
    const Choice *choice = &best[n_best > 1 ? randbelow(t, (uint32_t)n_best) : 0];
    /* rules.paint_unchecked */
    for (int c = 0; c < 3; c++) {
        canvas[c] |= choice->added[c];
        s->pal[c] &= ~(uint32_t)choice->taken;
    }
    s->score[player] += top;
    if (occupied(canvas) == FULL_CANVAS) {
        /* the game ends at once, even mid-phase, with the bonus to the finisher */
        s->score[player] += FULL_BONUS;
        s->finisher = player;
        s->phase = OVER;
        s->to_move = 1 - player;
    } else if (occupied(s->pal) == 0) {
        int first = filling_starter(s);
        s->phase = FILLING;
        s->to_move = s->starter = s->next_painter = first;
    } else
        s->to_move = 1 - player;
}

/* --- the exact search: search.Search with exact=True (endgame.Endgame) ---------- *
 *
 * search.py's negamax alpha-beta over final margins, step for step: the same
 * children in the same order (painting moves by shape and anchor, then stably
 * sorted by the points they score, a finishing move first; filling moves by
 * colour and cell), the table's best move tried first, the same cut-offs, the
 * same count of positions against the budget, and the same table: a position
 * relative to the player to move -> (value, bound, best move, depth searched),
 * every entry kept (as a dict keeps them) and overwritten as the dict's would be,
 * so a table kept between calls (a review's) answers as the Python's does.
 */

#define WHOLE_GAME (1 << 20)
#define FILL_ID (1 << 12)
#define MAX_CHILDREN 704
#define MAX_PLIES 128 /* a whole game is at most 68: 32 paintings and 36 fillings */
enum { EXACT = 0, LOWER = 1, UPPER = 2 };

typedef struct {
    uint16_t pal[3], me[3], them[3];
    int32_t diff;
    uint8_t filling, key_me;
} Position;

typedef struct {
    int32_t id, order, kind, final; /* kind 0: over (final is the margin); 1: I move again; 2: they move */
    Position next;
} Child;

typedef struct {
    uint64_t a, b;
    uint32_t c;
    uint32_t used;
    int32_t value, flag, best, depth;
} Entry;

typedef struct {
    PyObject_HEAD
    Entry *entries;
    size_t size, count; /* size: a power of two */
    Child *arena;       /* MAX_PLIES x MAX_CHILDREN: each ply's children */
    Child *scratch;     /* MAX_CHILDREN: painting moves before they are sorted */
    long long nodes, budget;
    int out; /* why the search stopped early (RAN_OUT...): unwind, keeping nothing more */
} Table;

enum { GOING = 0, RAN_OUT = 1, NO_MEMORY = 2, TOO_DEEP = 3 };

static void pack(const Position *p, uint64_t *a, uint64_t *b, uint32_t *c) {
    *a = (uint64_t)p->me[0] | (uint64_t)p->me[1] << 16 | (uint64_t)p->me[2] << 32 |
         (uint64_t)p->them[0] << 48;
    *b = (uint64_t)p->them[1] | (uint64_t)p->them[2] << 16 | (uint64_t)p->pal[0] << 32 |
         (uint64_t)p->pal[1] << 41 | (uint64_t)p->pal[2] << 50 | (uint64_t)p->filling << 59 |
         (uint64_t)p->key_me << 60;
    *c = (uint32_t)p->diff;
}

static size_t slot_of(uint64_t a, uint64_t b, uint32_t c, size_t mask) {
    uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull) * 0xBF58476D1CE4E5B9ull ^ c;
    h ^= h >> 31;
    h *= 0x94D049BB133111EBull;
    h ^= h >> 29;
    return (size_t)h & mask;
}

static Entry *find(Table *t, uint64_t a, uint64_t b, uint32_t c) {
    size_t mask = t->size - 1;
    for (size_t i = slot_of(a, b, c, mask);; i = (i + 1) & mask) {
        Entry *e = &t->entries[i];
        if (!e->used || (e->a == a && e->b == b && e->c == c))
            return e;
    }
}

static int grow(Table *t) {
    size_t old_size = t->size, size = old_size ? old_size * 2 : 4096;
    Entry *old = t->entries, *fresh = calloc(size, sizeof(Entry));
    if (fresh == NULL)
        return -1;
    t->entries = fresh;
    t->size = size;
    for (size_t i = 0; i < old_size; i++)
        if (old[i].used)
            *find(t, old[i].a, old[i].b, old[i].c) = old[i];
    free(old);
    return 0;
}

static int store(Table *t, const Position *p, int value, int flag, int best, int depth) {
    if ((t->count + 1) * 2 > t->size && grow(t) < 0)
        return -1;
    uint64_t a, b;
    uint32_t c;
    pack(p, &a, &b, &c);
    Entry *e = find(t, a, b, c);
    if (!e->used) {
        e->used = 1, e->a = a, e->b = b, e->c = c;
        t->count++;
    }
    e->value = value, e->flag = flag, e->best = best, e->depth = depth;
    return 0;
}

static const Entry *lookup(Table *t, const Position *p) {
    if (t->size == 0)
        return NULL;
    uint64_t a, b;
    uint32_t c;
    pack(p, &a, &b, &c);
    const Entry *e = find(t, a, b, c);
    return e->used ? e : NULL;
}

static inline int popcount3(const uint16_t *m) { return __builtin_popcount(m[0] | m[1] | m[2]); }

/* search.Search._paints */
static int paints(const Position *p, Child *out, Child *unsorted) {
    int n = 0, counts[257] = {0};
    uint32_t have = p->pal[0] | p->pal[1] | p->pal[2];
    uint32_t mine = p->me[0] | p->me[1] | p->me[2];
    uint32_t free_cells = FULL_CANVAS & ~mine;
    for (int index = 0; index < n_shapes; index++) {
        const Shape *shape = &shapes[index];
        if ((have & shape->mask) != shape->mask)
            continue;
        int colours[3];
        for (int i = 0; i < shape->size; i++)
            colours[i] = palette_colour(p->pal[0], p->pal[1], shape->cells[i]);
        uint16_t left[3];
        for (int c = 0; c < 3; c++)
            left[c] = (uint16_t)(p->pal[c] & ~shape->mask);
        for (int k = 0; k < shape->n_places; k++) {
            const Placement *place = &shape->places[k];
            if ((free_cells & place->mask) != place->mask)
                continue;
            uint32_t added[3] = {0, 0, 0};
            for (int i = 0; i < shape->size; i++)
                added[colours[i]] |= 1u << place->cells[i];
            int points = move_score(p->me[0], p->me[1], p->me[2], added);
            uint16_t after[3];
            for (int c = 0; c < 3; c++)
                after[c] = (uint16_t)(p->me[c] | added[c]);
            int now = p->diff + points;
            Child *child = &unsorted[n++];
            child->id = index << 5 | place->anchor;
            child->final = 0;
            Position *next = &child->next;
            if ((mine | place->mask) == FULL_CANVAS) {
                child->order = points + 100, child->kind = 0, child->final = now + FULL_BONUS;
            } else if (left[0] | left[1] | left[2]) {
                child->order = points, child->kind = 2;
                memcpy(next->pal, left, sizeof left);
                memcpy(next->me, p->them, sizeof left);
                memcpy(next->them, after, sizeof left);
                next->diff = -now, next->filling = 0, next->key_me = !p->key_me;
            } else {
                /* the palette is empty: a filling phase, lower score first, then
                 * fewer pieces, then whoever started this painting phase */
                int i_fill;
                if (now != 0)
                    i_fill = now < 0;
                else {
                    int mine_n = __builtin_popcount(mine | place->mask), theirs_n = popcount3(p->them);
                    i_fill = mine_n != theirs_n ? mine_n < theirs_n : p->key_me;
                }
                child->order = points, child->kind = i_fill ? 1 : 2;
                memcpy(next->pal, left, sizeof left);
                memcpy(next->me, i_fill ? after : p->them, sizeof left);
                memcpy(next->them, i_fill ? p->them : after, sizeof left);
                next->diff = i_fill ? now : -now, next->filling = 1, next->key_me = 1;
            }
        }
    }
    /* out.sort(key=lambda item: -item[1]): stable, by order descending */
    for (int i = 0; i < n; i++)
        counts[256 - unsorted[i].order]++;
    int start[257], at = 0;
    for (int v = 0; v < 257; v++) {
        start[v] = at;
        at += counts[v];
    }
    for (int i = 0; i < n; i++)
        out[start[256 - unsorted[i].order]++] = unsorted[i];
    return n;
}

/* search.Search._fills */
static int fills(const Position *p, Child *out) {
    int n = 0;
    uint32_t have = p->pal[0] | p->pal[1] | p->pal[2];
    for (int colour = 0; colour < 3; colour++) {
        if (__builtin_popcount(p->pal[colour]) >= PER_COLOUR)
            continue;
        for (int cell = 0; cell < 9; cell++) {
            uint32_t bit = 1u << cell;
            if (have & bit)
                continue;
            uint16_t after[3] = {p->pal[0], p->pal[1], p->pal[2]};
            after[colour] |= (uint16_t)bit;
            Child *child = &out[n++];
            child->id = FILL_ID | colour << 4 | cell, child->order = 0, child->final = 0;
            Position *next = &child->next;
            memcpy(next->pal, after, sizeof after);
            int mover_again = (have | bit) == FULL_PALETTE && p->key_me;
            child->kind = mover_again ? 1 : 2;
            memcpy(next->me, mover_again ? p->me : p->them, sizeof after);
            memcpy(next->them, mover_again ? p->them : p->me, sizeof after);
            next->diff = mover_again ? p->diff : -p->diff;
            if ((have | bit) != FULL_PALETTE)
                next->filling = 1, next->key_me = !p->key_me;
            else
                next->filling = 0, next->key_me = 1;
        }
    }
    return n;
}

/* search.Search.search, exact */
static int search(Table *t, const Position *p, int alpha, int beta, int depth, int ply) {
    if (++t->nodes > t->budget) {
        t->out = RAN_OUT;
        return 0;
    }
    if (ply >= MAX_PLIES) {
        t->out = TOO_DEEP;
        return 0;
    }
    int first = -1;
    const Entry *entry = lookup(t, p);
    if (entry != NULL) {
        first = entry->best;
        if (entry->depth >= depth &&
            (entry->flag == EXACT || (entry->flag == LOWER && entry->value >= beta) ||
             (entry->flag == UPPER && entry->value <= alpha)))
            return entry->value;
    }
    int start_alpha = alpha, best = -10000, best_move = -1;
    Child *children = &t->arena[(size_t)ply * MAX_CHILDREN];
    int n = p->filling ? fills(p, children) : paints(p, children, t->scratch);
    if (first >= 0)
        for (int i = 0; i < n; i++)
            if (children[i].id == first) {
                Child moved = children[i];
                memmove(&children[1], &children[0], (size_t)i * sizeof(Child));
                children[0] = moved;
                break;
            }
    for (int i = 0; i < n; i++) {
        const Child *child = &children[i];
        int value;
        if (child->kind == 0)
            value = child->final;
        else if (child->kind == 1)
            value = search(t, &child->next, alpha, beta, depth - 1, ply + 1);
        else
            value = -search(t, &child->next, -beta, -alpha, depth - 1, ply + 1);
        if (t->out != GOING)
            return 0;
        if (value > best) {
            best = value, best_move = child->id;
            if (value > alpha) {
                alpha = value;
                if (alpha >= beta)
                    break;
            }
        }
    }
    int flag = best >= beta ? LOWER : best <= start_alpha ? UPPER : EXACT;
    if (store(t, p, best, flag, best_move, depth) < 0) {
        t->out = NO_MEMORY;
        return 0;
    }
    return best;
}

/* A position from the twelve numbers search.position gives (and, for value, the
 * window, the positions counted so far and the budget). */
static int parse_position(PyObject *args, Position *p, int *alpha, int *beta, long long *nodes,
                          long long *budget) {
    unsigned int m[9];
    int diff, filling, key_me;
    int ok = alpha == NULL
        ? PyArg_ParseTuple(args, "IIIIIIIIIipp", &m[0], &m[1], &m[2], &m[3], &m[4], &m[5], &m[6],
                           &m[7], &m[8], &diff, &filling, &key_me)
        : PyArg_ParseTuple(args, "IIIIIIIIIippiiLL", &m[0], &m[1], &m[2], &m[3], &m[4], &m[5],
                           &m[6], &m[7], &m[8], &diff, &filling, &key_me, alpha, beta, nodes,
                           budget);
    if (!ok)
        return -1;
    for (int i = 0; i < 9; i++)
        if (m[i] & ~(i < 3 ? FULL_PALETTE : FULL_CANVAS)) {
            PyErr_SetString(PyExc_ValueError, "a mask is off the board");
            return -1;
        }
    for (int c = 0; c < 3; c++)
        p->pal[c] = (uint16_t)m[c], p->me[c] = (uint16_t)m[3 + c], p->them[c] = (uint16_t)m[6 + c];
    p->diff = diff, p->filling = (uint8_t)filling, p->key_me = (uint8_t)key_me;
    return 0;
}

/* Table.value(pal*3, me*3, them*3, diff, filling, key_me, alpha, beta, nodes, budget)
 *   -> (value or None past the budget, nodes) */
static PyObject *table_value(Table *t, PyObject *args) {
    Position p;
    int alpha, beta;
    if (parse_position(args, &p, &alpha, &beta, &t->nodes, &t->budget) < 0)
        return NULL;
    if (t->arena == NULL) {
        t->arena = malloc(sizeof(Child) * MAX_CHILDREN * MAX_PLIES);
        t->scratch = malloc(sizeof(Child) * MAX_CHILDREN);
        if (t->arena == NULL || t->scratch == NULL)
            return PyErr_NoMemory();
    }
    if (t->size == 0 && grow(t) < 0)
        return PyErr_NoMemory();
    t->out = GOING;
    int value;
    Py_BEGIN_ALLOW_THREADS
    value = search(t, &p, alpha, beta, WHOLE_GAME, 0);
    Py_END_ALLOW_THREADS
    if (t->out == NO_MEMORY)
        return PyErr_NoMemory();
    if (t->out == TOO_DEEP) {
        PyErr_SetString(PyExc_RuntimeError, "deeper than any game");
        return NULL;
    }
    if (t->out == RAN_OUT)
        return Py_BuildValue("(OL)", Py_None, t->nodes);
    return Py_BuildValue("(iL)", value, t->nodes);
}

/* Table.best(pal*3, me*3, them*3, diff, filling, key_me) -> the kept best move's id, or -1 */
static PyObject *table_best(Table *t, PyObject *args) {
    Position p;
    if (parse_position(args, &p, NULL, NULL, NULL, NULL) < 0)
        return NULL;
    const Entry *e = lookup(t, &p);
    return PyLong_FromLong(e == NULL ? -1 : e->best);
}

static Py_ssize_t table_len(Table *t) { return (Py_ssize_t)t->count; }

static void table_dealloc(Table *t) {
    free(t->entries);
    free(t->arena);
    free(t->scratch);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

static PyMethodDef table_methods[] = {
    {"value", (PyCFunction)table_value, METH_VARARGS,
     "(value or None past the budget, positions counted) of an exact search from a position"},
    {"best", (PyCFunction)table_best, METH_VARARGS, "the kept best move's id for a position, or -1"},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods table_sequence = {.sq_length = (lenfunc)table_len};

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "atelier.games.piet._engine.Table",
    .tp_basicsize = sizeof(Table),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)table_dealloc,
    .tp_methods = table_methods,
    .tp_as_sequence = &table_sequence,
    .tp_doc = "An exact search's transposition table (search.Search's, exact=True).",
};

static PyObject *playout(PyObject *module, PyObject *args) {
    State s;
    unsigned long seed;
    if (!PyArg_ParseTuple(args, "IIIIIIIIIiiiiiiik", &s.pal[0], &s.pal[1], &s.pal[2],
                          &s.can[0][0], &s.can[0][1], &s.can[0][2], &s.can[1][0], &s.can[1][1],
                          &s.can[1][2], &s.score[0], &s.score[1], &s.phase, &s.to_move,
                          &s.starter, &s.next_painter, &s.finisher, &seed))
        return NULL;
    if (seed > 0xFFFFFFFFul || s.phase < PAINTING || s.phase > OVER) {
        PyErr_SetString(PyExc_ValueError, "seed or phase out of range");
        return NULL;
    }
    for (int c = 0; c < 3; c++)
        if (s.pal[c] & ~FULL_PALETTE || s.can[0][c] & ~FULL_CANVAS || s.can[1][c] & ~FULL_CANVAS) {
            PyErr_SetString(PyExc_ValueError, "a mask is off the board");
            return NULL;
        }
    if (s.phase != OVER) {
        Twister twister;
        mt_seed(&twister, (uint32_t)seed);
        Py_BEGIN_ALLOW_THREADS
        while (s.phase != OVER) {
            if (s.phase == FILLING)
                fill_step(&s, &twister);
            else
                paint_step(&s, &twister);
        }
        Py_END_ALLOW_THREADS
    }
    return Py_BuildValue("(IIIIIIIIIiiiiiii)", s.pal[0], s.pal[1], s.pal[2], s.can[0][0],
                         s.can[0][1], s.can[0][2], s.can[1][0], s.can[1][1], s.can[1][2],
                         s.score[0], s.score[1], s.phase, s.to_move, s.starter,
                         s.next_painter, s.finisher);
}

static PyMethodDef methods[] = {
    {"playout", playout, METH_VARARGS,
     "The final state's numbers after greedy play on both sides (ai.playout_py)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_engine", NULL, -1, methods};

PyMODINIT_FUNC PyInit__engine(void) {
    build_tables();
    if (PyType_Ready(&TableType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&TableType);
    if (PyModule_AddObject(m, "Table", (PyObject *)&TableType) < 0) {
        Py_DECREF(&TableType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
