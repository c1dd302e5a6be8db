# Declarations for the compiled build only (Cython reads this file beside survey.py; the
# pure install never does): C integers and exact container types for the one pass over a
# seat's units that every listing of its moves makes. A unit stays a Unit (a tuple
# subclass), cast to a tuple where it is read by index (engine/_cython.py); a board point
# stays a Python int, as it keys the survey's dicts.
# The rules stay in survey.py (docs/engine.md, "Compiled build").
cimport cython

cdef class Survey:
    cdef public dict ships
    cdef public dict own
    cdef public set lifters

@cython.locals(out=Survey, ships=dict, own=dict, lifters=set, memo=dict, firsts=list,
               part=tuple, first=tuple, entry=tuple)
cpdef Survey survey_units(object s, int seat)

@cython.locals(carried=frozenset, ground=frozenset, lift=frozenset, first=cython.Py_ssize_t,
               uid=cython.Py_ssize_t, kinds=list, lifter=bint, flags=list, pair=tuple,
               u=tuple, kind=str)
cpdef tuple _point(tuple entry, object sets, object barred, bint at_planet)
