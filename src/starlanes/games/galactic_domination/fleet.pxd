# Declarations for the compiled build only (Cython reads this file beside fleet.py; the
# pure install never does): C integers for the rules' small numbers and exact types for
# the lists, dicts and tuples turn_actions reads (a ship is always a plain tuple); its
# counts by sector and by kind are C arrays, sized by what content.py enforces: the
# board's 15 sectors and exactly the five unit kinds (an index past them would not raise).
# The rules stay in fleet.py (docs/engine.md, "Compiled build").
cimport cython

# A name declared `cdef` here is a C variable of the compiled module and no longer one of
# its Python attributes: only the index constants this module imports for its own use are
# (the limits other modules import from it, CAPACITY and the team sizes, stay Python).
cdef int AP, ATT, CHG, KIND, OWNER, SEC, MINER, EXPLORER, RAIDER

@cython.locals(seat=cython.int, k=cython.int, sec=cython.int, t=cython.int,
               money=cython.int, fleet=cython.int, cost=tuple, load=cython.int[15], foes=list, mine=list, counts=cython.int[5], out=list,
               move_rows=dict, attack_rows=dict, special_rows=dict, row=list, hits=dict, near=list,
               x=tuple, ships=dict, holes=list, names=tuple, adj=tuple, damage=tuple,
               reach=tuple)
cpdef list turn_actions(object s)
