"""The one set of JSON rules: numbers kept as written, line breaks escaped, surrogates survive."""

from __future__ import annotations

import json

import pytest

from ragdiag_tui.core.common.jsonutil import (
    RawNumber,
    decode,
    decode_exact,
    decode_standard,
    dumps,
    escape_line_breaks,
    line_bytes,
)

AWKWARD = ["NaN", "Infinity", "-Infinity", "1e400", "-1e400", "1e-400", "1" * 5000]


@pytest.mark.parametrize("number", AWKWARD)
def test_exact_decoding_writes_every_awkward_number_back_as_written(number: str) -> None:
    text = '{"score": ' + number + ', "list": [' + number + ", 1.5, -0.0]}"
    assert dumps(decode_exact(text)) == text


@pytest.mark.parametrize("number", AWKWARD)
def test_reading_gives_a_python_number_for_every_awkward_number(number: str) -> None:
    value = decode('{"score": ' + number + "}")["score"]
    assert isinstance(value, float | int) and not isinstance(value, bool)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_standard_decoding_refuses_the_constants(constant: str) -> None:
    with pytest.raises(ValueError, match=constant):
        decode_standard("[" + constant + "]")


def test_line_breaks_are_escaped_and_read_back_the_same() -> None:
    value = {"q": "a\x85b\u2028c\u2029d"}
    line = line_bytes(value)
    assert len(line.decode("utf-8").splitlines()) == 1
    assert json.loads(line) == value
    assert escape_line_breaks("plain") == "plain"


def test_a_lone_surrogate_makes_the_line_ascii_and_it_reads_back() -> None:
    value = {"id": "x\ud800y", "score": RawNumber("NaN")}
    line = line_bytes(value)
    assert line.isascii()
    assert decode_exact(line.decode("ascii")) == value
