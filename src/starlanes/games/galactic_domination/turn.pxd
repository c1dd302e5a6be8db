# Declarations for the compiled build only (Cython reads this file beside turn.py; the pure
# install never does): exact types for what the turn's start and end read, every turn, of
# each ship (a ship is always a plain tuple, the table a dict: see fleet.pxd).
# The rules stay in turn.py (docs/engine.md, "Compiled build").
cimport cython

# Only the index constants this module imports for its own use are declared (a cdef name
# stops being a Python attribute of the compiled module; see fleet.pxd).
cdef int AIM, AP, ATT, CHG, DEEP, HULL, KIND, OWNER, SEC, SH, COMMAND, EXPLORER, MINER

@cython.locals(ships=dict, x=tuple, attached=list, max_sh=tuple, max_ap=tuple,
               k=cython.int, sh=cython.int, chg=cython.int, gain=cython.int)
cpdef start_turn(object s, int seat)

@cython.locals(x=tuple, ships=dict, seat=cython.int)
cpdef end_turn(object s)
