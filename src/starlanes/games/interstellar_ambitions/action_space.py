"""Interstellar Ambitions' fixed action space (see :mod:`starlanes.engine.action_space`).

Every domain is read from the loaded content and the player count, so a content pack
gets its own numbering:

- seats ``P0``..; resources ``food ore science coin``; the six Action Tracks; track
  tokens ``<action>:<level>`` (24, or the 18 that can still move right, or the 18 above
  BASIC, as each verb allows);
- cards, techs, planets, ambitions and ship cards by their content ids; planets that come
  in the type stacks (every type but Home Worlds) for the verbs that only ever name a
  face-up or given-away planet;
- a ship outside a fight is written as the notation writes it, its card id and its
  damage markers (``destroyer/1``). Damage stays at or below the card's combat value
  (a ship with more is destroyed: IA-SHIP-09, ruling IA-OPEN-07), so the labels of one
  card run ``id``, ``id/1`` .. ``id/<combat>``;
- inside a fight, damage piles up past that bound until the result destroys the ship, so
  an unmatched ship's ``fire`` target (IA-RAID-09) is numbered by **position** instead:
  ``pos<k>`` is the k-th ship of the enemy's revealed combat order, the lowest position
  holding a ship with that label. Orders hold at most ``MAX_SHIPS`` ships, so eight
  positions cover every fight;
- a Shadow card's target (``play <card> <target>``) takes the form its effect gives it,
  and each form is its own family holding only the cards of those effects: a word
  (``tech``/``planet``/``merc``/``self``), an own token, a seat, a seat's token, planet,
  ship label or tech, and Exchange Plans' ``seat.own-token.their-token`` (their token is
  the same action as one's own, so only its level is numbered);
- ``spoil tech <tech>`` and ``spoil bombard <planet>`` have two arguments each, so their
  keys are ``spoil-tech`` and ``spoil-bombard``.

Keys of ``fire`` and ``play`` read the state (the fight's orders; the card's effect in the
state's content): :func:`key` raises ActionIndexError for them without one.

No action of the game is a subset choice: every "choose some" of the rulebook (cards to
keep, tokens to advance or place, planets to clear, face-up cards to replace, cards to boost with,
resources to steal or pay, tokens to disrupt, the combat order) is already asked one item
per decision, with ``done``/``pass`` to stop where stopping is allowed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlanes.engine import ActionIndexError
from starlanes.engine.action_space import Family

from .actions import ACTIONS, LEVELS, RES, token_name
from .combat import label
from .common import HOME, MAX_SHIPS

if TYPE_CHECKING:  # pragma: no cover
    from starlanes.engine import Action

    from .content import IAContent
    from .game import InterstellarAmbitions
    from .state import IAState

TOKENS = tuple(token_name(c) for c in range(24))
"""Every track token, action by action (Action Track order), BASIC to ULTIMATE."""
MOVABLE = tuple(token_name(c) for c in range(24) if c & 3 != 3)
"""Tokens that can still advance one slot (not ULTIMATE, IA-TRK-05)."""
RAISED = tuple(token_name(c) for c in range(24) if c & 3)
"""Tokens above BASIC (what Disrupt Plans, Red Tape, Shredded Plans and Palace Coup
move back)."""
POSITIONS = tuple(f"pos{k}" for k in range(MAX_SHIPS))
"""Places in a combat order (a side fights with at most MAX_SHIPS ships)."""

WORD_EFFECTS = {"new_opportunities": ("tech", "planet", "merc"), "gain": ("self",),
                "intel": ("self",)}
FORMS = {
    "new_opportunities": "play", "gain": "play", "intel": "play",
    "fast_track": "play-token",
    "lose": "play-seat", "steal": "play-seat", "pilfer": "play-seat",
    "delay": "play-seat-token", "scuttle": "play-seat-token",
    "bump_ultimate": "play-seat-token",
    "plague": "play-seat-planet", "riot": "play-seat-planet",
    "boom": "play-seat-ship", "damage_ship": "play-seat-ship", "defect": "play-seat-ship",
    "steal_tech": "play-seat-tech",
    "exchange_plans": "play-seat-swap",
}
"""Shadow effect kind -> the key verb of its target form (shadow.py lists the targets)."""


def ship_labels(content: IAContent) -> tuple[str, ...]:
    """Every label a ship can carry outside a fight: each card undamaged, then with 1 ..
    its combat value of damage markers."""
    return tuple(label for i, sid in enumerate(content.ship_ids)
                 for label in (sid, *(f"{sid}/{d}" for d in
                                      range(1, content.ship_combat[i] + 1))))


def families(game: InterstellarAmbitions) -> list[Family]:
    """The notation families in index order."""
    c = game.content
    seats = tuple(f"P{i}" for i in range(game.players))
    planets = c.planet_ids
    stacked = tuple(p for i, p in enumerate(planets) if c.planet_type[i] != HOME)
    labels = ship_labels(c)
    mercs = tuple(c.ship_ids[m] for m in sorted(set(c.merc_cards)))
    standard = tuple(c.ship_ids[m] for m in c.standard_ships)
    upkeep = tuple(sid for i, sid in enumerate(c.ship_ids) if c.ship_upkeep[i] > 0)
    levels = tuple(str(v) for v in range(2, max(c.planet_max) + 1))
    start = tuple(c.tech_ids[t] for t in c.start_techs)
    techs = c.tech_ids
    cards = c.shadow_ids

    def played(form: str) -> tuple[str, ...]:
        return tuple(cid for i, cid in enumerate(cards)
                     if FORMS.get(c.shadow_effect[i][0]) == form)

    words = tuple(dict.fromkeys(w for ws in WORD_EFFECTS.values() for w in ws))
    return [
        Family("done"), Family("pass"), Family("produce"), Family("plan"),
        Family("buy-cards"), Family("hire-mercs"),
        Family("exchange", (RES, RES)),
        # set-up
        Family("start-tech", (start,)),
        Family("take", (TOKENS + RES,)),  # a token to take (step 3) or a resource (set-up)
        Family("place", (ACTIONS,)),
        Family("advance", (MOVABLE,)),
        # PRODUCE
        Family("home", (RES,)),
        Family("upkeep", (upkeep, ("pay", "discard"))),
        # COLONISE, DEVELOP and the 8-planet rule
        Family("clear", (stacked,)),
        Family("colonise", (stacked,)),
        Family("give", (stacked, seats)),
        Family("discard-planet", (stacked,)),
        Family("develop", (planets, levels)),
        Family("pay", (RES,)),
        # BUILD, RESEARCH, SHADOW, FLEET
        Family("repair", (labels,)),
        Family("build", (standard,)),
        Family("scrap", (labels,)),
        Family("replace", (tuple(dict.fromkeys(techs + mercs)),)),
        Family("research", (techs,)),
        Family("discard", (cards,)),
        Family("buy", (cards,)),
        Family("hire", (mercs,)),
        Family("raid", (seats,)),
        Family("invade", (seats,)),
        # Shadow Activities
        Family("play", (played("play"), words)),
        Family("play-token", (played("play-token"), MOVABLE)),
        Family("play-seat", (played("play-seat"), seats)),
        Family("play-seat-token", (played("play-seat-token"), seats, RAISED)),
        Family("play-seat-planet", (played("play-seat-planet"), seats, planets)),
        Family("play-seat-ship", (played("play-seat-ship"), seats, labels)),
        Family("play-seat-tech", (played("play-seat-tech"), seats, techs)),
        Family("play-seat-swap", (played("play-seat-swap"), seats, TOKENS, LEVELS)),
        Family("boost", (cards,)),
        Family("oppose", (cards,)),
        # combat and its spoils
        Family("order", (labels,)),
        Family("fire", (POSITIONS,)),
        Family("steal", (RES,)),
        Family("spoil", (("disrupt",),)),
        Family("spoil-tech", (techs,)),
        Family("spoil-bombard", (planets,)),
        Family("capture", (planets,)),
        Family("rescue", (stacked,)),
        Family("disrupt", (RAISED,)),
        # Ambitions
        Family("claim", (c.ambition_ids,)),
    ]


def fire_position(state: IAState, target: str) -> str:
    """The position token of an unmatched ship's ``fire`` target: the lowest place in the
    enemy's combat order holding a ship in the fight with label ``target``. Raises
    ActionIndexError when no fight is waiting for a target."""
    cb = state.combat
    top = state.stack[-1] if state.stack else None
    if cb is None or top is None or top.kind != "fire":
        raise ActionIndexError(f"fire {target}: no unmatched ship is choosing a target")
    enemy = 1 - top.data[0]
    entries = cb.entries[enemy]
    for k, e in enumerate(cb.order(enemy)):
        if entries[e][3] == 0 and label(state, entries[e]) == target:
            return POSITIONS[k]
    raise ActionIndexError(f"fire {target}: no such ship in the enemy's combat order")


def _play_key(state: IAState, card: str, target: str) -> tuple[str, ...]:
    c = state.content
    i = c.shadow_index.get(card)
    if i is None:
        raise ActionIndexError(f"play {card}: no such Shadow card")
    form = FORMS.get(c.shadow_effect[i][0])
    if form is None:
        raise ActionIndexError(f"play {card}: its effect has no target form")
    if form in ("play", "play-token"):
        return (form, card, target)
    parts = target.split(".")
    if form == "play-seat-swap":
        seat, mine, theirs = parts
        return (form, card, seat, mine, theirs.partition(":")[2])
    return (form, card, *parts)


def key(state: IAState | None, action: Action) -> tuple[str, ...]:
    """The canonical key of ``action`` (see the module docstring). Raises ActionIndexError
    for a ``fire`` or ``play`` action given without its state."""
    verb = action.verb  # type: ignore[attr-defined]
    a = action.a  # type: ignore[attr-defined]
    if not a:
        return (verb,)
    b = action.b  # type: ignore[attr-defined]
    if verb == "fire" or verb == "play":
        if state is None:
            raise ActionIndexError(f"{action}: numbering a {verb} action needs the state")
        if verb == "fire":
            return ("fire", fire_position(state, a))
        return _play_key(state, a, b)
    if verb == "spoil" and b:
        return (f"spoil-{a}", b)
    return (verb, a, b) if b else (verb, a)
