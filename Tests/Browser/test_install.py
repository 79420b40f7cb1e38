"""Installable and offline (issue 52): Chromium finds the app installable, a kept session loads and plays on its
schedule with the server stopped, and the server sends its pages and assets compressed with validators."""
import gzip
import time
import urllib.error
import urllib.request

import browser
from schedule_model import Expected
from test_pacer import SAMPLE_SCRIPT, check_samples
from test_resilience import OwnServer, free_port


def test_installable(context):
    """The manifest names the app, its icons (192 and 512, real PNGs of that size), a start URL and standalone
    display, and Chromium's own check (Page.getInstallabilityErrors) finds nothing missing."""
    driver = context.fresh()
    driver.get(context.url)
    driver.execute_async_script("navigator.serviceWorker.ready.then(() => arguments[0]())")
    errors = browser.cdp(driver, "Page.getInstallabilityErrors", {})
    assert errors.get("installabilityErrors") == [], f"installability errors: {errors}"
    manifest = browser.get_json(f"{context.url}manifest.webmanifest")
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/" and manifest["name"], manifest
    for size in (192, 512):
        icon = next(i for i in manifest["icons"] if i["sizes"] == f"{size}x{size}")
        with urllib.request.urlopen(context.url + icon["src"].lstrip("/"), timeout=30) as response:
            width, height, _ = browser.decode_png(response.read())
        assert (width, height) == (size, size), f"{icon['src']} is {width}×{height}"
    colours = driver.execute_script("return [...document.querySelectorAll('meta[name=theme-color]')].map(m => m.media)")
    assert sorted(colours) == ["(prefers-color-scheme: dark)", "(prefers-color-scheme: light)"], colours
    browser.assert_no_console_errors(driver)


SESSION = "pattern=2-1.5-2.5-1&cycles=2&countdown=2"


def test_kept_session_plays_offline_on_its_schedule(context):
    """keep() stores the session and resolves; list() names it; with the server stopped the pacer page loads from
    the browser, plays, and its state follows the audio clock and the schedule exactly as online."""
    server = OwnServer(context, free_port())
    url = server.start()
    try:
        driver = context.fresh()
        driver.get(f"{url}pace?{SESSION}")
        browser.pacer_ready(driver)
        describe = browser.get_json(f"{url}api/describe?{SESSION}")
        kept = driver.execute_async_script("window.nagi.offline.keep().then(arguments[0], e => arguments[0]('failed: ' + e))")
        assert isinstance(kept, dict), kept
        listed = driver.execute_async_script("window.nagi.offline.list().then(arguments[0])")
        assert [k["page"] for k in listed] == [f"/pace?{SESSION}"], listed
        server.stop()
        with_server_gone = f"{url}pace?{SESSION}"
        try:
            urllib.request.urlopen(with_server_gone, timeout=5)
            raise AssertionError("the server still answers")
        except urllib.error.URLError:
            pass
        driver.get("about:blank")
        driver.get(with_server_gone)
        browser.pacer_ready(driver)
        assert driver.find_element("id", "problem").text == "", driver.find_element("id", "problem").text
        browser.start_pacer(driver)
        browser.wait_for(driver, "window.nagi.pacer.state().time > 0.05", timeout=20)
        samples = driver.execute_async_script(SAMPLE_SCRIPT, 3000)
        clock = driver.execute_async_script("""
          const done = arguments[0]; const audio = document.getElementById('audio'); const pairs = [];
          function step() { pairs.push([window.nagi.pacer.state().time, audio.currentTime]);
            if (pairs.length < 60) requestAnimationFrame(step); else done(pairs); }
          requestAnimationFrame(step);""")
        assert all(abs(a - b) < 1e-9 for a, b in clock), f"state().time left the audio clock: {clock[:3]}"
        checked = check_samples(samples, Expected(describe), "offline")
        assert checked >= 2.4 * browser.frames_per_second(), f"only {checked} samples checked"
        assert samples[-1][1]["time"] > 2.0, f"the kept session's clock reached only {samples[-1][1]['time']:.2f} s"
        driver.execute_script("caches.delete('nagi-kept')")
    finally:
        server.stop()


def fetch(url, headers):
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as answer:
        return answer.code, dict(answer.headers), answer.read()


def test_pages_and_assets_are_compressed_and_validated(context):
    """gzip when accepted (and the same bytes once unpacked), a strong ETag and Cache-Control on each, 304 for the
    ETag sent back, plain bytes to a client that takes no gzip."""
    for path in ("", "pace", "assets/pacer.js", "assets/studio.css", "manifest.webmanifest", "sw.js", "assets/icon-192.png"):
        status, plain_headers, plain = fetch(context.url + path, {})
        assert status == 200 and "Content-Encoding" not in plain_headers, (path, status, plain_headers)
        status, headers, body = fetch(context.url + path, {"Accept-Encoding": "gzip, br"})
        assert status == 200, (path, status)
        tag = headers.get("ETag", "")
        assert tag.startswith('"') and tag.endswith('"'), f"{path}: ETag {tag!r} is not strong"
        assert "no-cache" in headers.get("Cache-Control", ""), f"{path}: {headers.get('Cache-Control')}"
        if path.endswith(".png"):
            assert "Content-Encoding" not in headers and body == plain, f"{path}: an image recompressed"
        else:
            assert headers.get("Content-Encoding") == "gzip", f"{path}: {headers.get('Content-Encoding')}"
            assert gzip.decompress(body) == plain and len(body) < len(plain), f"{path}: gzip is not the file"
        status, again, body = fetch(context.url + path, {"Accept-Encoding": "gzip", "If-None-Match": tag})
        assert status == 304 and body == b"", f"{path}: {status} for its own ETag"
        status, _, _ = fetch(context.url + path, {"If-None-Match": '"not-this-one"'})
        assert status == 200, f"{path}: {status} for another ETag"


TESTS = [
    test_installable,
    test_kept_session_plays_offline_on_its_schedule,
    test_pages_and_assets_are_compressed_and_validated,
]
