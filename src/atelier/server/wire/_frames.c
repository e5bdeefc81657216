/* The room socket's common case in C: the whole binary frames at the front of
 * what a socket has read, unmasked, one bytes object each.
 *
 * Ink is most of what a room socket reads (a batch every 50 ms from every
 * drawing player, one frame each); in Python, finding each frame and undoing
 * its mask cost a slice, two big integers and their conversions per batch
 * (docs/performance.md). This does only that common case and stops at the
 * first frame that is anything else (text, control, a fragment, too large, not
 * masked, not all there): roomsocket.py then takes that frame on its general
 * path, which applies every rule of RFC 6455 and names the error. wsframe.py
 * has the same function in Python (used when this is not compiled), and
 * tests/test_wsframe_fast.py checks that the two always agree.
 *
 * binaries(buf, start, max_message) -> (list of payloads, end)
 *
 * Two more for what goes out, each once per message or batch on the busiest
 * path, where the Python spent more on the calls and copies than on the work:
 *
 * frame(opcode, payload) -> a server frame (final, unmasked), as wsframe.frame_py
 * spread(seat, batch, lists) -> the bundle entry of the batch ([u16 length][seat]
 *     [batch], docs/protocol.md), made once and appended to each list (the
 *     bundles of the batch's watchers), as bundles.spread_py
 * spread_totals() -> (frames, bytes): what spread has appended so far, counted
 *     here for the metrics (atelier_ink_frames_out, _bytes_out) at the cost of
 *     two additions, where Python's per batch made and freed integer objects
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

static void unmask_into(char *out, const unsigned char *in, Py_ssize_t n,
                        const unsigned char key[4]) {
    uint32_t k32;
    memcpy(&k32, key, 4);
    uint64_t k64 = ((uint64_t)k32 << 32) | k32;
    Py_ssize_t j = 0;
    for (; j + 8 <= n; j += 8) {
        uint64_t w;
        memcpy(&w, in + j, 8);
        w ^= k64;
        memcpy(out + j, &w, 8);
    }
    for (; j < n; j++) out[j] = (char)(in[j] ^ key[j & 3]);
}

static PyObject *binaries(PyObject *self, PyObject *args) {
    Py_buffer view;
    Py_ssize_t i, max_message;
    if (!PyArg_ParseTuple(args, "y*nn", &view, &i, &max_message)) return NULL;
    const unsigned char *buf = (const unsigned char *)view.buf;
    Py_ssize_t n = view.len;
    PyObject *found = PyList_New(0);
    if (found == NULL) {
        PyBuffer_Release(&view);
        return NULL;
    }
    while (i >= 0 && n - i >= 2) {
        unsigned char b0 = buf[i], b1 = buf[i + 1];
        if (b0 != 0x82 || !(b1 & 0x80)) break; /* final binary, masked: else Python */
        Py_ssize_t h = 2;
        uint64_t length = b1 & 127;
        if (length == 126) {
            if (n - i < 4) break;
            length = ((uint64_t)buf[i + 2] << 8) | buf[i + 3];
            h = 4;
        } else if (length == 127) {
            if (n - i < 10) break;
            length = 0;
            for (int k = 0; k < 8; k++) length = (length << 8) | buf[i + 2 + k];
            h = 10;
        }
        if (length > (uint64_t)max_message) break;
        if (n - i < h + 4 || (uint64_t)(n - i - h - 4) < length) break; /* not all here */
        const unsigned char *key = buf + i + h;
        PyObject *payload = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)length);
        if (payload == NULL) goto fail;
        unmask_into(PyBytes_AS_STRING(payload), key + 4, (Py_ssize_t)length, key);
        int appended = PyList_Append(found, payload);
        Py_DECREF(payload);
        if (appended < 0) goto fail;
        i += h + 4 + (Py_ssize_t)length;
    }
    PyBuffer_Release(&view);
    return Py_BuildValue("(Nn)", found, i);
fail:
    PyBuffer_Release(&view);
    Py_DECREF(found);
    return NULL;
}

