"""Entry pages in a real browser, for a reader in a hurry (issue 13): at desktop and phone
widths the first screen shows the title, severity, role, the quick answer and the way to
the fix; each signature is a compact line with a copy button whose provenance (source,
versions, reproduced, context) is folded into a details block that opens on click.

Uses the built site and fixtures of test_browser_diagnose.py (headless Chromium through
playwright, the site served from 127.0.0.1, no request leaving the machine). Screenshots go
to pytest's tmp_path. Run only these: `python -m pytest -m browser`.
"""

from __future__ import annotations

import pytest
from test_browser_diagnose import page, site  # noqa: F401  (fixtures)

from generator.entries.catalog import load_catalog
from generator.project import Project

pytestmark = [pytest.mark.browser, pytest.mark.slow]

VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def entries(site):  # noqa: F811
    """The entries the served site was built from, by id."""
    return {e.id: e for e in load_catalog(Project(site["root"])).entries}


@pytest.fixture(params=sorted(VIEWPORTS))
def sized(request, site):  # noqa: F811
    """A page at one of the two widths, in a context that records every request."""
    context = site["context"].browser.new_context(viewport=VIEWPORTS[request.param],
                                                  device_scale_factor=1)
    base = site["base"]

    def route(r):
        site["requests"].append(r.request.url)
        if r.request.url.startswith((base, "data:", "blob:")):
            r.continue_()
        else:
            r.abort()

    context.route("**/*", route)
    errors: list[str] = []
    p = context.new_page()
    p.on("pageerror", lambda e: errors.append(str(e)))
    yield request.param, p
    context.close()
    assert errors == [], errors


def _words(text: str) -> list[str]:
    """Words without Markdown's emphasis and code marks, to compare source and page."""
    return "".join(ch for ch in text if ch not in "`*_").split()


def _top(tab, selector: str) -> float:
    box = tab.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not displayed"
    return box["y"]


def test_first_screen_has_the_answer_and_the_way_to_the_fix(site, entries, sized, tmp_path):  # noqa: F811
    """Every entry page, both widths: title, severity and role badges, the quick answer's
    text and the 'Jump to the fix' link start inside the first viewport, above the
    signatures."""
    width, tab = sized
    height = VIEWPORTS[width]["height"]
    shot = {"nccl-watchdog-timeout", "nccl-broadcast-hang", "ddp-inplace-buffer-broadcast"}
    late = []
    for eid in sorted(entries):
        tab.goto(site["base"] + f"failures/{eid}/")
        article = "article.md-content__inner"
        tops = {
            "title": _top(tab, f"{article} h1"),
            "severity": _top(tab, f"{article} .fe-entry-meta .fe-sev-{entries[eid].severity}"),
            "role": _top(tab, f"{article} .fe-entry-meta .fe-role-{entries[eid].role}"),
            "quick answer": _top(tab, f"{article} #quick-answer + p"),
            "fix link": _top(tab, f"{article} a.fe-jump[href$='#fix']"),
        }
        late += [f"{eid}: {what} at y={y:.0f}" for what, y in tops.items() if not 0 <= y < height]
        assert _top(tab, f"{article} #quick-answer") < _top(tab, f"{article} #signatures"), eid
        shown = _words(tab.inner_text(f"{article} #quick-answer + p"))
        assert shown[:8] == _words(entries[eid].summary)[:8], eid
        if eid in shot:
            tab.screenshot(path=str(tmp_path / f"{eid}-{width}.png"))
    assert late == [], f"below the first {width} screen ({height}px): {late}"


def test_jump_to_the_fix(site, sized):  # noqa: F811
    width, tab = sized
    tab.goto(site["base"] + "failures/nccl-watchdog-timeout/")
    tab.click("article a.fe-jump[href$='#fix']")
    tab.wait_for_function("location.hash === '#fix'")
    tab.wait_for_timeout(300)  # smooth scrolling, if any
    top = _top(tab, "article #fix")
    assert 0 <= top < VIEWPORTS[width]["height"] / 2


def test_signatures_copyable_with_provenance_folded(site, entries, sized, tmp_path):  # noqa: F811
    width, tab = sized
    eid = "nccl-watchdog-timeout"
    sigs = entries[eid].signatures
    tab.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site["base"][:-1])
    tab.goto(site["base"] + f"failures/{eid}/")
    codes = tab.locator("article pre > code.fe-signature")
    assert [" ".join(t.split()) for t in codes.all_inner_texts()] == [s.template for s in sigs]
    # Material's copy button on every signature
    copy = "article pre:has(> code.fe-signature) button[data-md-type=copy]"
    tab.wait_for_selector(copy, state="attached", timeout=30000)
    buttons = tab.locator(copy)
    assert buttons.count() == len(sigs)
    # each template wraps instead of scrolling: the whole line is visible at both widths
    overflow = tab.evaluate("""() => [...document.querySelectorAll('article code.fe-signature')]
        .filter(c => c.scrollWidth > c.clientWidth + 1).length""")
    assert overflow == 0
    # one collapsed details block under each signature, versions on its title
    details = tab.locator("article pre:has(> code.fe-signature) + details")
    assert details.count() == len(sigs)
    for i, sig in enumerate(sigs):
        d = details.nth(i)
        assert d.get_attribute("open") is None
        # the title is Markdown: `code` spans show without their backticks, spaces collapse
        shown = " ".join(d.locator("summary").inner_text().split())
        assert " ".join(sig.versions.replace("`", "").split()) in shown
        assert not d.get_by_text(sig.source).is_visible()
    tab.evaluate("document.getElementById('signatures').scrollIntoView()")
    tab.screenshot(path=str(tmp_path / f"{eid}-signatures-closed-{width}.png"))
    first = details.nth(0)
    first.locator("summary").click()
    tab.wait_for_function("""() => document.querySelector(
        'article pre:has(> code.fe-signature) + details').open""")
    assert first.get_by_text(sigs[0].source).is_visible()
    assert details.nth(1).get_attribute("open") is None
    first.scroll_into_view_if_needed()
    tab.screenshot(path=str(tmp_path / f"{eid}-signatures-open-{width}.png"))
    # the copy button copies the template itself
    buttons.nth(0).click()
    copied = tab.evaluate("navigator.clipboard.readText()")
    assert copied.strip() == sigs[0].template


def test_context_and_reproduced_fold_too(site, entries, page):  # noqa: F811
    """An entry whose signatures need context and were reproduced: that provenance is in
    the details block, hidden until opened."""
    eid, sig = next((e.id, s) for e in sorted(entries.values(), key=lambda e: e.id)
                    for s in e.signatures if s.context and s.reproduced)
    index = list(entries[eid].signatures).index(sig)
    page.goto(site["base"] + f"failures/{eid}/")
    d = page.locator("article pre:has(> code.fe-signature) + details").nth(index)
    body = d.locator("ul")
    assert not body.is_visible()
    d.locator("summary").click()
    text = body.inner_text()
    assert "Reproduced" in text and "Counts only with" in text
    assert " ".join(sig.context[0].split()) in " ".join(text.split())
