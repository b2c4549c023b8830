/* ropemath.core._pairs: move the two coordinates of every pair between a strided pair of arrays
 * and one contiguous buffer of side-by-side pairs -- bits only, no arithmetic.
 *
 * Optional, compiled at install time when a C compiler is present (pyproject.toml, ext-modules,
 * optional = true); without it ropemath.core.kernels moves the pairs with numpy copies, which give
 * the same bytes (tests/test_pairs.py compares the two).  The rotation itself stays numpy's complex
 * multiply, so the arithmetic is the same with or without this module.
 *
 *   gather(a, b, z):  z[2k] = a.flat[k], z[2k+1] = b.flat[k]   (k in C order over a's shape)
 *   scatter(z, a, b): a.flat[k] = z[2k], b.flat[k] = z[2k+1]
 *
 * a and b: buffers of one shape (any strides), items of 4 or 8 bytes; z: a C-contiguous buffer of
 * 2 * a.size items of the same size.  Items are copied as bytes, so NaN payloads and signed zeros
 * are kept.  The GIL is released while the bytes move.
 *
 * References: Su et al., RoFormer, arXiv:2104.09864 v5, eq. (34) (the pairs); Hugging Face
 * transformers rotate_half (the "half" layout whose pairs are d/2 apart).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

/* Two interleaved copies of n items of `bytes` bytes: item k of s0 (stride u0) to d0 + k * t0 and of s1 to
 * d1 + k * t1 (strides in bytes).  Inlined with constant sizes and strides by move_row, so that the compiler
 * emits vectorised loops for the contiguous rows the kernels pass. */
static inline void
copy_two(char *d0, Py_ssize_t t0, const char *s0, Py_ssize_t u0, char *d1, Py_ssize_t t1, const char *s1,
         Py_ssize_t u1, Py_ssize_t n, size_t bytes)
{
    for (Py_ssize_t k = 0; k < n; k++) {
        memcpy(d0 + k * t0, s0 + k * u0, bytes);
        memcpy(d1 + k * t1, s1 + k * u1, bytes);
    }
}

/* One row of n pairs: to_z: (a, b) -> side-by-side pairs at z; else the reverse. */
static void
move_row(char *z, char *a, char *b, Py_ssize_t n, Py_ssize_t sa, Py_ssize_t sb, int bytes, int to_z)
{
    int contiguous = sa == bytes && sb == bytes;
    if (bytes == 4 && contiguous && to_z)
        copy_two(z, 8, a, 4, z + 4, 8, b, 4, n, 4);
    else if (bytes == 4 && contiguous)
        copy_two(a, 4, z, 8, b, 4, z + 4, 8, n, 4);
    else if (bytes == 8 && contiguous && to_z)
        copy_two(z, 16, a, 8, z + 8, 16, b, 8, n, 8);
    else if (bytes == 8 && contiguous)
        copy_two(a, 8, z, 16, b, 8, z + 8, 16, n, 8);
    else if (to_z)
        copy_two(z, 2 * bytes, a, sa, z + bytes, 2 * bytes, b, sb, n, (size_t)bytes);
    else
        copy_two(a, sa, z, 2 * bytes, b, sb, z + bytes, 2 * bytes, n, (size_t)bytes);
}

/* Get a strided buffer of `obj`; on failure raise TypeError naming the parameter. */
static int
get_buffer(PyObject *obj, Py_buffer *view, int writable, const char *name)
{
    int flags = PyBUF_STRIDES | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s must be a %sbuffer of 4- or 8-byte items, got %.100s", name,
                     writable ? "writable " : "", Py_TYPE(obj)->tp_name);
        return -1;
    }
    return 0;
}

/* Check a, b (same shape, same item size 4 or 8) and z (C-contiguous, 2 * size items). */
static int
check(Py_buffer *a, Py_buffer *b, Py_buffer *z)
{
    if (a->itemsize != 4 && a->itemsize != 8) {
        PyErr_Format(PyExc_ValueError, "a must have items of 4 or 8 bytes, got %zd", a->itemsize);
        return -1;
    }
    if (b->itemsize != a->itemsize || z->itemsize != a->itemsize) {
        PyErr_Format(PyExc_ValueError, "a, b and z must have items of one size, got %zd, %zd and %zd",
                     a->itemsize, b->itemsize, z->itemsize);
        return -1;
    }
    if (a->ndim < 1 || b->ndim != a->ndim ||
        memcmp(a->shape, b->shape, (size_t)a->ndim * sizeof(Py_ssize_t)) != 0) {
        PyErr_SetString(PyExc_ValueError, "a and b must have one shape with at least one axis");
        return -1;
    }
    if (!PyBuffer_IsContiguous(z, 'C')) {
        PyErr_SetString(PyExc_ValueError, "z must be C-contiguous");
        return -1;
    }
    Py_ssize_t items = a->len / a->itemsize;
    if (z->len != 2 * a->len) {
        PyErr_Format(PyExc_ValueError, "z must hold 2 * a.size = %zd items, got %zd", 2 * items,
                     z->len / z->itemsize);
        return -1;
    }
    return 0;
}

