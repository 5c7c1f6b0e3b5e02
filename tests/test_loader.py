"""The loader keeps positions and refuses unsafe or ambiguous YAML with located problems."""

from __future__ import annotations

from generator.entries.loader import MAX_BYTES, load_file, parse_text


def codes(text: str) -> list[tuple[str, int, int]]:
    return [(p.code, p.line, p.column) for p in parse_text(text, "x.yaml")[1]]


def test_positions_of_keys_and_values_are_one_based():
    doc, problems = parse_text("id: a\nfix:\n  steps:\n    - one\n    - two\n", "x.yaml")
    assert problems == []
    assert doc.keys[("id",)] == (1, 1)
    assert doc.values[("id",)] == (1, 5)
    assert doc.keys[("fix", "steps")] == (3, 3)
    assert doc.values[("fix", "steps", 1)] == (5, 7)


def test_yaml_surprises_stay_strings():
    doc, _ = parse_text("a: yes\nb: no\nc: on\nd: 2024-01-01\ne: 1.10\nf: true\ng: 3\n", "x.yaml")
    assert doc.data == {"a": "yes", "b": "no", "c": "on", "d": "2024-01-01", "e": "1.10",
                        "f": True, "g": 3}


def test_duplicate_keys_report_both_lines():
    _, problems = parse_text("a: 1\nb: 2\na: 3\n", "x.yaml")
    assert [(p.code, p.line) for p in problems] == [("E003", 3)]
    assert "first defined at line 1" in problems[0].message


def test_anchor_and_alias_are_refused_before_expansion():
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
    bomb += "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
    assert codes(bomb) == [("E004", 1, 4)]


def test_unsafe_tags_are_refused_and_never_run():
    assert codes("a: !!python/object/apply:os.system ['touch /tmp/pwned']\n")[0][0] == "E005"
    assert codes("a: !custom x\n")[0][0] == "E005"


def test_explicit_str_tag_is_a_string():
    doc, problems = parse_text("a: !!str 5\n", "x.yaml")
    assert problems == [] and doc.data == {"a": "5"}


def test_tabs_are_located():
    assert codes("a: 1\nb:\n\t- x\n") == [("E006", 3, 1)]


def test_not_a_mapping_and_empty_files():
    assert codes("- a\n- b\n") == [("E007", 1, 1)]
    assert codes("") == [("E007", 1, 1)]
    assert codes("# only a comment\n") == [("E007", 1, 1)]
    assert codes("just a string\n") == [("E007", 1, 1)]


def test_syntax_error_is_located():
    (code, line, _), = codes("a: 1\nb: [1, 2\n")
    assert code == "E002" and line >= 2


def test_several_documents_are_refused():
    assert codes("a: 1\n---\nb: 2\n") == [("E002", 2, 1)]


def test_deep_nesting_is_refused():
    assert codes("a: " + "[" * 50 + "]" * 50 + "\n")[0][0] == "E008"


def test_invalid_utf8_is_located(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_bytes(b"id: a\ntitle: caf\xe9\n")
    _, problems = load_file(path, "x.yaml")
    assert [(p.code, p.line, p.column) for p in problems] == [("E001", 2, 11)]


def test_huge_file_is_refused_without_parsing(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_bytes(b"a: " + b"x" * (MAX_BYTES + 1) + b"\n")
    _, problems = load_file(path, "x.yaml")
    assert [p.code for p in problems] == ["E008"]


def test_bom_is_accepted():
    doc, problems = parse_text("\ufeffa: 1\n", "x.yaml")
    assert problems == [] and doc.data == {"a": 1}
