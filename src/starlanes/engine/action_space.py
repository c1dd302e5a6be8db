"""Fixed action spaces: every action a game can ever offer, numbered 0..n-1.

A game's companion module ``action_space`` defines two functions:

- ``families(game) -> list[Family]``: the notation families in a fixed order, each a verb
  (the notation's first token) and one token domain per argument, derived from the game's
  loaded content and board (so a content pack gets its own numbering);
- ``key(state, action) -> tuple[str, ...]``: the action's canonical key, the verb followed
  by one token per argument. Usually the notation split on spaces; a game whose notation
  names things that come and go (Galactic Domination's ship numbers) rewrites those tokens
  into stable ones (the ship's slot).

A module whose keys never look at the state sets ``STATELESS_KEYS = True``; the space then
remembers each action's index. A module may also define a batch map,
``legal_index_map(state, space) -> dict[int, Action]``: the same dict as
:meth:`ActionSpace.indices_by_key` (index -> legal action), built faster for that game (one
loop, indices kept per state version); ``Game.action_space`` gives it to the space
(``batch``) and :meth:`ActionSpace.legal_indices` answers with it, so every adapter gains
it. Every space also remembers each key's index, so a key is
decoded once. ``families`` must not depend on the seed: one space serves every Game of the
same class, player count, options and content (see ``Game.action_space``).

The index of a key is its family's offset plus the mixed-radix number of its argument
tokens (first argument most significant). Numbering depends only on the families, so it is
stable for a given content and player count.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from math import prod
from typing import TYPE_CHECKING, Any

from .errors import ActionIndexError

if TYPE_CHECKING:  # pragma: no cover
    from .action import Action
    from .state import GameState


@dataclass(frozen=True)
class Family:
    """A notation family: ``verb`` and the token domain of each argument.

    ``size`` is the number of keys it covers (the product of the domain sizes)."""

    verb: str
    domains: tuple[tuple[str, ...], ...] = ()
    _lookup: tuple[dict[str, int], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "domains", tuple(tuple(d) for d in self.domains))
        lookups = []
        for d in self.domains:
            table = {t: i for i, t in enumerate(d)}
            if len(table) != len(d):
                raise ValueError(f"family {self.verb!r} has a repeated token in a domain")
            lookups.append(table)
        object.__setattr__(self, "_lookup", tuple(lookups))

    @property
    def size(self) -> int:
        return prod(len(d) for d in self.domains)


class ActionSpace:
    """The fixed numbering of a game's keys (see the module docstring).

    ``size`` is the number of distinct actions; :meth:`index` and :meth:`key_at` convert
    between keys and indices and raise :class:`ActionIndexError` outside the space.
    """

    def __init__(self, families: Sequence[Family],
                 key: Callable[[GameState, Action], tuple[str, ...]],
                 stateless: bool = False,
                 batch: Callable[[GameState, ActionSpace], dict[int, Action]] | None = None,
                 ) -> None:
        self.families = tuple(families)
        self.key = key
        self.stateless = stateless
        self.batch = batch
        self._memo: dict[Any, int] = {}
        #: stateless spaces: id(action) -> index, for the action objects in ``_held`` (kept
        #: alive there, so no other object can take an id while it is a key); a game's
        #: shared action objects come back every step, and a look-up by identity skips
        #: the action's hash (a dataclass's ``__hash__`` is a Python function)
        self._by_id: dict[int, int] = {}
        self._held: list[Any] = []
        self._key_memo: dict[tuple[str, ...], int] = {}
        self.offsets: list[int] = []
        self._by_head: dict[tuple[str, int], tuple[int, Family]] = {}
        offset = 0
        for fam in self.families:
            head = (fam.verb, len(fam.domains))
            if head in self._by_head:
                raise ValueError(f"two families {fam.verb!r} with {len(fam.domains)} arguments")
            self._by_head[head] = (offset, fam)
            self.offsets.append(offset)
            offset += fam.size
        self.size = offset
        self._last: tuple[Any, int, Any, dict[int, Any]] | None = None

    def family(self, verb: str, arity: int) -> tuple[int, Family] | None:
        """``(offset, family)`` of the family of ``verb`` with ``arity`` arguments (its
        first index and the family), or None when the space has none."""
        return self._by_head.get((verb, arity))

    def index(self, key: tuple[str, ...]) -> int:
        """The index of ``key``; ActionIndexError if no family covers it."""
        i = self._key_memo.get(key)
        if i is not None:
            return i
        i = self._decode(key)
        if len(self._key_memo) < _MEMO_CAP:
            self._key_memo[key] = i
        return i

    def _decode(self, key: tuple[str, ...]) -> int:
        found = self._by_head.get((key[0], len(key) - 1)) if key else None
        if found is None:
            raise ActionIndexError(f"no action family {' '.join(key)!r} in the action space")
        offset, fam = found
        i = 0
        for tok, dom, table in zip(key[1:], fam.domains, fam._lookup, strict=True):
            j = table.get(tok)
            if j is None:
                raise ActionIndexError(
                    f"token {tok!r} of {' '.join(key)!r} is outside the action space"
                )
            i = i * len(dom) + j
        return offset + i

    def key_at(self, index: int) -> tuple[str, ...]:
        """The key numbered ``index``; ActionIndexError outside ``0..size-1``."""
        if isinstance(index, bool) or not 0 <= int(index) < self.size:
            raise ActionIndexError(f"action index {index!r} outside 0..{self.size - 1}")
        index = int(index)
        lo, hi = 0, len(self.offsets) - 1
        while lo < hi:  # last family whose offset <= index
            mid = (lo + hi + 1) // 2
            if self.offsets[mid] <= index:
                lo = mid
            else:
                hi = mid - 1
        fam = self.families[lo]
        rest = index - self.offsets[lo]
        tokens: list[str] = []
        for dom in reversed(fam.domains):
            rest, j = divmod(rest, len(dom))
            tokens.append(dom[j])
        return (fam.verb, *reversed(tokens))

    def legal_indices(self, state: GameState) -> dict[int, Action]:
        """Index -> legal action of ``state`` (the caller must not change the dict).
        Raises ActionIndexError if a legal action falls outside the space (a gap in the
        game's families) or two share an index. Answered by the game's batch map where it
        has one (see the module docstring), else by :meth:`indices_by_key`. The last
        state's answer is kept until it changes (an apply, another state)."""
        last = self._last
        if (last is not None and last[0] is state and last[1] == len(state.history)
                and last[2] is state._legal):
            return last[3]
        batch = self.batch
        out = batch(state, self) if batch is not None else self.indices_by_key(state)
        self._last = (state, len(state.history), state._legal, out)
        return out

    def indices_by_key(self, state: GameState) -> dict[int, Action]:
        """Index -> legal action of ``state`` from each action's key (the game's batch map
        left aside): what a batch map must answer. Raises as :meth:`legal_indices`."""
        legal = state.legal_actions()
        out: dict[int, Any]
        if self.stateless:
            by_id = self._by_id
            try:  # every action object met before: one comprehension, no call per action
                out = {by_id[id(a)]: a for a in legal}
            except KeyError:
                out = self._stateless_indices(state, legal)
        else:
            out = {}
            index, key = self.index, self.key
            for a in legal:
                out[index(key(state, a))] = a
        if len(out) != len(legal):
            self._refuse_shared(state, legal)
        return out

    def _stateless_indices(self, state: GameState, legal: list[Action]) -> dict[int, Action]:
        """:meth:`indices_by_key` of a stateless space when some action object is new to
        the identity table: by the action's value (then its key), each object then
        remembered by identity (both tables start again past their caps)."""
        memo, by_id, held = self._memo, self._by_id, self._held
        if len(by_id) >= _ID_CAP:
            by_id.clear()
            held.clear()
        out: dict[int, Any] = {}
        for a in legal:
            i = by_id.get(id(a))
            if i is None:
                i = memo.get(a)
                if i is None:
                    i = self.index(self.key(state, a))
                    if len(memo) < _MEMO_CAP:
                        memo[a] = i
                by_id[id(a)] = i
                held.append(a)
            out[i] = a
        return out

    def legal_mask(self, state: GameState, dtype: Any = None) -> Any:
        """A numpy array of length :attr:`size` (``dtype``, bool by default), 1/True
        exactly at the indices of ``state``'s legal actions (see :meth:`legal_indices`
        for the errors)."""
        return self.legal_arrays(state, dtype)[0]

    def legal_arrays(self, state: GameState, dtype: Any = None) -> tuple[Any, Any]:
        """``(mask, indices)``: :meth:`legal_mask` and the intp array of the legal indices
        it was written from, in the order of ``state.legal_actions()`` (the research
        adapters hand out both; errors as :meth:`legal_indices`)."""
        import numpy as np

        legal = self.legal_indices(state)
        mask = np.zeros(self.size, dtype=np.bool_ if dtype is None else dtype)
        indices = np.fromiter(legal, dtype=np.intp, count=len(legal))
        mask[indices] = 1
        return mask, indices

    def _refuse_shared(self, state: GameState, legal: list[Action]) -> None:
        """Raise ActionIndexError naming two legal actions that share an index."""
        seen: dict[int, Action] = {}
        for a in legal:
            i = self.index(self.key(state, a))
            if i in seen:
                raise ActionIndexError(f"{seen[i]} and {a} share action index {i}")
            seen[i] = a
        raise ActionIndexError("the legal actions list holds a repeated action")


_MEMO_CAP = 1_000_000
"""How many actions and keys a space remembers the index of (then it decodes afresh)."""

_ID_CAP = 100_000
"""How many action objects a stateless space remembers by identity (then it starts that
table again; the index by value stays)."""


def notation_key(state: GameState, action: Action) -> tuple[str, ...]:
    """The default key: the action's notation split on spaces."""
    return tuple(str(action).split())
