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

static PyMethodDef methods[] = {
    {"binaries", binaries, METH_VARARGS,
     "binaries(buf, start, max_message) -> (payloads, end): the whole, final, masked "
     "binary frames of at most max_message bytes from buf[start:], unmasked."},
    {"unmask", unmask, METH_VARARGS, "unmask(key, data) -> bytes"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_frames", NULL, -1, methods};

PyMODINIT_FUNC PyInit__frames(void) { return PyModule_Create(&module); }
