# Declarations for the compiled build only (Cython reads this file beside turn.py; the pure
# install never does): exact types for the pass over a seat's units that sets their
# movement points at the start of its turn. A unit stays a Unit (a tuple subclass), cast to
# a tuple where it is read by index (engine/_cython.py).
# The rules stay in turn.py (docs/engine.md, "Compiled build").
cimport cython

@cython.locals(warp_sys=dict, base=dict, changed=list, u=tuple)
cpdef reset_movement(object s, int seat)
