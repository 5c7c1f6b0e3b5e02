"""The built site in a real browser: the Diagnose page, the home page's quick box and the
site search with pasted error lines, and no request leaving the machine.

Builds the site from the repository's entries into a temporary folder, serves it on
127.0.0.1 and drives headless Chromium through the `playwright` package. Skipped when
playwright or /usr/bin/chromium is missing (pip install playwright; apt-get install
chromium). Run only these: `python -m pytest -m browser`.
"""

from __future__ import annotations

import functools
import gzip
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from diagnose_support import REPO, sanitized_entries
from helpers import make_project

from generator.matching import diagnose

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHROMIUM = os.environ.get("FE_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]

OOM = ("[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.96 GiB. GPU 3 "
       "has a total capacity of 79.10 GiB of which 1.02 GiB is free. Including non-PyTorch memory, "
       "this process has 78.07 GiB memory in use.")
WATCHDOG = ("[rank5]:[E0312 11:02:07.998877665 ProcessGroupNCCL.cpp:616] [Rank 5] Watchdog caught "
            "collective operation timeout: WorkNCCL(SeqNum=88, OpType=ALLGATHER, NumelIn=1024, "
            "NumelOut=8192, Timeout(ms)=1800000) ran for 1800321 milliseconds before timing out.")
SHM = ("gpu-node-3:41234:41300 [2] misc/shmutils.cc:72 NCCL WARN Error: failed to extend "
       "/dev/shm/nccl-Xy12ab to 9637892 bytes")
LOG = "\n".join([
    "[default0]:{'loss': 0.8113, 'grad_norm': 0.412, 'learning_rate': 1.9e-05, 'epoch': 0.42}",
    "[default3]:" + OOM,
    "[default5]:" + WATCHDOG,
    "[default0]:" + WATCHDOG.replace("rank5", "rank0").replace("Rank 5", "Rank 0"),
    "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
]) + "\n"


def _playwright():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install playwright)")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} not found (apt-get install chromium)")
    return sync_playwright


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    sync_playwright = _playwright()
    tmp = tmp_path_factory.mktemp("browser")
    out = tmp / "site"

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):  # keep pytest output clean
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(Quiet, directory=str(out)))
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    root = make_project(tmp)
    shutil.rmtree(root / "entries")
    sanitized_entries(root / "entries")  # dangling cross-links of half-written entries dropped
    # Material's instant navigation only follows links under site_url (from sitemap.xml):
    # build for the address the test serves from
    config = root / "mkdocs.yml"
    config.write_text("\n".join(f"site_url: {base}" if line.startswith("site_url:") else line
                                for line in config.read_text(encoding="utf-8").splitlines()) + "\n",
                      encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    r = subprocess.run([sys.executable, "-m", "generator", "build", "--site-dir", str(out)],
                       cwd=root, env=env, capture_output=True, text=True, timeout=600, check=False)
    if r.returncode:
        server.server_close()
        pytest.fail(f"site build failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    requests: list[str] = []
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 900})

        def route(r):
            requests.append(r.request.url)
            if r.request.url.startswith(base) or r.request.url.startswith(("data:", "blob:")):
                r.continue_()
            else:
                r.abort()  # never touch the network, but remember the attempt

        context.route("**/*", route)
        context.on("page", lambda page: page.on("pageerror", lambda e: errors.append(str(e))))
        yield {"base": base, "context": context, "requests": requests, "errors": errors,
               "root": root, "tmp": tmp}
        browser.close()
    server.shutdown()
    server.server_close()


@pytest.fixture
def page(site):
    page = site["context"].new_page()
    yield page
    page.close()
    assert site["errors"] == [], site["errors"]


def verdict_json(page) -> dict:
    page.wait_for_selector("#fe-diagnose .fe-json pre", state="attached", timeout=60000)
    return json.loads(page.text_content("#fe-diagnose .fe-json pre"))


