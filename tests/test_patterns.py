"""Signature templates compile to safe patterns, or say precisely why not."""

from __future__ import annotations

import re

import pytest

from generator.matching.templates import TemplateError, compile_template


def matches(template: str, line: str) -> bool:
    return re.search(compile_template(template).pattern, line) is not None


def test_holes_match_what_they_say():
    t = "Watchdog caught collective operation timeout: WorkNCCL(SeqNum={n}, OpType={word}"
    line = "[rank1]:[E626 06:24:44.90 ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught " \
           "collective operation timeout: WorkNCCL(SeqNum=808, OpType=ALLREDUCE, NumelIn=1"
    assert matches(t, line)
    assert not matches(t, line.replace("SeqNum=808", "SeqNum=abc"))
    assert matches("CUDA out of memory. Tried to allocate {size}.",
                   "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0")
    assert matches("busId {hex} commId", "ncclCommInitRank busId 1a000 commId 0x5fa2")


def test_blank_runs_match_any_blank_run():
    assert matches("Original reason for failure was: {text}",
                   "aborted on rank 3.  Original  reason for failure was: x")


def test_literal_braces_and_special_characters():
    c = compile_template("Tensors must be CUDA and dense {{sparse}} (x|y)*")
    assert re.search(c.pattern, "Tensors must be CUDA and dense {sparse} (x|y)*")


def test_key_word_is_a_whole_word_of_every_match():
    c = compile_template("Duplicate GPU detected : rank {n} and rank {n} both on CUDA device {hex}")
    assert c.key == "detected"
    assert c.anchor == "Duplicate"


@pytest.mark.parametrize("template, message", [
    ("", "empty"),
    ("{n} steps and more", "must start with literal"),
    ("abcdefgh {n}{word}", "separated"),
    ("abcdefgh {text} x {text}", "only once"),
    ("abcdefgh {nope}", "unknown hole"),
    ("abcdefgh { x", "unclosed"),
    ("abcdefgh } x", "unmatched"),
    ("abc {n} def", "shorter than"),
    ("line one\nline two words", "one line"),
])
def test_bad_templates_say_why(template, message):
    with pytest.raises(TemplateError) as info:
        compile_template(template)
    assert message in str(info.value)


def test_no_pattern_has_a_nested_quantifier():
    """A group is never repeated, so no template can backtrack exponentially."""
    from generator.matching.templates import HOLES

    c = compile_template("Must flatten tensors with uniform {text} but got {word} and {n}{{x}}")
    for source in [c.pattern] + [p for p, _ in HOLES.values()]:
        assert ")+" not in source and ")*" not in source and "){" not in source
