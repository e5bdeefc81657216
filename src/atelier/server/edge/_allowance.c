/* The ink allowance (limits.InkAllowancePy) in C: two token buckets, for batches
 * and for bytes, spent together once per batch on the server's busiest path.
 *
 * In Python each batch read the allowance's three numbers, each a float object
 * of its own somewhere on the heap, made three new ones, and read the clock
 * through another call; with hundreds of connections those objects were rarely
 * in the processor's caches, and the allowance cost more than its arithmetic
 * (docs/performance.md). Here the numbers sit in the object, and take_now reads
 * the same clock as time.monotonic. The arithmetic is the Python's, operation
 * for operation, in IEEE doubles, so both give the same answers to the bit;
 * tests/test_limits.py holds both to two plain buckets.
 *
 * Allowance(frames_per_second, frames_burst, bytes_per_second, bytes_burst)
 *   .take(size, now) -> bool   refill to `now`, then spend 1 batch and `size` bytes, or nothing
 *   .take_now(size) -> bool    the same at the monotonic clock's now
 *   .holds(size) -> bool       whether `size` bytes can ever be taken
 *   .wait(size, now) -> float  seconds until take(size) would succeed (refilled to `now`)
 *   .batches, .bytes, .stamp   the buckets and when they were last refilled
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <math.h>
#include <time.h>

typedef struct {
    PyObject_HEAD
    double batches, bytes, stamp;
    double frames_rate, frames_burst, bytes_rate, bytes_burst;
} Allowance;

static int allowance_init(Allowance *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"frames_per_second", "frames_burst", "bytes_per_second",
                            "bytes_burst", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "dddd", names, &self->frames_rate,
                                     &self->frames_burst, &self->bytes_rate,
                                     &self->bytes_burst))
        return -1;
    self->batches = self->frames_burst;
    self->bytes = self->bytes_burst;
    self->stamp = -INFINITY; /* full, whenever the first batch comes */
    return 0;
}

static void refill(Allowance *self, double now) {
    double gone = now - self->stamp;
    self->stamp = now;
    double batches = self->batches + gone * self->frames_rate;
    self->batches = batches > self->frames_burst ? self->frames_burst : batches;
    double room = self->bytes + gone * self->bytes_rate;
    self->bytes = room > self->bytes_burst ? self->bytes_burst : room;
}

static PyObject *spend(Allowance *self, double size, double now) {
    refill(self, now);
    if (self->batches >= 1 && self->bytes >= size) {
        self->batches -= 1;
        self->bytes -= size;
        Py_RETURN_TRUE;
    }
    Py_RETURN_FALSE;
}

static int get_size(PyObject *arg, double *size) {
    if (!PyLong_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "size must be an int");
        return -1;
    }
    *size = PyLong_AsDouble(arg);
    return (*size == -1.0 && PyErr_Occurred()) ? -1 : 0;
}

/* (size, now) as take and wait are given them; -1 and an error if they are not */
static int get_size_now(PyObject *const *args, Py_ssize_t nargs, const char *usage,
                        double *size, double *now) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, usage);
        return -1;
    }
    if (get_size(args[0], size) < 0) return -1;
    *now = PyFloat_AsDouble(args[1]);
    return (*now == -1.0 && PyErr_Occurred()) ? -1 : 0;
}

static PyObject *allowance_take(Allowance *self, PyObject *const *args, Py_ssize_t nargs) {
    double size, now;
    if (get_size_now(args, nargs, "take(size, now)", &size, &now) < 0) return NULL;
    return spend(self, size, now);
}

static PyObject *allowance_take_now(Allowance *self, PyObject *arg) {
    double size;
    struct timespec ts;
    if (get_size(arg, &size) < 0) return NULL;
    clock_gettime(CLOCK_MONOTONIC, &ts); /* what time.monotonic reads */
    return spend(self, size, (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9);
}

static PyObject *allowance_holds(Allowance *self, PyObject *arg) {
    double size;
    if (get_size(arg, &size) < 0) return NULL;
    return PyBool_FromLong(size <= self->bytes_burst);
}

static PyObject *allowance_wait(Allowance *self, PyObject *const *args, Py_ssize_t nargs) {
    double size, now;
    if (get_size_now(args, nargs, "wait(size, now)", &size, &now) < 0) return NULL;
    refill(self, now);
    double a = (1 - self->batches) / self->frames_rate;
    double b = (size - self->bytes) / self->bytes_rate;
    double most = 0.0;
    if (a > most) most = a;
    if (b > most) most = b;
    return PyFloat_FromDouble(most);
}

static PyMethodDef allowance_methods[] = {
    {"take", (PyCFunction)(void (*)(void))allowance_take, METH_FASTCALL,
     "take(size, now) -> whether one batch of size bytes was spent"},
    {"take_now", (PyCFunction)allowance_take_now, METH_O,
     "take_now(size) -> take(size, time.monotonic())"},
    {"holds", (PyCFunction)allowance_holds, METH_O,
     "holds(size) -> whether a batch of size bytes can ever be taken"},
    {"wait", (PyCFunction)(void (*)(void))allowance_wait, METH_FASTCALL,
     "wait(size, now) -> seconds until take(size) would succeed"},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef allowance_members[] = {
    {"batches", T_DOUBLE, offsetof(Allowance, batches), 0, "batches that may be sent now"},
    {"bytes", T_DOUBLE, offsetof(Allowance, bytes), 0, "bytes that may be sent now"},
    {"stamp", T_DOUBLE, offsetof(Allowance, stamp), 0, "when the buckets were last refilled"},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject AllowanceType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "atelier.server.edge._allowance.Allowance",
    .tp_basicsize = sizeof(Allowance),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Two token buckets, for batches and for bytes, spent together.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)allowance_init,
    .tp_methods = allowance_methods,
    .tp_members = allowance_members,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_allowance", NULL, -1, NULL};

PyMODINIT_FUNC PyInit__allowance(void) {
    if (PyType_Ready(&AllowanceType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&AllowanceType);
    if (PyModule_AddObject(m, "Allowance", (PyObject *)&AllowanceType) < 0) {
        Py_DECREF(&AllowanceType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
