"""The built site in a real browser: headless Chromium driven by Playwright.

The tests use the system's Chromium (Debian's ``chromium`` package, or the
path in ``CHROMIUM``); Playwright never downloads a browser. Without one they
are skipped, unless ``REQUIRE_BROWSER=1`` (set by CI) makes that a failure.
Screenshots go to ``docs/_build/screenshots/`` for a maintainer to look at.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from build_facts import CHROMIUM_FLAGS

from sitebuild import FIRST_PAGE, ROOT, SCRIPTS, page_of

pytestmark = pytest.mark.docs

SCREENSHOTS = ROOT / "docs" / "_build" / "screenshots"
PHONE = {"width": 390, "height": 844}


def find_chromium() -> str | None:
    candidates = [
        os.environ.get("CHROMIUM"),
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
        shutil.which("google-chrome"),
    ]
    return next((c for c in candidates if c and Path(c).is_file()), None)


@pytest.fixture(scope="module")
def server(site: Path) -> Iterator[str]:
    """Serve the built site on a free localhost port."""
    handler = functools.partial(QuietHandler, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = find_chromium()
    if executable is None:
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(
                "REQUIRE_BROWSER=1 but no Chromium found (apt-get install chromium)"
            )
        pytest.skip("no Chromium on this machine (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        # launch() starts from a fresh, temporary profile every time.
        chromium = playwright.chromium.launch(
            executable_path=executable, headless=True, args=list(CHROMIUM_FLAGS)
        )
        yield chromium
        chromium.close()


def open_page(browser: Any, url: str, **viewport: int) -> tuple[Any, list[str]]:
    """Open `url` in a new tab; return the tab and the errors it logs."""
    errors: list[str] = []
    # A context of its own per page: no theme or storage left by another test.
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900})
    page = context.new_page()
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on(
        "response",
        lambda r: errors.append(f"{r.status} for {r.url}") if r.status >= 400 else None,
    )
    response = page.goto(url, wait_until="load")
    assert response is not None, f"{url} gave no response"
    assert response.ok, f"{url} answered {response.status}"
    return page, errors


def screenshot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def gallery_url(server: str, site: Path, script: Path) -> str:
    return f"{server}/{page_of(site, script).relative_to(site).as_posix()}"


def test_landing_and_gallery_pages_render_without_errors(
    browser: Any, server: str, site: Path
) -> None:
    page, errors = open_page(browser, f"{server}/index.html")
    assert page.locator(".sd-card").count() >= 1
    screenshot(page, "landing")
    page.context.close()
    page, more = open_page(browser, gallery_url(server, site, FIRST_PAGE))
    assert page.locator("div.sphx-glr-script-out").count() > 0
    assert page.locator("img.sphx-glr-single-img, img.sphx-glr-multi-img").count() > 0
    screenshot(page, "gallery-page")
    page.context.close()
    assert not errors + more, f"console errors: {errors + more}"


def test_search_finds_a_page_for_a_word_it_teaches(browser: Any, server: str) -> None:
    page, errors = open_page(browser, f"{server}/search.html?q=linspace")
    results = page.locator("#search-results ul.search li a")
    results.first.wait_for(timeout=15_000)
    links = [results.nth(i).get_attribute("href") for i in range(results.count())]
    assert any("plot_01_creating_tensors" in (link or "") for link in links), links
    screenshot(page, "search")
    page.context.close()
    assert not errors


def test_download_links_resolve(browser: Any, server: str, site: Path) -> None:
    page, _ = open_page(browser, gallery_url(server, site, FIRST_PAGE))
    links = page.locator("div.sphx-glr-download a")
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    assert any(h and h.endswith(".py") for h in hrefs), hrefs
    assert any(h and h.endswith(".ipynb") for h in hrefs), hrefs
    for href in hrefs:
        response = page.request.get(page.url.rsplit("/", 1)[0] + "/" + str(href))
        assert response.ok, f"{href}: {response.status}"
        assert len(response.body()) > 100
    page.context.close()


def test_dark_mode_switches_the_colours(browser: Any, server: str) -> None:
    page, errors = open_page(browser, f"{server}/index.html")

    def background() -> str:
        return str(page.evaluate("getComputedStyle(document.body).backgroundColor"))

    light = background()
    seen = {page.evaluate("document.body.dataset.theme")}
    for _ in range(3):  # Furo cycles auto -> dark -> light (or the reverse)
        page.locator("button.theme-toggle:visible").first.click()
        seen.add(page.evaluate("document.body.dataset.theme"))
        if page.evaluate("document.body.dataset.theme") == "dark":
            break
    assert "dark" in seen, seen
    dark = background()
    assert dark != light, "the background did not change in dark mode"
    # Dark means dark: every colour channel below the middle.
    channels = [
        int(c) for c in dark[dark.index("(") + 1 : dark.index(")")].split(",")[:3]
    ]
    assert max(channels) < 128, dark
    screenshot(page, "landing-dark")
    page.context.close()
    assert not errors


@pytest.mark.parametrize("which", ["index", "gallery"])
def test_usable_at_phone_width(
    browser: Any, server: str, site: Path, which: str
) -> None:
    url = (
        f"{server}/index.html"
        if which == "index"
        else gallery_url(server, site, FIRST_PAGE)
    )
    page, errors = open_page(browser, url, **PHONE)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways: {width}px wide"
    # The navigation is behind a menu button, and the text is readable.
    assert page.locator("label.toc-overlay-icon, label[for='__navigation']").count() > 0
    size = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('article section > p')).fontSize)"
    )
    assert size >= 14, f"body text of {size}px is too small on a phone"
    screenshot(page, f"phone-{which}")
    page.context.close()
    assert not errors


def _raise_and_tell(make_error: Any) -> str:
    """Run `make_error`, and return the error it raises as Python prints it."""
    try:
        make_error()
    except Exception as error:  # noqa: BLE001 - any error is a message to paste
        return f"{type(error).__name__}: {error}"
    raise AssertionError(f"{make_error} raised nothing")


def _backward_twice() -> None:
    import torch

    y = torch.ones(2, requires_grad=True).exp().sum()
    y.backward()
    y.backward()


def _inplace_on_saved() -> None:
    import torch

    b = torch.ones(3, requires_grad=True).sigmoid()
    b.mul_(2)
    b.sum().backward()


def _atlas_cases() -> list[tuple[str, Any, tuple[str, ...], str]]:
    """Errors made here, with other shapes and sizes than the atlas shows.

    Each: a name, what raises, the atlas pages where its entry may be (two
    entries share a heading), and that heading.
    """
    import torch
    import torch.nn.functional as F
    from torch.utils.data import default_collate

    tensors, grads = ("plot_01_tensor_errors",), ("plot_02_autograd_errors",)
    training, saving = ("plot_03_training_errors",), ("plot_04_data_and_saving_errors",)
    return [
        (
            "matmul",
            lambda: torch.ones(7, 2) @ torch.ones(9, 4),
            tensors + training,
            "mat1 and mat2 shapes cannot be multiplied",
        ),
        (
            "broadcast",
            lambda: torch.ones(3, 5) + torch.ones(3, 4),
            tensors,
            (
                "The size of tensor a … must match the size of tensor b … "
                "at non-singleton dimension …"
            ),
        ),
        (
            "dtypes",
            lambda: torch.ones(2, 2, dtype=torch.int64) @ torch.ones(2, 2),
            tensors,
            "expected m1 and m2 to have the same dtype",
        ),
        (
            "view",
            lambda: torch.ones(4, 6).t().view(24),
            tensors,
            "view size is not compatible with input tensor's size and stride",
        ),
        (
            "numpy",
            lambda: torch.ones(2, requires_grad=True).numpy(),
            tensors,
            "Can't call numpy() on Tensor that requires grad",
        ),
        (
            "item",
            lambda: torch.ones(4).item(),
            tensors,
            "a Tensor with … elements cannot be converted to Scalar",
        ),
        (
            "index",
            lambda: torch.arange(3)[7],
            tensors,
            "index … is out of bounds for dimension … with size …",
        ),
        (
            "backward-twice",
            _backward_twice,
            grads,
            "Trying to backward through the graph a second time",
        ),
        (
            "non-scalar",
            lambda: (torch.ones(2, requires_grad=True) * 2).backward(),
            grads,
            "grad can be implicitly created only for scalar outputs",
        ),
        (
            "no-grad-fn",
            lambda: torch.ones(2).sum().backward(),
            grads,
            "element … of tensors does not require grad and does not have a grad_fn",
        ),
        (
            "inplace-saved",
            _inplace_on_saved,
            grads,
            (
                "one of the variables needed for gradient computation has been "
                "modified by an inplace operation"
            ),
        ),
        (
            "inplace-leaf",
            lambda: torch.ones(2, requires_grad=True).add_(1),
            grads,
            "a leaf Variable that requires grad is being used in an in-place operation",
        ),
        (
            "batch-size",
            lambda: F.cross_entropy(torch.randn(5, 3), torch.tensor([0, 1])),
            training,
            "Expected input batch_size … to match target batch_size …",
        ),
        (
            "collate",
            lambda: default_collate([torch.ones(4), torch.ones(6)]),
            saving,
            (
                "stack expects each tensor to be equal size, but got … at entry … "
                "and … at entry …"
            ),
        ),
        (
            "missing-keys",
            lambda: torch.nn.Linear(2, 2).load_state_dict({"weight": torch.ones(2, 2)}),
            saving,
            "Missing key(s) in state_dict",
        ),
    ]


def test_a_pasted_error_message_finds_its_atlas_entry(
    browser: Any, server: str
) -> None:
    """Paste real messages, with their own sizes and names, into the search box."""
    page, errors = open_page(browser, f"{server}/index.html")
    misses = []
    for name, make_error, pages, heading in _atlas_cases():
        message = _raise_and_tell(make_error)
        box = page.locator("input.sidebar-search:visible").first
        box.fill(message)
        box.press("Enter")
        page.wait_for_url("**/search.html?q=*")
        first = page.locator("#search-results ul.search li a").first
        first.wait_for(timeout=15_000)
        href = str(first.get_attribute("href"))
        stem, _, anchor = href.rsplit("/", 1)[-1].partition(".html#")
        title = page.evaluate(
            "([page, id]) => fetch(page).then((r) => r.text()).then((text) =>"
            " new DOMParser().parseFromString(text, 'text/html')"
            " .getElementById(id)?.querySelector('h2, h3')?.textContent ?? '')",
            [href.split("#")[0], anchor],
        )
        found = str(title).rstrip("¶#").strip()
        if stem not in pages or found != heading:
            misses.append(f"{name}: {message[:80]!r} -> {href} ({found!r})")
        page.goto(f"{server}/index.html")
    screenshot(page, "search-error")
    page.context.close()
    assert not misses, "\n".join(misses)
    assert not errors


def test_an_exercise_solution_stays_folded_until_asked(
    browser: Any, server: str, site: Path
) -> None:
    script = next(s for s in SCRIPTS if "exercises" in s.stem)
    page, errors = open_page(browser, gallery_url(server, site, script))
    solution = page.locator("details.solution").first
    code = solution.locator("div.highlight").first
    assert solution.get_attribute("open") is None
    assert not code.is_visible(), "the solution shows before the reader asks"
    solution.locator("summary").click()
    assert code.is_visible(), "the toggle does not open the solution"
    screenshot(page, "exercise-open")
    page.context.close()
    assert not errors


def test_a_check_stays_folded_until_opened_by_click_or_keyboard(
    browser: Any, server: str, site: Path
) -> None:
    script = next(s for s in SCRIPTS if "# .. check::" in s.read_text())
    page, errors = open_page(browser, gallery_url(server, site, script))
    checks = page.locator("details.fold-check")
    assert checks.count() == script.read_text().count("\n# .. check::")
    check = checks.first
    code = check.locator("div.highlight").first
    summary = check.locator("summary")
    assert check.get_attribute("open") is None
    assert summary.inner_text().startswith("Check:")
    assert not code.is_visible(), "the check shows before the reader opens it"
    summary.click()
    assert code.is_visible(), "a click does not open the check"
    summary.click()
    assert not code.is_visible(), "a second click does not close it"
    summary.focus()
    page.keyboard.press("Enter")
    assert code.is_visible(), "the keyboard does not open the check"
    screenshot(page, "check-open")
    page.context.close()
    assert not errors