static PyObject *unmask(PyObject *self, PyObject *args) {
    Py_buffer key, data;
    if (!PyArg_ParseTuple(args, "y*y*", &key, &data)) return NULL;
    if (key.len != 4) {
        PyBuffer_Release(&key);
        PyBuffer_Release(&data);
        PyErr_SetString(PyExc_ValueError, "a mask key is 4 bytes");
        return NULL;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, data.len);
    if (out != NULL)
        unmask_into(PyBytes_AS_STRING(out), (const unsigned char *)data.buf, data.len,
                    (const unsigned char *)key.buf);
    PyBuffer_Release(&key);
    PyBuffer_Release(&data);
    return out;
}

static PyObject *frame(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 || !PyLong_Check(args[0]) || !PyBytes_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "frame(opcode: int, payload: bytes)");
        return NULL;
    }
    long opcode = PyLong_AsLong(args[0]);
    if (opcode < 0 || opcode > 15) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "an opcode is 0 to 15");
        return NULL;
    }
    Py_ssize_t n = PyBytes_GET_SIZE(args[1]);
    Py_ssize_t h = n < 126 ? 2 : n < 65536 ? 4 : 10;
    PyObject *out = PyBytes_FromStringAndSize(NULL, h + n);
    if (out == NULL) return NULL;
    unsigned char *o = (unsigned char *)PyBytes_AS_STRING(out);
    o[0] = (unsigned char)(0x80 | opcode);
    if (h == 2) {
        o[1] = (unsigned char)n;
    } else if (h == 4) {
        o[1] = 126;
        o[2] = (unsigned char)(n >> 8);
        o[3] = (unsigned char)n;
    } else {
        o[1] = 127;
        uint64_t len = (uint64_t)n;
        for (int k = 0; k < 8; k++) o[2 + k] = (unsigned char)(len >> (56 - 8 * k));
    }
    memcpy(o + h, PyBytes_AS_STRING(args[1]), (size_t)n);
    return out;
}

static unsigned long long spread_frames, spread_bytes; /* this process's, as spread_py's */

static PyObject *spread(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3 || !PyLong_Check(args[0]) || !PyBytes_Check(args[1])
            || !PyList_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "spread(seat: int, batch: bytes, lists: list)");
        return NULL;
    }
    long seat = PyLong_AsLong(args[0]);
    Py_ssize_t n = PyBytes_GET_SIZE(args[1]);
    if (seat < 0 || seat > 255 || n + 1 > 65535) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "a seat is 0 to 255, an entry at most 65535 bytes");
        return NULL;
    }
    PyObject *entry = PyBytes_FromStringAndSize(NULL, n + 3);
    if (entry == NULL) return NULL;
    unsigned char *e = (unsigned char *)PyBytes_AS_STRING(entry);
    e[0] = (unsigned char)((n + 1) >> 8);
    e[1] = (unsigned char)(n + 1);
    e[2] = (unsigned char)seat;
    memcpy(e + 3, PyBytes_AS_STRING(args[1]), (size_t)n);
    PyObject *lists = args[2];
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(lists); k++) {
        PyObject *to = PyList_GET_ITEM(lists, k);
        if (!PyList_Check(to)) {
            PyErr_SetString(PyExc_TypeError, "spread's lists hold lists");
            Py_DECREF(entry);
            return NULL;
        }
        if (PyList_Append(to, entry) < 0) {
            Py_DECREF(entry);
            return NULL;
        }
        spread_frames += 1;
        spread_bytes += (unsigned long long)n + 1; /* the seat and the batch */
    }
    return entry;
}

static PyObject *spread_totals(PyObject *self, PyObject *unused) {
    return Py_BuildValue("(KK)", spread_frames, spread_bytes);
}

static PyMethodDef methods[] = {
    {"frame", (PyCFunction)(void (*)(void))frame, METH_FASTCALL,
     "frame(opcode, payload) -> a final, unmasked frame"},
    {"spread", (PyCFunction)(void (*)(void))spread, METH_FASTCALL,
     "spread(seat, batch, lists) -> entry: the batch's bundle entry, appended to each list"},
    {"spread_totals", spread_totals, METH_NOARGS,
     "spread_totals() -> (frames, bytes) appended by spread so far"},
    {"binaries", binaries, METH_VARARGS,
     "binaries(buf, start, max_message) -> (payloads, end): the whole, final, masked "
     "binary frames of at most max_message bytes from buf[start:], unmasked."},
    {"unmask", unmask, METH_VARARGS, "unmask(key, data) -> bytes"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_frames", NULL, -1, methods};

PyMODINIT_FUNC PyInit__frames(void) { return PyModule_Create(&module); }
