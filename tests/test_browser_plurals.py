"""The browser picks the same plural form as the server: Intl.PluralRules in
real Chromium against CLDR through Babel, for every language, the counts 0..200
and fractions, and the client's t() against translate() for every counted string."""

from __future__ import annotations

import os
from typing import Any

import pytest

from atelier.content.check import template_fields
from atelier.content.plurals import flat_text
from atelier.i18n import LANGUAGES, catalog, plural_category, translate
from support.browser import CHROMIUM

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium"),
]

NUMBERS: list[float] = [*range(201), 0.5, 1.5, 2.5, 4.5, 5.5, 11.5, 21.5, 101.25]

SELECT = """([lang, numbers]) => {
  const rules = new Intl.PluralRules(lang);
  return numbers.map((n) => rules.select(n));
}"""

# The page's own i18n module: fetch the language's strings, then fill every
# counted key for each count as the interface does.
FILL = """async ([lang, keys, counts]) => {
  const i18n = await import("/static/i18n.js");
  await i18n.setLanguage(lang);
  const out = {};
  for (const [key, by, fields] of keys) {
    out[key] = counts.map((n) => i18n.t(key, { ...fields, [by]: n }));
  }
  return out;
}"""


def test_intl_plural_rules_agree_with_babel_for_each_language(browser: Any, server: Any) -> None:
    page = browser.new_page()
    try:
        page.goto(server.http)
        for lang in LANGUAGES:
            chromium = page.evaluate(SELECT, [lang, NUMBERS])
            babel = [plural_category(lang, n) for n in NUMBERS]
            assert chromium == babel, lang
    finally:
        page.close()


def test_the_client_fills_every_counted_string_as_the_server_does(
    browser: Any, server: Any
) -> None:
    page = browser.new_page()
    try:
        page.goto(server.http)
        for lang in LANGUAGES:
            counted = [
                (key, str(value.get("by", "count")),
                 {f: f"<{f}>" for f in template_fields(str(flat_text(value)))})
                for key, value in catalog()[lang].items()
                if isinstance(value, dict)
            ]
            assert len(counted) >= 20
            client = page.evaluate(FILL, [lang, counted, list(range(201))])
            for key, by, fields in counted:
                server_side = [translate(key, lang, **{**fields, by: n}) for n in range(201)]
                assert client[key] == server_side, (lang, key)
    finally:
        page.close()