/* Walk the leading axes of a and b (odometer); for each last-axis row call the row function. */
static void
move(Py_buffer *a, Py_buffer *b, Py_buffer *z, int to_z)
{
    int ndim = a->ndim, bytes = (int)a->itemsize;
    Py_ssize_t n = a->shape[ndim - 1];
    Py_ssize_t sa = a->strides[ndim - 1], sb = b->strides[ndim - 1];
    Py_ssize_t index[PyBUF_MAX_NDIM] = {0};
    char *pa = (char *)a->buf, *pb = (char *)b->buf, *pz = (char *)z->buf;
    if (a->len == 0)
        return;
    for (;;) {
        move_row(pz, pa, pb, n, sa, sb, bytes, to_z);
        pz += 2 * n * bytes;
        int axis = ndim - 2;
        for (; axis >= 0; axis--) {
            pa += a->strides[axis];
            pb += b->strides[axis];
            if (++index[axis] < a->shape[axis])
                break;
            pa -= a->strides[axis] * a->shape[axis];
            pb -= b->strides[axis] * b->shape[axis];
            index[axis] = 0;
        }
        if (axis < 0)
            return;
    }
}

static PyObject *
run(PyObject *const *args, Py_ssize_t nargs, int to_z)
{
    /* gather(a, b, z): a, b read, z written;  scatter(z, a, b): z read, a, b written */
    const char *names[3] = {"a", "b", "z"};
    PyObject *objs[3];
    Py_buffer views[3];
    int got = 0;
    PyObject *result = NULL;
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "%s takes 3 arguments, got %zd", to_z ? "gather(a, b, z)" : "scatter(z, a, b)",
                     nargs);
        return NULL;
    }
    if (to_z) {
        objs[0] = args[0]; objs[1] = args[1]; objs[2] = args[2];
    } else {
        objs[2] = args[0]; objs[0] = args[1]; objs[1] = args[2];
    }
    for (; got < 3; got++) {
        int writable = to_z ? (got == 2) : (got != 2);
        if (get_buffer(objs[got], &views[got], writable, names[got]) < 0)
            goto done;
    }
    if (check(&views[0], &views[1], &views[2]) < 0)
        goto done;
    Py_BEGIN_ALLOW_THREADS
    move(&views[0], &views[1], &views[2], to_z);
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    while (got-- > 0)
        PyBuffer_Release(&views[got]);
    return result;
}

static PyObject *
gather(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return run(args, nargs, 1);
}

static PyObject *
scatter(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    return run(args, nargs, 0);
}

static PyMethodDef methods[] = {
    {"gather", (PyCFunction)(void (*)(void))gather, METH_FASTCALL,
     "gather(a, b, z)\n--\n\nCopy pairs side by side: z[2k] = a.flat[k], z[2k+1] = b.flat[k] (bits only)."},
    {"scatter", (PyCFunction)(void (*)(void))scatter, METH_FASTCALL,
     "scatter(z, a, b)\n--\n\nCopy pairs apart: a.flat[k] = z[2k], b.flat[k] = z[2k+1] (bits only)."},
    {NULL, NULL, 0, NULL},
};

static PyModuleDef_Slot slots[] = {
#ifdef Py_mod_multiple_interpreters
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
#ifdef Py_GIL_DISABLED
    {Py_mod_gil, Py_MOD_GIL_NOT_USED},
#endif
    {0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "ropemath.core._pairs",
    "Move the two coordinates of every pair between two strided arrays and one buffer of side-by-side\n"
    "pairs, bits only (the optional compiled helper of ropemath.core.kernels; without it numpy copies\n"
    "give the same bytes).\n\n"
    "References: Su et al., RoFormer, arXiv:2104.09864 v5, eq. (34); Hugging Face transformers rotate_half.",
    0,
    methods,
    slots,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC
PyInit__pairs(void)
{
    return PyModuleDef_Init(&module);
}
