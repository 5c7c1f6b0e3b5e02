"""The registry of problem codes: code -> title, severity, explanation.

`check --list-codes` and the site's checker-codes page are generated from this table, and a
test requires one failing fixture per code under tests/fixtures/bad/<CODE>*.yaml.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Code:
    code: str
    title: str
    severity: str  # error | warning
    explanation: str


CODES: tuple[Code, ...] = (
    Code("E001", "not UTF-8", "error",
         "The file contains bytes that are not UTF-8. Save it as UTF-8."),
    Code("E002", "YAML syntax error", "error",
         "The file is not valid YAML, or holds more than one document. The position is where "
         "the parser gave up; the mistake is often on the line before."),
    Code("E003", "duplicate key", "error",
         "The same key appears twice in one mapping; YAML would silently keep the last one. "
         "Both lines are reported."),
    Code("E004", "anchor or alias", "error",
         "Anchors (&name) and aliases (*name) are refused in entries: they make YAML bombs "
         "possible and entries easy to misread. Write the value out."),
    Code("E005", "tag not allowed", "error",
         "Explicit tags such as !!python/object would construct objects. Entries hold only "
         "strings, numbers, booleans, lists and mappings."),
    Code("E006", "tab character", "error",
         "Tabs are refused anywhere in an entry: YAML forbids them in indentation and they "
         "render unpredictably in text. Use spaces."),
    Code("E007", "not a mapping", "error",
         "An entry file must hold one mapping of fields; this one is empty, a list or a "
         "single value."),
    Code("E008", "too large", "error",
         "The file exceeds the size, value-count or nesting limits that protect the build."),
    Code("E009", "unreadable file", "error", "The file could not be read."),
    Code("E010", "comment cuts a value", "error",
         "An unquoted value holds ` #` after an opening parenthesis or bracket that it never "
         "closes: YAML read the rest of the line as a comment, so the page shows the value cut "
         "short (`(see PR #1234)` becomes `(see PR`). Put the value in double quotes."),
    Code("E101", "missing field", "error",
         "A required field is missing. `python -m generator new` writes every required field."),
    Code("E102", "empty field", "error",
         "A required field is present but empty (blank text, empty list or mapping)."),
    Code("E103", "wrong type", "error",
         "The value has the wrong YAML type (for example a string where a list is expected)."),
    Code("E104", "unknown field", "error",
         "A field the schema does not know, usually a typo; the message suggests the closest "
         "known name."),
    Code("E105", "value not allowed", "error",
         "The value is not one of the allowed choices (severity, role, stack, ...)."),
    Code("E106", "unknown category", "error",
         "The category is not defined in entries/categories.yaml. Use an existing one or add "
         "it there."),
    Code("E107", "unknown component", "error",
         "The component is not defined in entries/categories.yaml. Use an existing one or add "
         "it there."),
    Code("E108", "bad id", "error",
         "An id must be lowercase kebab-case (letters, digits, single hyphens) and start with "
         "a known area prefix (fsdp-, ddp-, nccl-, ...)."),
    Code("E109", "id differs from file name", "error",
         "The id must equal the file name without .yaml, so that URLs and files agree."),
    Code("E110", "duplicate id", "error", "Two entries have the same id."),
    Code("E111", "id reused", "error",
         "The id is listed as a former id of another entry (or of this one). Former ids "
         "redirect to their entry forever and are never reused."),
    Code("E112", "unknown related id", "error",
         "A related id (or a decision-tree entry link) names no entry. Fix the id or write "
         "the entry."),
    Code("E113", "related to itself", "error", "An entry lists itself as related."),
    Code("E114", "raw HTML", "error",
         "Text fields are Markdown; raw HTML tags are refused so that entries cannot inject "
         "markup or scripts. A placeholder in angle brackets such as <NAME> counts too: the "
         "site builders read it as a tag and drop it. Use Markdown, or put the text in "
         "backticks."),
    Code("E115", "unsafe link", "error",
         "javascript:, data: and vbscript: links are refused in any text."),
    Code("E116", "reference URL not https", "error",
         "References must be https:// URLs."),
    Code("E117", "bad signature template", "error",
         "The signature template does not compile; the message says why and the column "
         "points into the template."),
    Code("E118", "fingerprint not matched", "error",
         "None of the entry's signatures matches its fingerprint. Either the fingerprint is "
         "not a real log of this failure or a signature is wrong."),
    Code("E119", "fingerprint collision", "error",
         "Diagnosing this entry's fingerprint ranks another entry of the same role first: the "
         "other entry's signatures would steal this failure. Make a signature more specific "
         "(context) or fix the other entry."),
    Code("E120", "code snippet without language", "error",
         "Every code snippet needs `language:` so it is highlighted and copyable correctly."),
    Code("E121", "bad decision tree", "error",
         "A decision-tree node id is duplicated or not a simple name, or an arrow points to "
         "a node that does not exist."),
    Code("E122", "scaffold text left", "error",
         "The field still holds the scaffold's marker text written by `generator new`. "
         "Replace it with real content."),
    Code("E123", "bad date", "error", "Dates are written YYYY-MM-DD."),
    Code("E124", "bad benign template", "error",
         "A benign-noise template in entries/benign.yaml does not compile or matches an "
         "entry's fingerprint line."),
    Code("E125", "signature not measured", "error",
         "The signature has no record in provenance/signatures.json, the matrix of which "
         "releases contain it. Run `python -m generator provenance --from-cache --incremental` "
         "(or without flags to fetch the releases that provenance/artifacts.yaml lists and "
         "the cache lacks)."),
    Code("E126", "provenance record out of date", "error",
         "The signature's text differs from the text its record was measured for. Run "
         "`python -m generator provenance --from-cache --incremental`."),
    Code("E127", "signature in no scanned release", "error",
         "No scanned release contains every literal part of the template. Check the text "
         "against the source; if it is printed by software whose releases are not scanned "
         "(the Linux kernel, the GPU driver, Slurm, CPython, Open MPI, ...), end its `source` "
         "with `[not scannable: <software>]`."),
    Code("E128", "version claim contradicts the releases", "error",
         "The signature's `versions:` text, read as a version range, disagrees with the "
         "releases that contain the text (provenance/signatures.json). Write the measured "
         "range ('torch >= 2.1', 'NCCL 2.7 - 2.11', 'torch 1.8 - 2.3'). Free text that is "
         "not one of these forms is not checked."),
    Code("E129", "generic signature alone", "error",
         "The signature is marked `generic: true` (other code paths print the same text, e.g. "
         "a generic ATen or Python error) but has neither `context` nor `weak: true`: alone "
         "it would name this entry as the cause of unrelated failures. Add the nearby evidence "
         "that tells this failure apart as `context`, or mark it `weak: true`."),
    Code("E130", "bad taxonomy frequency", "error",
         "entries/taxonomy.yaml is inconsistent: a kind id that is not kebab-case, a "
         "frequency for a kind no section lists, a count that is negative, larger than the "
         "sample or that does not match the sample file, counts that do not add up to the "
         "sample size, or more than 3 example URLs or one that is not https."),
    Code("E131", "repeated signature with context", "error",
         "A signature marked `repeated: true` (a line every process prints once, evidence only "
         "when it appears twice) also has `context`; the engines support one or the other. "
         "Remove `context`, or drop `repeated` and give the context that tells the failure "
         "apart."),
    Code("W201", "duplicate list item", "warning",
         "The same tag, related id, reference URL or taxonomy kind is listed twice."),
    Code("W202", "tag not kebab-case", "warning",
         "Tags are lowercase kebab-case so that tag pages have stable URLs."),
    Code("W203", "signature without version or reproduction", "warning",
         "A signature's source should name an upstream file (owner/repo path) or say "
         "'reproduced: ...'."),
)

BY_CODE = {c.code: c for c in CODES}