def test_diagnose_page_paste_gives_pythons_verdict(site, page):
    page.goto(site["base"] + "diagnose/")
    page.fill("#fe-diagnose textarea", LOG)
    page.click("#fe-diagnose .fe-run")
    v = verdict_json(page)
    log = site["tmp"] / "pasted.log"
    log.write_text(LOG, encoding="utf-8")
    data, _ = diagnose.load_data(site["root"])
    py = diagnose.diagnose(data, [str(log)])

    def strip(verdict):
        return [(m["id"], m["role"], m["line"], m["rank"], m["count"]) for m in verdict["matches"]]

    assert v["status"] == py["status"] == "root-cause-found"
    assert v["root_cause"] == "cuda-oom" and strip(v) == strip(py)
    assert v["files"] == [{"name": "pasted log", "lines": 5}]
    text = page.inner_text("#fe-diagnose .fe-result")
    assert "Root cause:" in text and "line 2, rank 3" in text
    link = page.get_attribute("#fe-diagnose .fe-primary a.fe-title", "href")
    assert link == site["base"] + "failures/cuda-oom/"


def test_diagnose_page_without_an_error_line_says_what_to_collect(site, page):
    """No match and no error line like an entry (the launcher's output only, or a hang): the
    page says what to collect for a crash and for a hang, linking the entries it names; with
    suggestions it shows those instead."""
    page.goto(site["base"] + "diagnose/")
    hang = ("node1:311:311 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n"
            "node1:311:311 [0] NCCL INFO cudaDriverVersion 12020\n"
            "[rank0]: step 100 loss 2.0031\n")
    page.fill("#fe-diagnose textarea", hang)
    page.click("#fe-diagnose .fe-run")
    v = verdict_json(page)
    assert v["matches"] == [] and v["suggestions"] == []
    text = page.inner_text("#fe-diagnose .fe-none")
    assert "If the job crashed, its error is not in this log" in text
    assert "If the job hung" in text and "py-spy dump --pid PID" in text
    links = page.eval_on_selector_all("#fe-diagnose .fe-hint-hang a", "els => els.map(e => e.href)")
    assert links == [site["base"] + "failures/nccl-watchdog-timeout/",
                     site["base"] + "failures/ddp-rank-stuck/"]
    unknown = ("[rank0]: RuntimeError: the ZeRO-3 partitioned parameter coordinator found "
               "inflight parameters after the step\n")  # words of an entry, no signature
    page.fill("#fe-diagnose textarea", unknown)
    page.click("#fe-diagnose .fe-run")
    page.wait_for_selector("#fe-diagnose .fe-suggestion", timeout=60000)
    assert page.query_selector("#fe-diagnose .fe-hint-hang") is None


