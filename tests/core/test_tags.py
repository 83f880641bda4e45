"""Reason tags: the default set for lucky answers, and a team's own from TOML."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragdiag_tui.core.review.tags import DEFAULT_TAGS, MAX_TAGS, Tag, TagsError, load_tags, tag_by_number


def test_the_default_set_is_the_five_lucky_answer_reasons_on_keys_1_to_5() -> None:
    assert [tag.key for tag in DEFAULT_TAGS] == [
        "supported-elsewhere",
        "required-wrong",
        "model-knowledge",
        "answer-wrong",
        "partly-supported",
    ]
    assert [tag.number for tag in DEFAULT_TAGS] == [1, 2, 3, 4, 5]
    assert all(tag.name and tag.description for tag in DEFAULT_TAGS)
    assert tag_by_number(DEFAULT_TAGS, 1) is DEFAULT_TAGS[0]
    assert tag_by_number(DEFAULT_TAGS, 6) is None
    assert tag_by_number(DEFAULT_TAGS, 0) is None


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "tags.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_toml_file_replaces_the_set(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '[[tag]]\nkey = "stale-doc"\nname = "Document is out of date"\ndescription = "Older version."\n'
        '[[tag]]\nkey = "ok"\nname = "  Fine  "\n',
    )
    assert load_tags(path) == (
        Tag("stale-doc", "Document is out of date", "Older version.", 1),
        Tag("ok", "Fine", "", 2),
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not toml = = 1", "tags.toml: not a TOML file"),
        ("", r"tags.toml: no \[\[tag\]\] entries"),
        ('[[tags]]\nkey = "a"\nname = "A"\n', "unknown table 'tags'"),
        ('[[tag]]\nname = "A"\n', r"tags.toml, tag 1: key must be .* got None"),
        ('[[tag]]\nkey = "has space"\nname = "A"\n', "tags.toml, tag 1: key must be"),
        (
            '[[tag]]\nkey = "a"\nname = "A"\n[[tag]]\nkey = "a"\nname = "B"\n',
            r"tag 2 \('a'\): key already used by tag 1",
        ),
        ('[[tag]]\nkey = "a"\n', r"tag 1 \('a'\): name must be a non-empty string"),
        ('[[tag]]\nkey = "a"\nname = "A"\ndescription = 3\n', r"tag 1 \('a'\): description must be a string"),
        ('[[tag]]\nkey = "a"\nname = "A"\ncolour = "red"\n', "tag 1: unknown field 'colour'"),
        ("".join(f'[[tag]]\nkey = "t{i}"\nname = "T"\n' for i in range(10)), "10 tags; at most 9"),
    ],
)
def test_a_bad_tag_file_names_the_file_and_the_entry(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(TagsError, match=message):
        load_tags(write(tmp_path, text))


def test_a_missing_tag_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(TagsError, match=r"nothing\.toml: cannot read the tag file"):
        load_tags(tmp_path / "nothing.toml")


def test_nine_tags_fit(tmp_path: Path) -> None:
    text = "".join(f'[[tag]]\nkey = "t{i}"\nname = "T{i}"\n' for i in range(MAX_TAGS))
    assert [tag.number for tag in load_tags(write(tmp_path, text))] == list(range(1, 10))


def test_a_tag_file_nested_a_thousand_deep_is_a_tags_error(tmp_path: Path) -> None:
    # tomllib recurses once per level: RecursionError escaped `stats` and `review`.
    path = write(tmp_path, "x = " + "[" * 1000 + "]" * 1000 + "\n")
    with pytest.raises(TagsError, match=r"tags\.toml: not a usable TOML file \(nested too deeply\)"):
        load_tags(path)


def test_a_tag_file_saved_with_a_bom_is_read(tmp_path: Path) -> None:
    path = tmp_path / "tags.toml"
    path.write_bytes(b'\xef\xbb\xbf[[tag]]\nkey = "ok"\nname = "Fine"\n')
    assert load_tags(path) == (Tag("ok", "Fine", "", 1),)


def test_a_huge_tag_file_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    path = write(tmp_path, "# " + "x" * (2 << 20) + "\n")
    with pytest.raises(TagsError, match=r"tags\.toml: over 1024 KiB"):
        load_tags(path)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.one_of(
        st.binary(max_size=400),
        st.lists(
            st.sampled_from(
                [
                    b"[[tag]]\n",
                    b'key = "a"\n',
                    b'name = "A"\n',
                    b"description = ",
                    b"[",
                    b"]",
                    b"{",
                    b"}",
                    b"x = ",
                    b"\xef\xbb\xbf",
                    b"\xff",
                    b'"',
                    b"'''",
                    b"\n",
                    b"=",
                    b"1e999",
                    b"\x00",
                    b"a.b.c = 1\n",
                    b"[tag]\n",
                    b"[[tag.x]]\n",
                    b"\\u",
                    b"\x1b[2J",
                ]
            ),
            max_size=60,
        ).map(b"".join),
        st.integers(min_value=1, max_value=3000).map(lambda depth: b"x = " + b"[" * depth + b"]" * depth),
        st.integers(min_value=1, max_value=3000).map(
            lambda depth: b"x = " + b"{a = " * depth + b"1" + b"}" * depth
        ),
    )
)
def test_only_a_tags_error_escapes_the_tag_reader(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "hostile.toml"
    path.write_bytes(data)
    try:
        tags = load_tags(path)
    except TagsError as exc:
        assert str(exc).startswith(str(path))
    else:
        assert 1 <= len(tags) <= MAX_TAGS
