# Declarations for the compiled build only (Cython reads this file beside movement.py; the
# pure install never does): C integers and exact container types for the scans of a seat's
# units that listing and making a move take. A unit stays a Unit (a tuple subclass), cast
# to a tuple where it is read by index (engine/_cython.py).
# The rules stay in movement.py (docs/engine.md, "Compiled build").
cimport cython

@cython.locals(out=dict, carried=frozenset, u=tuple, entry=tuple)
cpdef dict _stacks(object s, int seat)

@cython.locals(stats=dict, carried_kinds=frozenset, ships=list, cargo=list,
               pair=tuple, u=tuple, x=tuple, moved=list, mp=cython.Py_ssize_t,
               toll=cython.Py_ssize_t)
cpdef list move_stack(object s, int seat, int src, int dst, str kind=*)
