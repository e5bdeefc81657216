/* The guard's common case in C: one pass over a batch, checking it against the
 * stroke open before it, building no Python object per point.
 *
 * The server checks every batch it relays; in Python that was the largest
 * part of its work (docs/performance.md has the figures). This walks the same bits as atelier.ink.codec
 * (docs/ink.md) and accepts a batch only if the exact Python path would
 * accept it with the same result; anything else (every error included)
 * returns None, and guard.py then takes the exact path, which names the
 * error. tests/test_ink_guard.py checks that the two always agree.
 *
 * scan(data, open, x, y, t, p, count, pressure) ->
 *     None | (strokes begun, points, tools mask, marks, after)
 * tools mask: pen 1, eraser 2, undo 4, clear 8. marks: one byte per begin
 * (pen 1, eraser 0), clear (2) or undo (3), in order (presence.py).
 * after: None, or (x, y, t, p, count, pressure) of the stroke left open.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define CANVAS 4096
#define LOW (-(CANVAS / 2))
#define HIGH (CANVAS + CANVAS / 2) /* exclusive */
#define MAX_PRESSURE 63
#define MAX_TIME_MS (24LL * 3600 * 1000)
#define MAX_POINTS 5000
#define MAX_BATCH 16384
#define MAX_ZEROS 32
#define T_K 10
#define PAD 16
#define WINDOW 57 /* bits always valid in a 64-bit load shifted by up to 7 */

typedef struct {
    const uint8_t *buf;
    int64_t pos, end;
} Bits;

static inline uint64_t peek(const Bits *b) {
    const uint8_t *s = b->buf + (b->pos >> 3);
    uint64_t w = 0;
    for (int i = 0; i < 8; i++) w = (w << 8) | s[i];
    return w << (b->pos & 7);
}

/* n fixed bits (n <= 57); -1 past the end */
static inline int64_t fixed(Bits *b, int n) {
    if (b->pos + n > b->end) return -1;
    int64_t v = (int64_t)(peek(b) >> (64 - n));
    b->pos += n;
    return v;
}

/* an unsigned order-k Exp-Golomb code; -1 past the end or too long to be
 * anything but an error (see the note on WINDOW) */
static inline int64_t eg(Bits *b, int k) {
    uint64_t w = peek(b);
    if (!w) return -1;
    int zeros = __builtin_clzll(w);
    if (zeros > MAX_ZEROS) return -1;
    int len = 2 * zeros + 1 + k;
    if (len > WINDOW || b->pos + len > b->end) return -1;
    b->pos += len;
    return (int64_t)(w >> (64 - len)) - ((int64_t)1 << k);
}

/* a signed (zigzag) code; 0 in *ok when it could not be read */
static inline int64_t sg(Bits *b, int k, int *ok) {
    int64_t v = eg(b, k);
    if (v < 0) { *ok = 0; return 0; }
    return (v & 1) ? -(v >> 1) - 1 : v >> 1;
}

static PyObject *scan(PyObject *self, PyObject *args) {
    Py_buffer view;
    int open, pressure;
    long long x, y, t, p, count;
    if (!PyArg_ParseTuple(args, "y*pLLLLLp", &view, &open, &x, &y, &t, &p, &count,
                          &pressure))
        return NULL;
    if (view.len < 2 || view.len > MAX_BATCH) {
        PyBuffer_Release(&view);
        Py_RETURN_NONE;
    }
    uint8_t buf[MAX_BATCH + PAD];
    memcpy(buf, view.buf, (size_t)view.len);
    memset(buf + view.len, 0, PAD);
    Bits b = {buf, 8, 8 * (int64_t)view.len};
    PyBuffer_Release(&view);

    int begun = 0, tools = 0, ops = 0, ok = 1;
    long long points = 0;
    char marks[MAX_BATCH * 8 / 15 + 1]; /* an undo, the shortest mark, takes 15 bits */
    Py_ssize_t nmarks = 0;
    for (;;) {
        int64_t left = b.end - b.pos;
        if (left < 8 && (left == 0 || !(peek(&b) >> (64 - left)))) break;
        ops++;
        if (!(peek(&b) >> 63)) { /* 0: more points of the open stroke */
            b.pos += 1;
            int has_p = (int)fixed(&b, 1);
            if (!open || has_p != pressure) goto doubt;
            int64_t n = eg(&b, 0);
            if (n < 0) goto doubt;
            n += 1;
            if (3 * n > b.end - b.pos) goto doubt;
            int64_t k = fixed(&b, 3);
            if (k < 0) goto doubt;
            long long dx = 0, dy = 0, dt = 0;
            for (int64_t i = 0; i < n; i++) {
                dx += sg(&b, (int)k, &ok);
                dy += sg(&b, (int)k, &ok);
                dt += sg(&b, 0, &ok);
                if (!ok) goto doubt;
                x += dx;
                y += dy;
                t += dt;
                if (x < LOW || x >= HIGH || y < LOW || y >= HIGH || dt < 0 || t > MAX_TIME_MS)
                    goto doubt;
                if (has_p) {
                    p += sg(&b, 0, &ok);
                    if (!ok || p < 0 || p > MAX_PRESSURE) goto doubt;
                }
            }
            count += n;
            if (count > MAX_POINTS) goto doubt;
            points += n;
        } else if (!(peek(&b) >> 62 & 1)) { /* 10: begin a stroke */
            if (open || b.pos + 38 > b.end) goto doubt; /* 38 fixed bits before the time */
            b.pos += 2;
            int64_t eraser = fixed(&b, 1), has_p = fixed(&b, 1), width = fixed(&b, 10);
            int64_t bx = fixed(&b, 12), by = fixed(&b, 12);
            if (width < 1) goto doubt;
            int64_t bt = eg(&b, T_K);
            if (bt < 0 || bt > MAX_TIME_MS) goto doubt;
            int64_t bp = 0;
            if (has_p && (bp = fixed(&b, 6)) < 0) goto doubt;
            open = 1;
            pressure = (int)has_p;
            x = bx, y = by, t = bt, p = bp, count = 1;
            begun++;
            points++;
            tools |= eraser ? 2 : 1;
            marks[nmarks++] = eraser ? 0 : 1;
        } else if (!(peek(&b) >> 61 & 1)) { /* 110: end the stroke */
            if (!open || b.pos + 3 > b.end) goto doubt;
            b.pos += 3;
            open = 0;
        } else { /* 1110: undo, 1111: clear */
            if (open || b.pos + 4 > b.end) goto doubt;
            int clear = (int)(peek(&b) >> 60 & 1);
            b.pos += 4;
            int64_t when = eg(&b, T_K);
            if (when < 0 || when > MAX_TIME_MS) goto doubt;
            tools |= clear ? 8 : 4;
            marks[nmarks++] = clear ? 2 : 3;
        }
    }
    if (!ops) goto doubt;
    PyObject *after;
    if (open) {
        after = Py_BuildValue("(LLLLLO)", x, y, t, p, count, pressure ? Py_True : Py_False);
        if (!after) return NULL;
    } else {
        after = Py_NewRef(Py_None);
    }
    return Py_BuildValue("(iLiy#N)", begun, points, tools, marks, nmarks, after);
doubt:
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"scan", scan, METH_VARARGS, "Check a batch against the open stroke; None if unsure."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "atelier.ink._scan", "The guard's common case in C.", -1, methods,
};

PyMODINIT_FUNC PyInit__scan(void) { return PyModule_Create(&module); }
