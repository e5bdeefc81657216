/* Piet's greedy play-out (ai.playout_py) in C: the end of the game from a state,
 * with greedy play on both sides and ties broken by Python's own random.Random.
 *
 * Play-outs are nine tenths of what the hard computer, its hints and the
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
 * tests/test_piet_playout.py holds it to the Python on many states and seeds.
 *
 * playout(pal_r, pal_y, pal_b, c0_r, c0_y, c0_b, c1_r, c1_y, c1_b, score0, score1,
 *         phase, to_move, starter, next_painter, finisher, seed)
 *   -> the same sixteen numbers for the final state (phase: 0 painting,
 *      1 filling, 2 over; seed: 0 <= seed < 2**32).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

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
        Placement p = {0, {0, 0, 0}};
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
        colour_of[i] = (s->pal[0] >> i & 1) ? 0 : (s->pal[1] >> i & 1) ? 1 : 2;
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
            int points = 0;
            for (int c = 0; c < 3; c++)
                if (added[c])
                    points += chain_score(canvas[c] | added[c], added[c]);
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

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_playout", NULL, -1, methods};

PyMODINIT_FUNC PyInit__playout(void) {
    build_tables();
    return PyModule_Create(&module);
}
