"""The site's structure: every page is in the navigation, every format has its page, every
generated part expands (so a stale part fails here as well as in ``mkdocs build --strict``),
and the site builds offline."""

from __future__ import annotations

import importlib.util
import re
import sys

import pytest

from tests.conftest import ROOT

DOCS = ROOT / "docs"
PAGES = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")
               if "hooks" not in p.parts)
CONFIG = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def generated():
    spec = importlib.util.spec_from_file_location("corefkit_docs_generated",
                                                  DOCS / "hooks" / "generated.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def nav_pages() -> list[str]:
    nav = CONFIG.split("\nnav:\n", 1)[1]
    return re.findall(r":\s+(\S+\.md)\s*$", nav, flags=re.M)


def test_every_page_is_in_the_navigation_once():
    listed = nav_pages()
    assert sorted(listed) == PAGES
    assert len(listed) == len(set(listed))


def test_every_format_has_its_page():
    from corefkit.converters.registry import formats

    for spec in formats():
        page = f"formats/{spec.name}.md"
        assert page in PAGES, f"the format {spec.name} has no page docs/{page}"
        text = (DOCS / page).read_text(encoding="utf-8")
        for part in ("format-summary", "format-options", "format-losses"):
            assert f"<!-- corefkit:{part} {spec.name} -->" in text, (page, part)


@pytest.mark.parametrize("page", PAGES)
def test_generated_parts_expand(page: str):
    module = generated()
    text = (DOCS / page).read_text(encoding="utf-8")
    expanded = module.expand(text, page)
    assert not module.DIRECTIVE.search(expanded)


def test_an_unknown_part_or_format_is_an_error():
    module = generated()
    with pytest.raises(module.GenerationError, match="unknown part"):
        module.expand("<!-- corefkit:no-such-part -->", "x.md")
    with pytest.raises(module.GenerationError, match="unknown format"):
        module.expand("<!-- corefkit:format-options no-such-format -->", "x.md")


def test_the_cli_reference_has_every_command_and_option():
    import click

    from corefkit.cli.main import COMMANDS, cli

    reference = generated().cli("reference/cli.md")
    for name in COMMANDS:
        assert f"## `corefkit {name}` {{#corefkit-{name}}}" in reference
        command = cli.get_command(click.Context(cli), name)
        assert command is not None
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden:
                shown = generated().code(param.get_help_record(click.Context(command))[0])
                assert shown in reference, (name, param.name)


def test_the_option_tables_come_from_the_specs():
    from corefkit.converters.registry import declared, formats

    module = generated()
    for spec in formats():
        table = module.format_options(f"formats/{spec.name}.md", spec.name)
        for side in ("read", "write"):
            for option in declared(spec, side):
                assert f"`{option.cli}`" in table and f"`{option.name}`" in table


def test_the_build_is_offline_and_strict():
    """No plugin that fetches at build time (Material's social and privacy plugins), no web
    font, strict mode, and every page's links checked."""
    assert re.search(r"^strict: true$", CONFIG, flags=re.M)
    assert re.search(r"^\s+font: false", CONFIG, flags=re.M)
    plugins = CONFIG.split("\nplugins:\n", 1)[1].split("\n\n", 1)[0]
    assert not re.search(r"-\s+(social|privacy|optimize|git-\S+)", plugins)
    assert "not_found: warn" in CONFIG and "omitted_files: warn" in CONFIG
    assert "site/" in (ROOT / ".gitignore").read_text().splitlines()
    assert "mkdocs build --strict" in (ROOT / "dev.py").read_text() or \
        '"--strict"' in (ROOT / "dev.py").read_text()
    assert "python3 dev.py docs" in (ROOT / ".ci" / "run").read_text()