def test_diagnose_page_large_file_and_gzip(site, page):
    tmp = site["tmp"]
    big = tmp / "big-train.log"
    filler = (b"[default1]:{'loss': 0.8113, 'grad_norm': 0.412, 'learning_rate': 1.9e-05, "
              b"'epoch': 0.42} step 1260/3000\n")
    reps = (50 << 20) // len(filler)
    with big.open("wb") as fh:
        fh.write(filler * (reps // 2))
        fh.write(("[default3]:" + OOM + "\n").encode())
        fh.write(filler * (reps - reps // 2))
    page.goto(site["base"] + "diagnose/")
    page.set_input_files("#fe-diagnose input[type=file]", str(big))
    v = verdict_json(page)
    assert v["root_cause"] == "cuda-oom"
    assert v["lines"] == reps + 1 and v["matches"][0]["line"] == reps // 2 + 1
    assert v["files"][0]["name"] == "big-train.log"

    gz = tmp / "rank3.log.gz"
    gz.write_bytes(gzip.compress(LOG.encode()))
    other = tmp / "rank0.log"
    other.write_text(WATCHDOG + "\n", encoding="utf-8")
    page.goto(site["base"] + "diagnose/")
    page.set_input_files("#fe-diagnose input[type=file]", [str(other), str(gz)])
    v = verdict_json(page)
    assert [f["name"] for f in v["files"]] == ["rank0.log", "rank3.log.gz"]
    assert (v["matches"][0]["id"], v["matches"][0]["file"], v["matches"][0]["line"]) == (
        "cuda-oom", "rank3.log.gz", 2)


def test_home_quick_box_and_instant_navigation(site, page):
    page.goto(site["base"])
    page.fill("#fe-quick-diagnose textarea", OOM)
    page.wait_for_selector("#fe-quick-diagnose .fe-quick-hit a", timeout=30000)
    assert page.get_attribute("#fe-quick-diagnose .fe-quick-hit a", "href") == (
        site["base"] + "failures/cuda-oom/")
    # Material's instant navigation swaps the content without reloading scripts: the page
    # script must mount the Diagnose page again (document$), in the same window
    page.evaluate("window.__feSameWindow = true")
    page.click("article a[href$='diagnose/']")
    page.wait_for_selector("#fe-diagnose textarea", timeout=30000)
    assert page.evaluate("window.__feSameWindow === true")
    page.fill("#fe-diagnose textarea", SHM)
    page.click("#fe-diagnose .fe-run")
    assert verdict_json(page)["root_cause"] == "nccl-shm-exhausted"


@pytest.mark.parametrize("line, entry", [
    (WATCHDOG, "nccl-watchdog-timeout"),
    (OOM, "cuda-oom"),
    (SHM, "nccl-shm-exhausted"),
    (("torch.distributed.DistNetworkError: The server socket has failed to listen on any local "
      "network address. The server socket has failed to bind to [::]:29501 (errno: 98 - Address "
      "already in use)."), "c10d-address-in-use"),
])
def test_search_finds_the_entry_from_a_pasted_line(site, page, line, entry):
    page.goto(site["base"])
    box = "input[data-md-component=search-query]"
    page.click(box)
    page.fill(box, line)
    page.press(box, "End")  # Material searches on keyup
    first = ".md-search-result__list > li.md-search-result__item:first-child a"
    page.wait_for_selector(first, timeout=30000)
    page.wait_for_timeout(500)  # let Material finish rendering its own results
    href = page.get_attribute(first, "href")
    assert href.split("?")[0].split("#")[0] == site["base"] + f"failures/{entry}/"


@pytest.mark.parametrize("line, entry", [
    # the line of issue 10, cut with "..." after the distinctive part
    ("[E626 05:06:30.929096625 ProcessGroupNCCL.cpp:632] [Rank 2] Watchdog caught collective "
     "operation timeout: ...", "nccl-watchdog-timeout"),
    # tests/search/pasted-lines.tsv, from a dev real log (r31), cut mid-word
    ("ERROR: Unexpected bus error encountered in worker. This might be caused by insufficien...",
     "dataloader-shm-bus-error"),
])
def test_search_puts_a_cut_line_first(site, page, line, entry):
    """Typed key by key: the signature's entry comes first, marked as a cut line."""
    page.goto(site["base"])
    box = "input[data-md-component=search-query]"
    page.click(box)
    page.type(box, line)
    first = ".md-search-result__list > li.md-search-result__item:first-child"
    page.wait_for_selector(first + ".fe-search-signature", timeout=30000)
    page.wait_for_timeout(500)  # let Material finish rendering its own results
    href = page.get_attribute(first + " a", "href")
    assert href.split("?")[0].split("#")[0] == site["base"] + f"failures/{entry}/"
    assert "line cut short" in page.text_content(first + " .fe-search-why")


def test_entry_page_draws_its_decision_tree_from_this_site(site, page):
    """Mermaid comes from assets/vendor/, never from unpkg.com (checked by the test below)."""
    page.goto(site["base"] + "failures/fsdp-unshard-oom-forward/")
    page.wait_for_selector("div.mermaid", state="attached", timeout=60000)
    assert any("assets/vendor/mermaid-" in u for u in site["requests"])


def test_no_request_left_the_machine(site):
    # runs last in this module: every page above was loaded through the recording route
    assert site["requests"], "no request was recorded"
    outside = sorted({u for u in site["requests"] if not u.startswith(site["base"])})
    assert outside == [], outside
