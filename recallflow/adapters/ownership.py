"""Caches whose entries belong to the principal whose read made them.

The recall path remembers query vectors, scan verdicts and token counts by text. Each
entry is exact whoever computed it, but a remembered one is faster, so an entry shared
between principals would let one time whether another asked a text or holds a statement
(see "Hard filters" in docs/architecture.md). A read therefore uses the cache as its
principal: :meth:`OwnedCache.owned_by` is a view sharing the cache's store and size bound
whose entries are keyed by that principal too.
"""

from __future__ import annotations

from typing import Self

#: Whose texts an entry holds: (tenant, principal).
Owner = tuple[str, str]
#: The owner of the entries a cache used directly (not through a view) makes.
UNOWNED: Owner = ("", "")


class OwnedCache:
    """Mixin of a cache that keys its entries by :attr:`_owner` as well as by text."""

    _owner: Owner = UNOWNED

    def owned_by(self, tenant_id: str, principal_id: str) -> Self:
        """This cache as one principal's reads use it: the same remembered entries and
        size bound, but only the entries this principal's own reads made."""
        view = object.__new__(type(self))  # on every read's path: no __init__
        view.__dict__.update(self.__dict__, _owner=(tenant_id, principal_id))
        return view
