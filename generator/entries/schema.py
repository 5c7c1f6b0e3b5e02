"""The entry schema, defined once.

Every field an entry may have is declared here with its YAML type and a description.
The checker validates against it, the scaffold (`new`) writes from it and the JSON Schema
for editors is generated from it. Kinds are said in YAML words: "string", "text"
(Markdown string), "integer", "boolean", "list", "mapping".
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import DEFAULT_WINDOW

SEVERITIES = ("critical", "high", "medium", "low")
REPRO_NEEDS = ("cpu", "cuda")
REPRO_LAUNCHERS = ("torchrun", "python")
ID_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)+$"


@dataclass(frozen=True)
class Field:
    """One field of an entry, or of a mapping inside an entry."""

    name: str
    kind: str
    description: str
    required: bool = True
    enum: tuple[str, ...] = ()
    vocabulary: str = ""  # the values are the ids of this list in entries/vocabulary.yaml
    items: Field | None = None  # for lists: the schema of each item
    fields: tuple[Field, ...] = ()  # for mappings: their fields
    values: Field | None = None  # for mappings with free keys: the schema of each value
    markdown: bool = False  # the string is rendered as Markdown

    def child(self, name: str) -> Field | None:
        for f in self.fields:
            if f.name == name:
                return f
        return None


def _text(name: str, description: str, required: bool = True) -> Field:
    return Field(name, "string", description, required=required, markdown=True)


def _str(name: str, description: str, required: bool = True, enum: tuple[str, ...] = (),
         vocabulary: str = "") -> Field:
    return Field(name, "string", description, required=required, enum=enum, vocabulary=vocabulary)


def _list(name: str, description: str, items: Field, required: bool = True) -> Field:
    return Field(name, "list", description, required=required, items=items)


def _map(name: str, description: str, *fields: Field, required: bool = True) -> Field:
    return Field(name, "mapping", description, required=required, fields=fields)


SIGNATURE = _map(
    "signature",
    "One text that real software prints, as a template.",
    _str(
        "template",
        "The printed text: literal characters plus typed holes ({n} integer, {num} number, "
        "{hex} hex id, {size} memory size, {word} identifier, {token} run of non-blanks, "
        "{text} anything to the end of the line). Write {{ and }} for literal braces.",
    ),
    _str(
        "source",
        "Where the text comes from: 'owner/repo path/to/file.py (function)' of the upstream "
        "code that prints it, or 'reproduced: <how>'. When no release that "
        "provenance/artifacts.yaml can scan contains the text (the Linux kernel, the GPU "
        "driver, Slurm, CPython, Open MPI, ...), end it with '[not scannable: <software>]' and "
        "quote the whole value: the signature is then exempt from the provenance matrix.",
    ),
    _str("versions", "Versions that print this wording, as measured (provenance/signatures.json): "
         "e.g. 'torch >= 2.5', 'torch 1.12 - 2.0', 'NCCL >= 2.19'; these forms are checked "
         "against the releases (E128).", required=False),
    _list(
        "context",
        "Nearby evidence: templates of which at least one must also appear within `window` "
        "lines before or after, on the same rank (e.g. an FSDP frame in the same traceback). "
        "A signature with context outranks one without.",
        _str("template", "A template that must appear near the signature's line."),
        required=False,
    ),
    Field(
        "window",
        "integer",
        "How many lines before or after the signature's line the context may be "
        f"(default {DEFAULT_WINDOW}).",
        required=False,
    ),
    Field(
        "reproduced",
        "boolean",
        "True when this text was printed by the entry's reproduction script.",
        required=False,
    ),
    Field(
        "weak",
        "boolean",
        "True when the text is a hint printed before the real error (e.g. an anomaly-mode "
        "warning): a weak hit ranks after every other root cause in the log.",
        required=False,
    ),
    Field(
        "generic",
        "boolean",
        "True when other code paths print this text too (a generic ATen or Python error): "
        "it then needs `context` (or `weak: true`), and without its context it never names "
        "a root cause on its own.",
        required=False,
    ),
    Field(
        "repeated",
        "boolean",
        "True when a healthy run prints this line once per process (a rank's start-up line "
        "that names its rank): it is evidence only when one log file holds the same line "
        "twice, i.e. two processes took the same rank. Not combined with `context`.",
        required=False,
    ),
)

ENTRY = _map(
    "entry",
    "One failure of distributed ML training.",
    _str("id", "Lowercase kebab-case id, equal to the file name, prefixed by its area; stable forever."),
    _str("title", "Short title of the failure, as a reader would name it."),
    _str("category", "A category id from entries/categories.yaml."),
    _str("component", "A component id from entries/categories.yaml."),
    _str("severity", "How bad it is for a training run.", enum=SEVERITIES),
    _str(
        "role",
        "root: a cause; collateral: what other ranks print because one failed; "
        "wrapper: a launcher summary that hides the real error.",
        vocabulary="roles",
    ),
    _list("tags", "Lowercase kebab-case keywords.", _str("tag", "A lowercase kebab-case keyword.")),
    _list("signatures", "The texts that identify this failure in real logs.", SIGNATURE),
    _text("summary", "The quick answer: what broke and what to do, in two or three sentences."),
    _text("mechanism", "Why it happens, at the level of the component that fails."),
    _list("observations", "What you will see in the logs and the job.", _text("observation", "One observation.")),
    _list(
        "symptoms",
        "Symptom and what it means.",
        _map(
            "symptom",
            "One row of the symptoms table.",
            _text("symptom", "What the reader sees."),
            _text("meaning", "What that tells them."),
        ),
    ),
    _list(
        "affects",
        "Systems and versions affected, and how they differ.",
        _map(
            "affected",
            "One affected system.",
            _str("system", "Library or system, e.g. PyTorch, NCCL, DeepSpeed."),
            _str("versions", "Version range, e.g. '>= 2.5' or 'all'."),
            _text("note", "What differs in these versions.", required=False),
        ),
    ),
    _list("confirm", "Checklist that proves it is this failure and not a sibling.", _text("check", "One check.")),
    _str("fingerprint", "A realistic log excerpt of this failure; must match this entry's signatures."),
    _map(
        "fix",
        "The fix.",
        _text("summary", "The fix in one or two sentences."),
        _list("steps", "Steps to apply, in order.", _text("step", "One step.")),
        _text("why", "Why the fix works."),
        _text("verify", "How to verify the signature is gone."),
    ),
    _list(
        "faq",
        "Questions readers ask, with answers.",
        _map("question", "One question.", _text("q", "The question."), _text("a", "The answer.")),
    ),
    _list("related", "Ids of related entries (must exist).", _str("id", "An entry id.")),
    _list(
        "references",
        "Upstream docs, source and issue threads.",
        _map(
            "reference",
            "One reference.",
            _str("title", "What the link is."),
            _str("url", "An https URL."),
        ),
    ),
    _map(
        "action",
        "What an operator does next: the step that decides between restarting and stopping.",
        _str("kind", "The kind of next step.", vocabulary="actions"),
        _str("why", "One sentence, specific to this failure: why this is the next step."),
    ),
    _list(
        "code",
        "Code snippets for the fix.",
        _map(
            "snippet",
            "One snippet.",
            _str("title", "What the snippet does."),
            _str("language", "Language for highlighting, e.g. python, bash, yaml."),
            _str("code", "The code."),
        ),
        required=False,
    ),
    _list(
        "practices",
        "Recommendations by stack.",
        _map(
            "practice",
            "One stack's recommendation.",
            _str("stack", "The stack.", vocabulary="stacks"),
            _text("advice", "What to do in that stack."),
        ),
        required=False,
    ),
    _list(
        "decision",
        "A small decision tree, rendered as a Mermaid flowchart. The first node is the start.",
        _map(
            "node",
            "One node.",
            _str("node", "Node id (letters, digits, underscores)."),
            _str("text", "Question or outcome shown in the node (plain text)."),
            _str("entry", "Entry id this outcome links to.", required=False),
            _list(
                "edges",
                "Arrows out of this node.",
                _map(
                    "edge",
                    "One arrow.",
                    _str("label", "Label on the arrow, e.g. yes / no."),
                    _str("to", "Id of the node it points to."),
                ),
                required=False,
            ),
        ),
        required=False,
    ),
    _text("notes", "Anything else a reader should know.", required=False),
    _list(
        "also_quoted_as",
        "Wordings that other sites quote for this failure but no software prints: searchable, "
        "never matched against logs.",
        _str("wording", "One quoted wording."),
        required=False,
    ),
    _list(
        "former_ids",
        "Ids this entry had before a rename; each becomes a redirect and is never reused.",
        _str("id", "A former id."),
        required=False,
    ),
    _map(
        "reproduce",
        "A script that triggers the failure for real.",
        _str("script", "Path of the script, relative to the repository root."),
        _str("launcher", "How it is launched.", enum=REPRO_LAUNCHERS),
        Field("nprocs", "integer", "Number of processes."),
        _str("needs", "What hardware it needs.", enum=REPRO_NEEDS),
        Field("timeout", "integer", "Seconds after which the run is killed."),
        Field(
            "env",
            "mapping",
            "Environment variables set for the run.",
            required=False,
            values=_str("value", "The variable's value."),
        ),
        required=False,
    ),
    _list(
        "verified",
        "Library versions the entry was reproduced or checked with.",
        _map(
            "check",
            "One verification.",
            _str("library", "Library name, e.g. torch."),
            _str("version", "Version checked."),
            _str("how", "How it was checked.", enum=("reproduced", "source")),
            _str("date", "Date checked, YYYY-MM-DD.", required=False),
            _str("platform", "Where, e.g. 'CPU, gloo'.", required=False),
        ),
        required=False,
    ),
    _str("reviewed", "Date the entry was last reviewed, YYYY-MM-DD.", required=False),
)

VOCABULARY_FILE = _map(
    "vocabulary",
    "entries/vocabulary.yaml: the roles, stacks, next actions and id areas that entries may use.",
    _list("roles", "Roles in ranking order: diagnose names the first role's hits first.", _map(
        "role", "One role.",
        _str("id", "The role's id, as entries write it in `role:`."),
        _str("title", "Its title on entry pages."),
        _str("word", "Its name in the diagnose report."),
        _str("explanation", "Why a hit of this role is listed after the root cause."))),
    _list("stacks", "Stacks that `practices:` may advise, in page order.", _map(
        "stack", "One stack.",
        _str("id", "The stack's id, as entries write it in `practices[].stack`."),
        _str("title", "Its heading on entry pages."))),
    _list("actions", "What an operator does next after a failure, the kinds `action.kind` may name.", _map(
        "action", "One kind of next step.",
        _str("id", "The action's id, as entries write it in `action.kind`."),
        _str("title", "Its name on entry pages and in the diagnose report."),
        _str("explanation", "What an operator does when this is the next step."))),
    _list("areas", "Id areas: the first word of every entry id.", _map(
        "area", "One area.",
        _str("id", "The area, lowercase, no hyphen."),
        _str("description", "What entries of this area are about."))),
)

CATEGORIES_FILE = _map(
    "categories",
    "Categories and components that entries may name.",
    Field(
        "categories",
        "mapping",
        "Category id to its description.",
        values=_map(
            "category",
            "One category.",
            _str("title", "Display title."),
            _text("description", "One sentence about the category."),
        ),
    ),
    Field(
        "components",
        "mapping",
        "Component id to its description.",
        values=_map(
            "component",
            "One component.",
            _str("title", "Display title."),
            _text("description", "One sentence about the component."),
        ),
    ),
)


TAXONOMY_FILE = _map(
    "taxonomy",
    "entries/taxonomy.yaml: the failure kinds in sections, and how often each was seen in a "
    "sample of public failure reports.",
    _list("taxonomy", "Sections of failure kinds, in page order.", _map(
        "section", "One section.",
        _str("section", "The section's heading on the coverage page."),
        _list("ids", "The kinds of this section: entry ids, written or not yet.",
              _str("id", "A kind: lowercase kebab-case, starting with its area.")))),
    _map("sample", "The sample the `frequency` counts come from.",
         Field("threads", "integer", "M: the number of sampled threads, each labelled with one "
               "kind; the counts add up to it."),
         _str("date", "When the sample was labelled, YYYY-MM-DD."),
         _str("data", "The sample file (TSV, a `kind` column, one row per thread), relative "
              "to the project root; the checker recounts it.", required=False),
         _str("method", "Where the sampling procedure is written down, relative to the "
              "project root.", required=False),
         required=False),
    _list("frequency", "Kinds seen in the sample, most frequent first; a kind not listed was "
          "seen 0 times.", _map(
              "kind", "One kind's frequency.",
              _str("id", "The kind, as listed in a section of `taxonomy`."),
              Field("count", "integer", "In how many sampled threads the kind was seen."),
              _list("examples", "Up to 3 https URLs of sampled threads of this kind.",
                    _str("url", "A thread URL."), required=False),
              _str("covered_by", "The entry that covers this kind although its id differs "
                   "(the kind's messages are that entry's signatures); it must exist.",
                   required=False)),
          required=False),
)


def top_level_names() -> list[str]:
    return [f.name for f in ENTRY.fields]


def required_names() -> list[str]:
    return [f.name for f in ENTRY.fields if f.required]


def walk(root: Field = ENTRY, prefix: str = "") -> list[tuple[str, Field]]:
    """Every field with its dotted path ('fix.steps[]'), for docs and schema tests."""
    out: list[tuple[str, Field]] = []
    for f in root.fields:
        path = f"{prefix}{f.name}"
        out.append((path, f))
        if f.kind == "mapping":
            out.extend(walk(f, path + "."))
            if f.values is not None and f.values.kind == "mapping":
                out.extend(walk(f.values, path + ".*."))
        if f.kind == "list" and f.items is not None and f.items.kind == "mapping":
            out.extend(walk(f.items, path + "[]."))
    return out

