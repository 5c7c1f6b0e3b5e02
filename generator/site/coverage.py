"""The coverage page's figures: for each kind of the taxonomy, how often it was seen in the
labelled sample of public failure reports (entries/taxonomy.yaml `sample:` and `frequency:`),
and whether it has an entry. The template only lays these out.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from ..entries.model import KindFrequency, TaxonomySample, TaxonomySection


@dataclass(frozen=True)
class KindRow:
    """One kind of the taxonomy with its frequency in the sample."""

    id: str
    section: str  # the first section that lists it ("" for a counted kind no section lists)
    count: int  # sampled threads labelled with this kind (0: not seen)
    examples: tuple[str, ...]  # up to 3 thread URLs
    entry: str  # the entry that covers this kind: its own id, a `covered_by` id, or "" (open)

    @property
    def has_entry(self) -> bool:
        return bool(self.entry)


@dataclass(frozen=True)
class Coverage:
    """What the coverage page shows about the sample (threads == 0: no sample recorded)."""

    threads: int  # M
    date: str
    method: str  # where the procedure is described ("" if not given)
    ranked: tuple[KindRow, ...]  # kinds seen at least once, most frequent first
    covered: int  # sampled threads whose kind has an entry
    sections: tuple[tuple[str, tuple[KindRow, ...]], ...]  # each section, most frequent first

    @property
    def covered_percent(self) -> float:
        return round(100 * self.covered / self.threads, 1) if self.threads else 0.0

    @property
    def open(self) -> tuple[KindRow, ...]:
        """Kinds seen in the sample that have no entry yet, most frequent first."""
        return tuple(k for k in self.ranked if not k.has_entry)

    @property
    def open_threads(self) -> int:
        return sum(k.count for k in self.open)


def _order(row: KindRow) -> tuple[int, str]:
    return (-row.count, row.id)


def coverage(sections: tuple[TaxonomySection, ...], sample: TaxonomySample | None,
             frequency: tuple[KindFrequency, ...], entry_ids: Collection[str]) -> Coverage:
    """The figures for the coverage page. Counts come from `frequency` (the checker, E130,
    holds them to the sample file); a kind without a frequency was seen 0 times."""
    seen = {f.id: f for f in reversed(frequency)}  # the first frequency of an id wins
    section_of: dict[str, str] = {}
    for s in sections:
        for kind in s.ids:
            section_of.setdefault(kind, s.section)

    def row(kind: str) -> KindRow:
        f = seen.get(kind)
        covering = kind if kind in entry_ids else (f.covered_by if f and f.covered_by in entry_ids
                                                   else "")
        return KindRow(kind, section_of.get(kind, ""), max(f.count, 0) if f else 0,
                       tuple(f.examples) if f else (), covering or "")

    ranked = tuple(sorted((row(k) for k in seen if seen[k].count > 0), key=_order))
    grouped = []
    for s in sections:
        ids = list(dict.fromkeys(k for k in s.ids if section_of.get(k) == s.section))
        grouped.append((s.section, tuple(sorted((row(k) for k in ids), key=_order))))
    threads = sample.threads if sample is not None else 0
    return Coverage(threads=threads, date=sample.date if sample else "",
                    method=(sample.method or "") if sample else "", ranked=ranked,
                    covered=sum(k.count for k in ranked if k.has_entry), sections=tuple(grouped))
