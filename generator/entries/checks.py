"""The checker: per-entry checks and cross-entry checks, all returning located problems.

Each check is a small function. Per-entry checks take (doc, context) and return problems;
cross-entry checks take the whole catalog. Nothing here prints or exits.
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..matching.engine import Engine, diagnose_text
from ..matching.templates import TemplateError, compile_template
from ..provenance.checks import check_provenance  # E125-E128, on the typed catalog
from . import schema
from .catalog import Catalog
from .codes import BY_CODE
from .loader import Document
from .model import VOCABULARY_LISTS, Entry
from .problems import Problem
from .validate import describe, problems_for

SCAFFOLD_MARKER = "FILL-IN:"
_ID = re.compile(schema.ID_PATTERN)
_TAG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
_NODE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
# raw HTML as CommonMark sees it, and as Python-Markdown (MkDocs; Zensical follows it) sees it:
# any <letter...> without a space or @ in its name, so a placeholder such as <GLOO_SOCKET_IFNAME>
# is swallowed as a tag by the site builders
_HTML = re.compile(r"<\s*/?\s*[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?\s*>|<!--"
                   r"|</?[A-Za-z][^<>@ ]*(?: [^<>]*)?>")
_AUTOLINK = re.compile(r"<(?:https?|mailto):[^<>\s]+>")
_CODE_FENCE = re.compile(r"^[ ]{0,3}(```|~~~).*?^[ ]{0,3}\1[ \t]*$", re.M | re.S)
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
# a link target: inline [x](target), autolink <target>, or a reference definition [x]: target
_UNSAFE_LINK = re.compile(
    r"(?im)(?:\]\(\s*<?|<|^[ ]{0,3}\[[^\]]+\]:\s*<?)(javascript|vbscript|data)\s*:")
PLAIN_TEXT_FIELDS = {"fingerprint", "code"}  # shown in code blocks, never as Markdown


@dataclass
class Context:
    categories: set[str] = field(default_factory=set)
    components: set[str] = field(default_factory=set)
    words: dict[str, tuple[str, ...]] = field(default_factory=dict)  # vocabulary list -> ids


def _problem(doc: Document, path: tuple, code: str, message: str, key: bool = False) -> Problem:
    line, col = doc.key_at(path) if key else doc.at(path)
    return Problem(doc.path, line, col, code, message, BY_CODE[code].severity)


def _items(mapping: Any, key: str) -> list[Any]:
    """The list under `key`, or nothing when the mapping or the list is not there: checks run
    on files as written, and the schema check reports the wrong shapes."""
    value = mapping.get(key) if isinstance(mapping, dict) else None
    return value if isinstance(value, list) else []


def _strings(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _strings(item, path + (i,))
    elif isinstance(value, dict):
        for k, item in value.items():
            yield from _strings(item, path + (k,))


# -- per-entry checks -----------------------------------------------------------------

def check_schema(doc: Document, ctx: Context) -> list[Problem]:
    return [
        Problem(p.path, p.line, p.column, p.code, p.message, BY_CODE[p.code].severity)
        for p in problems_for(doc, schema.ENTRY, ctx.words)
    ]


def check_id(doc: Document, ctx: Context) -> list[Problem]:
    entry_id = doc.data.get("id")
    if not isinstance(entry_id, str) or not entry_id:
        return []
    out = []
    area = entry_id.split("-")[0]
    if not _ID.match(entry_id):
        out.append(_problem(doc, ("id",), "E108",
                            f"id '{entry_id}' is not lowercase kebab-case (e.g. nccl-duplicate-gpu)"))
    elif area not in ctx.words.get("areas", ()):
        out.append(_problem(doc, ("id",), "E108",
                            f"id '{entry_id}' starts with unknown area '{area}-'; known areas: "
                            + ", ".join(a + "-" for a in ctx.words.get("areas", ()))
                            + " (entries/vocabulary.yaml)"))
    stem = Path(doc.path).stem
    if entry_id != stem:
        out.append(_problem(doc, ("id",), "E109",
                            f"id '{entry_id}' differs from the file name '{stem}.yaml'; rename "
                            "one so they agree"))
    return out


def check_taxonomy(doc: Document, ctx: Context) -> list[Problem]:
    out = []
    cat, comp = doc.data.get("category"), doc.data.get("component")
    if isinstance(cat, str) and cat and cat not in ctx.categories:
        out.append(_problem(doc, ("category",), "E106",
                            f"unknown category '{cat}'; defined: {', '.join(sorted(ctx.categories))}"))
    if isinstance(comp, str) and comp and comp not in ctx.components:
        out.append(_problem(doc, ("component",), "E107",
                            f"unknown component '{comp}'; defined: {', '.join(sorted(ctx.components))}"))
    return out


def _markdown_outside_code(text: str) -> str:
    text = _CODE_FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    return _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), text)


def check_text_safety(doc: Document, ctx: Context) -> list[Problem]:
    out = []
    for path, text in _strings(doc.data):
        if path and path[0] in PLAIN_TEXT_FIELDS:
            continue
        if path and path[0] == "signatures":
            continue
        lowered = text.lower()
        if "<" not in text and "script:" not in lowered and "data:" not in lowered:
            continue  # the common case: nothing that could be HTML or an unsafe link
        visible = _AUTOLINK.sub("", _markdown_outside_code(text))
        m = _HTML.search(visible)
        if m:
            out.append(_problem(doc, path, "E114",
                                f"raw HTML '{m.group(0)[:40]}' in '{describe(path)}'; write "
                                "Markdown, or put the text in backticks"))
        m = _UNSAFE_LINK.search(_markdown_outside_code(text))
        if m:
            out.append(_problem(doc, path, "E115",
                                f"unsafe '{m.group(1).lower()}:' link in '{describe(path)}'"))
    return out


def check_references(doc: Document, ctx: Context) -> list[Problem]:
    out = []
    seen: set[str] = set()
    for i, ref in enumerate(doc.data.get("references") or []):
        if not isinstance(ref, dict) or not isinstance(ref.get("url"), str):
            continue
        url = ref["url"].strip()
        if not url.startswith("https://"):
            out.append(_problem(doc, ("references", i, "url"), "E116",
                                f"reference URL '{url}' is not https://"))
        if url in seen:
            out.append(_problem(doc, ("references", i, "url"), "W201",
                                f"reference URL '{url}' is listed twice"))
        seen.add(url)
    return out


def check_lists(doc: Document, ctx: Context) -> list[Problem]:
    out = []
    for name in ("tags", "related"):
        seen: set[str] = set()
        for i, item in enumerate(_items(doc.data, name)):
            if not isinstance(item, str):
                continue
            if item in seen:
                out.append(_problem(doc, (name, i), "W201", f"'{item}' is listed twice in '{name}'"))
            seen.add(item)
            if name == "tags" and not _TAG.match(item):
                out.append(_problem(doc, (name, i), "W202",
                                    f"tag '{item}' is not lowercase kebab-case"))
    return out


def check_signatures(doc: Document, ctx: Context) -> list[Problem]:
    out: list[Problem] = []
    for i, sig in enumerate(_items(doc.data, "signatures")):
        if not isinstance(sig, dict):
            continue
        templates: list[tuple[tuple[str | int, ...], Any]] = [
            (("signatures", i, "template"), sig.get("template"))]
        templates += [(("signatures", i, "context", j), t)
                      for j, t in enumerate(_items(sig, "context"))]
        for path, template in templates:
            if not isinstance(template, str) or not template.strip():
                continue
            try:
                compile_template(template)
            except TemplateError as exc:
                line, col = doc.at(path)
                out.append(Problem(doc.path, line, col, "E117",
                                   f"signature template does not compile: {exc} "
                                   f"(at character {exc.column} of the template)"))
        if sig.get("generic") is True and not _items(sig, "context") and sig.get("weak") is not True:
            out.append(_problem(doc, ("signatures", i, "generic"), "E129",
                                f"signature {i + 1} is generic but has neither 'context' nor "
                                "'weak: true'; alone it would name this entry for unrelated "
                                "failures"))
        if sig.get("repeated") is True and _items(sig, "context"):
            out.append(_problem(doc, ("signatures", i, "repeated"), "E131",
                                f"signature {i + 1} is 'repeated' and has 'context'; a repeated "
                                "line is its own evidence: drop one of the two"))
        source = sig.get("source")
        if isinstance(source, str) and source.strip():
            s = source.strip()
            if not (re.match(r"^[\w.-]+/[\w.-]+ \S", s) or s.lower().startswith("reproduced")):
                out.append(_problem(doc, ("signatures", i, "source"), "W203",
                                    "signature source should read 'owner/repo path/to/file "
                                    "(function)' or 'reproduced: <how>'"))
    return out


def check_code(doc: Document, ctx: Context) -> list[Problem]:
    out = []
    for i, snippet in enumerate(_items(doc.data, "code")):
        if isinstance(snippet, dict) and "language" in snippet and not str(snippet.get("language") or "").strip():
            out.append(_problem(doc, ("code", i, "language"), "E120",
                                f"code snippet 'code[{i + 1}]' has an empty 'language'"))
    return out


def check_decision(doc: Document, ctx: Context) -> list[Problem]:
    out: list[Problem] = []
    nodes = _items(doc.data, "decision")
    ids: set[str] = set()
    for i, node in enumerate(nodes):
        if not isinstance(node, dict) or not isinstance(node.get("node"), str):
            continue
        nid = node["node"]
        if not _NODE.match(nid):
            out.append(_problem(doc, ("decision", i, "node"), "E121",
                                f"node id '{nid}' must be letters, digits and underscores"))
        elif nid in ids:
            out.append(_problem(doc, ("decision", i, "node"), "E121",
                                f"node id '{nid}' is used twice"))
        ids.add(nid)
    for i, node in enumerate(nodes):
        if not isinstance(node, dict):
            continue
        for j, edge in enumerate(_items(node, "edges")):
            if isinstance(edge, dict) and isinstance(edge.get("to"), str) and edge["to"] not in ids:
                out.append(_problem(doc, ("decision", i, "edges", j, "to"), "E121",
                                    f"arrow to unknown node '{edge['to']}'"))
    return out


def check_dates(doc: Document, ctx: Context) -> list[Problem]:
    out = []
    paths: list[tuple] = [("reviewed",)]
    verified = doc.data.get("verified")
    if isinstance(verified, list):
        paths += [("verified", i, "date") for i in range(len(verified))]
    for path in paths:
        value: Any = doc.data
        for part in path:
            value = value[part] if isinstance(value, (dict, list)) and (
                isinstance(value, list) and isinstance(part, int) and part < len(value)
                or isinstance(value, dict) and part in value) else None
        if isinstance(value, str) and not _DATE.match(value):
            out.append(_problem(doc, path, "E123", f"'{describe(path)}' is '{value}'; write YYYY-MM-DD"))
    return out


def check_scaffold(doc: Document, ctx: Context) -> list[Problem]:
    return [
        _problem(doc, path, "E122", f"'{describe(path)}' still holds scaffold text; replace it")
        for path, text in _strings(doc.data) if SCAFFOLD_MARKER in text
    ]


ENTRY_CHECKS: tuple[Callable[[Document, Context], list[Problem]], ...] = (
    check_schema, check_id, check_taxonomy, check_text_safety, check_references,
    check_lists, check_signatures, check_code, check_decision, check_dates, check_scaffold,
)


# -- cross-entry checks ---------------------------------------------------------------

def _valid_docs(catalog: Catalog) -> list[Document]:
    return [d for d in catalog.sources.docs if isinstance(d.data, dict) and isinstance(d.data.get("id"), str)]


def check_unique_ids(catalog: Catalog) -> list[Problem]:
    out = []
    first: dict[str, Document] = {}
    former: dict[str, Document] = {}
    for doc in _valid_docs(catalog):
        for i, old in enumerate(_items(doc.data, "former_ids")):
            if isinstance(old, str):
                if old in former:
                    out.append(_problem(doc, ("former_ids", i), "E111",
                                        f"former id '{old}' is also a former id of "
                                        f"{former[old].path}"))
                former.setdefault(old, doc)
    for doc in _valid_docs(catalog):
        entry_id = doc.data["id"]
        if entry_id in first:
            out.append(_problem(doc, ("id",), "E110",
                                f"id '{entry_id}' is also used by {first[entry_id].path}"))
        first.setdefault(entry_id, doc)
        if entry_id in former:
            out.append(_problem(doc, ("id",), "E111",
                                f"id '{entry_id}' is a former id of {former[entry_id].path} "
                                "and redirects there; choose another id"))
    return out


def check_related(catalog: Catalog) -> list[Problem]:
    out = []
    ids = {d.data["id"] for d in _valid_docs(catalog)}
    for doc in _valid_docs(catalog):
        for i, rid in enumerate(_items(doc.data, "related")):
            if not isinstance(rid, str):
                continue
            if rid == doc.data["id"]:
                out.append(_problem(doc, ("related", i), "E113", "an entry cannot be related to itself"))
            elif rid not in ids:
                out.append(_problem(doc, ("related", i), "E112", f"related id '{rid}' names no entry"))
        for i, node in enumerate(_items(doc.data, "decision")):
            if isinstance(node, dict) and isinstance(node.get("entry"), str) and node["entry"] not in ids:
                out.append(_problem(doc, ("decision", i, "entry"), "E112",
                                    f"decision node links to unknown entry '{node['entry']}'"))
    return out


def check_fingerprints(catalog: Catalog, entries: Iterable[Entry] | None = None) -> list[Problem]:
    """Each fingerprint must be recognised as its own entry, first among its role.
    `entries`: check only these entries' fingerprints (default: every entry's)."""
    out = []
    data = catalog.matcher
    engine = Engine(data)
    with_signatures = {s["entry"] for s in data["signatures"]}
    for entry in catalog.entries if entries is None else entries:
        doc = entry.document
        if doc is None or not entry.fingerprint.strip() or entry.id not in with_signatures:
            continue  # no compilable signature: E117 or E101 already says why
        verdict = diagnose_text(engine, entry.fingerprint)
        ids = [m["id"] for m in verdict["matches"]]
        if entry.id not in ids:
            out.append(_problem(doc, ("fingerprint",), "E118",
                                f"no signature of '{entry.id}' matches its fingerprint"))
            continue
        mine = next(m for m in verdict["matches"] if m["id"] == entry.id)
        for other in verdict["matches"]:
            if other["id"] == entry.id:
                break
            # only a strictly better claim is a collision; an exact tie (same line, same
            # specificity) is ordered by id and left to review
            better = (other["specific"], -other["line"]) > (mine["specific"], -mine["line"])
            if other["role"] == entry.role and better:
                out.append(_problem(doc, ("fingerprint",), "E119",
                                    f"the fingerprint is diagnosed as '{other['id']}' before "
                                    f"'{entry.id}'; make a signature more specific (context) "
                                    f"or fix '{other['id']}'"))
                break
    return out


def check_benign(catalog: Catalog) -> list[Problem]:
    doc = catalog.sources.benign
    out: list[Problem] = []
    if doc is None or not isinstance(doc.data, dict):
        return out
    items = doc.data.get("benign")
    if not isinstance(items, list):
        return [_problem(doc, ("benign",), "E124", "expected a list 'benign' of templates")]
    for i, item in enumerate(items):
        template = item.get("template") if isinstance(item, dict) else None
        if not isinstance(template, str) or not isinstance(item.get("source"), str):
            out.append(_problem(doc, ("benign", i), "E124", "each benign item needs 'template' and 'source'"))
            continue
        try:
            compile_template(template)
        except TemplateError as exc:
            out.append(_problem(doc, ("benign", i, "template"), "E124", f"benign template does not compile: {exc}"))
    return out


def _definition_file(doc: Document | None, root: schema.Field) -> list[Problem]:
    if doc is None or not isinstance(doc.data, dict):
        return []
    return [
        Problem(p.path, p.line, p.column, p.code, p.message, BY_CODE[p.code].severity)
        for p in problems_for(doc, root)
    ]


def check_categories_file(catalog: Catalog) -> list[Problem]:
    return _definition_file(catalog.sources.categories, schema.CATEGORIES_FILE)


def check_vocabulary_file(catalog: Catalog) -> list[Problem]:
    doc = catalog.sources.vocabulary
    out = _definition_file(doc, schema.VOCABULARY_FILE)
    if doc is None or not isinstance(doc.data, dict):
        return out
    for kind in VOCABULARY_LISTS:
        seen: set[str] = set()
        for i, item in enumerate(_items(doc.data, kind)):
            item_id = item.get("id") if isinstance(item, dict) else None
            if not isinstance(item_id, str):
                continue
            if item_id in seen:
                out.append(_problem(doc, (kind, i, "id"), "W201",
                                    f"'{item_id}' is listed twice in '{kind}'"))
            elif kind == "areas" and not re.fullmatch(r"[a-z0-9]+", item_id):
                out.append(_problem(doc, (kind, i, "id"), "E108",
                                    f"area '{item_id}' must be lowercase letters and digits, "
                                    "without a hyphen"))
            seen.add(item_id)
    return out


MAX_EXAMPLES = 3  # example threads per kind in taxonomy.yaml `frequency`


def _sample_counts(path: Path) -> Counter[str] | str:
    """Kinds counted in a sample file (TSV with a `kind` column), or why it cannot be read."""
    try:
        with path.open(encoding="utf-8", newline="") as f:
            reader = csv.DictReader(f, dialect="excel-tab")
            if "kind" not in (reader.fieldnames or ()):
                return "has no 'kind' column"
            return Counter((row.get("kind") or "").strip() for row in reader)
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        return f"cannot be read ({exc.__class__.__name__})"


def check_taxonomy_file(catalog: Catalog) -> list[Problem]:
    """taxonomy.yaml: the schema, kind ids, and the frequency counts against the sample."""
    doc = catalog.sources.taxonomy
    out = _definition_file(doc, schema.TAXONOMY_FILE)
    if doc is None or not isinstance(doc.data, dict):
        return out
    listed: set[str] = set()
    for i, section in enumerate(_items(doc.data, "taxonomy")):
        for j, kind in enumerate(_items(section, "ids")):
            if not isinstance(kind, str):
                continue
            path = ("taxonomy", i, "ids", j)
            if not _ID.match(kind):
                out.append(_problem(doc, path, "E130",
                                    f"kind '{kind}' is not lowercase kebab-case with an area "
                                    "prefix (e.g. nccl-duplicate-gpu)"))
            elif kind in listed:
                out.append(_problem(doc, path, "W201", f"kind '{kind}' is listed twice in 'taxonomy'"))
            listed.add(kind)
    sample = doc.data.get("sample")
    threads = sample.get("threads") if isinstance(sample, dict) else None
    threads = threads if isinstance(threads, int) and not isinstance(threads, bool) else None
    if isinstance(sample, dict) and isinstance(sample.get("date"), str) \
            and not _DATE.match(sample["date"]):
        out.append(_problem(doc, ("sample", "date"), "E123",
                            f"'sample.date' is '{sample['date']}'; write YYYY-MM-DD"))
    if threads is not None and threads < 1:
        out.append(_problem(doc, ("sample", "threads"), "E130",
                            f"'sample.threads' is {threads}; a sample has at least one thread"))
    counted: dict[str, int] = {}
    for i, item in enumerate(_items(doc.data, "frequency")):
        if not isinstance(item, dict):
            continue
        kind, count = item.get("id"), item.get("count")
        if isinstance(kind, str):
            if kind in counted:
                out.append(_problem(doc, ("frequency", i, "id"), "E130",
                                    f"kind '{kind}' has two frequencies"))
            elif kind not in listed:
                out.append(_problem(doc, ("frequency", i, "id"), "E130",
                                    f"kind '{kind}' has a frequency but no section of "
                                    "'taxonomy' lists it; add it to a section"))
        if isinstance(count, int) and not isinstance(count, bool):
            if count < 0:
                out.append(_problem(doc, ("frequency", i, "count"), "E130",
                                    f"count {count} is negative"))
            elif threads is not None and count > threads:
                out.append(_problem(doc, ("frequency", i, "count"), "E130",
                                    f"count {count} is larger than the sample "
                                    f"('sample.threads' is {threads})"))
            if isinstance(kind, str):
                counted.setdefault(kind, count)
        covered_by = item.get("covered_by")
        if isinstance(covered_by, str) and covered_by not in catalog.by_id:
            out.append(_problem(doc, ("frequency", i, "covered_by"), "E130",
                                f"'covered_by' names '{covered_by}', which is not an entry"))
        examples = item.get("examples")
        if isinstance(examples, list) and len(examples) > MAX_EXAMPLES:
            out.append(_problem(doc, ("frequency", i, "examples"), "E130",
                                f"{len(examples)} example threads; list at most {MAX_EXAMPLES}"))
        for j, url in enumerate(examples if isinstance(examples, list) else ()):
            if isinstance(url, str) and not re.match(r"^https://[^\s/]+\.[^\s]+$", url):
                out.append(_problem(doc, ("frequency", i, "examples", j), "E130",
                                    f"example '{url}' is not an https:// URL"))
    if counted and threads is not None and sum(counted.values()) != threads:
        out.append(_problem(doc, ("sample", "threads"), "E130",
                            f"the frequency counts add up to {sum(counted.values())}, but "
                            f"'sample.threads' is {threads}; each thread has one kind"))
    data = sample.get("data") if isinstance(sample, dict) else None
    if isinstance(data, str) and data.strip():
        out.extend(_check_sample_file(catalog, doc, data.strip(), threads, counted))
    return out


def _check_sample_file(catalog: Catalog, doc: Document, data: str, threads: int | None,
                       counted: dict[str, int]) -> list[Problem]:
    """The counts in taxonomy.yaml must be the counts of the sample file they cite."""
    where = ("sample", "data")
    path = catalog.project.root / data
    if not path.is_file():
        return [_problem(doc, where, "E130", f"sample file '{data}' does not exist")]
    found = _sample_counts(path)
    if isinstance(found, str):
        return [_problem(doc, where, "E130", f"sample file '{data}' {found}")]
    out = []
    if threads is not None and sum(found.values()) != threads:
        out.append(_problem(doc, ("sample", "threads"), "E130",
                            f"'sample.threads' is {threads}, but '{data}' has "
                            f"{sum(found.values())} thread(s)"))
    for kind in sorted(set(found) | set(counted)):
        if found.get(kind, 0) != counted.get(kind, 0):
            out.append(_problem(doc, where, "E130",
                                f"kind '{kind}' is counted {counted.get(kind, 0)} time(s) in "
                                f"'frequency' but {found.get(kind, 0)} time(s) in '{data}' "
                                "(python research/rank.py --yaml prints the counts)"))
    return out


CATALOG_CHECKS: tuple[Callable[[Catalog], list[Problem]], ...] = (
    check_unique_ids, check_related, check_fingerprints, check_benign, check_categories_file,
    check_vocabulary_file, check_taxonomy_file, check_provenance,
)


def context_for(catalog: Catalog) -> Context:
    ctx = Context(words={kind: catalog.vocabulary.ids(kind) for kind in VOCABULARY_LISTS})
    data = catalog.sources.categories.data if catalog.sources.categories else None
    if isinstance(data, dict):
        if isinstance(data.get("categories"), dict):
            ctx.categories = set(data["categories"])
        if isinstance(data.get("components"), dict):
            ctx.components = set(data["components"])
    return ctx


def check_entry(doc: Document, ctx: Context) -> list[Problem]:
    """Every per-entry check of one loaded entry file."""
    return [p for check in ENTRY_CHECKS for p in check(doc, ctx)]


def check_catalog(catalog: Catalog,
                  entry_checks: Callable[[Document, Context], list[Problem]] = check_entry,
                  catalog_checks: Sequence[Callable[[Catalog], list[Problem]]] = CATALOG_CHECKS,
                  ) -> list[Problem]:
    """Every problem of every file, sorted. (reload.CheckCache passes checks that reuse
    what an earlier build found for the files that did not change.)"""
    problems = list(catalog.problems)
    ctx = context_for(catalog)
    for doc in catalog.sources.docs:
        if isinstance(doc.data, dict):
            problems.extend(entry_checks(doc, ctx))
    for cross in catalog_checks:
        problems.extend(cross(catalog))
    # a field that still holds scaffold text gets one problem (E122), not several
    unfilled = {(p.path, p.line, p.column) for p in problems if p.code == "E122"}
    problems = [p for p in problems if p.code == "E122" or (p.path, p.line, p.column) not in unfilled]
    return sorted(set(problems))
