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


@pytest.mark.parametrize("template, needle", [
    # the longest literal starts with punctuation and a word too long to join it
    ("peer access from {hex} to {hex}: CUDA_ERROR_TOO_MANY_PEERS: peer mapping resources "
     "exhausted", "CUDA_ERROR_TOO_MANY_PEERS:"),
    # a short common first word followed by a long identifier
    ("Call to ibv_reg_dmabuf_mr failed with error {text}", "ibv_reg_dmabuf_mr failed"),
    ("assert prev_state_dict_type is not None", "prev_state_dict_type is"),
    ("NCCL error in: {token}:{n}, unhandled system error", "unhandled system error"),
])
def test_prefilter_needle_is_the_most_distinctive_word_run(template, needle):
    """The needle decides which lines of a big log reach the engine: a needle such as ':' or
    'assert' sent every line of a log, with its context window, through the slow path."""
    compiled = compile_template(template)
    assert compiled.phrase == needle
    line = "[rank3]: " + template.replace("{hex}", "0x7f").replace("{token}", "a.cpp") \
        .replace("{n}", "12").replace("{text}", "x")
    assert needle in line and re.search(compiled.pattern, line)


def test_every_catalog_needle_is_a_distinctive_word_run():
    """Each signature of the catalog gives the prefilter a needle with at least six letters
    or digits: a punctuation-only needle matches every line of a healthy log."""
    from pathlib import Path

    from generator.matching import diagnose

    data, _ = diagnose.load_data(Path(__file__).resolve().parent.parent)
    weak = [(s["entry"], s["needle"]) for s in data["signatures"]
            if sum(ch.isalnum() for ch in s["needle"]) < 6]
    assert not weak
