#!/usr/bin/env python3
"""Runs the browser tests of the studio and the pacer against a running `nagi serve`.

Usage: run.py --url URL --nagi PATH [--browser chromium|webkit] [--only NAME ...]
Prints one line a test (PASS, FAIL with the reason, or SKIP with what the browser's driver lacks) and closes with
`N passed, M failed[, K skipped]`; exits 1 on a failure. WebKit runs under xvfb-run (no headless mode).
scripts/browser-tests.sh starts the server and calls this.
"""
import argparse
import shutil
import sys
import tempfile
import time
import traceback

import browser
import test_course_days
import test_heart
import test_install
import test_pacer
import test_readable
import test_player
import test_resilience
import test_studio


class Context:
    """What every test gets: the server's URL, the nagi binary, a scratch folder and a shared browser."""

    def __init__(self, url, nagi, scratch):
        self.url = browser.use_server(url)
        self.nagi = nagi
        self.scratch = scratch
        self.driver = None

    def browser(self):
        if self.driver is None:
            self.driver = browser.launch(download_folder=self.downloads)
            browser.sign_in(self.driver, self.url)
        return self.driver

    @property
    def downloads(self):
        return f"{self.scratch}/downloads"

    def fresh(self):
        """The shared browser reset: default media, a viewport of 1000 × 700 CSS px, the server's local storage
        cleared, the console drained."""
        driver = self.browser()
        browser.color_scheme(driver, "")
        browser.viewport(driver, 1000, 700)
        driver.get("about:blank")
        # What the studio remembers (the last choice) stays with the test that made it.
        if browser.ENGINE == "chromium":
            driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": self.url.rstrip("/"), "storageTypes": "local_storage"})
            driver.get_log("browser")
        else:
            driver.get(self.url + "manifest.webmanifest")
            driver.execute_script("localStorage.clear()")
            driver.get("about:blank")
        return driver

    def close(self):
        if self.driver is not None:
            self.driver.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", required=True)
    parser.add_argument("--nagi", required=True)
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--browser", choices=["chromium", "webkit"], default="chromium")
    arguments = parser.parse_args()
    browser.ENGINE = arguments.browser
    tests = test_studio.TESTS + test_player.TESTS + test_pacer.TESTS + test_resilience.TESTS + test_install.TESTS + test_readable.TESTS + test_course_days.TESTS + test_heart.TESTS
    if arguments.only:
        tests = [t for t in tests if t.__name__ in arguments.only]
    scratch = tempfile.mkdtemp(prefix="nagi-browser-")
    context = Context(arguments.url, arguments.nagi, scratch)
    passed = failed = skipped = 0
    started = time.monotonic()
    try:
        for test in tests:
            began = time.monotonic()
            try:
                test(context)
            except browser.Unsupported as missing:
                skipped += 1
                print(f"SKIP {test.__name__}: {arguments.browser}'s driver offers no {missing}", flush=True)
            except Exception as error:  # a test's failure, whatever raised it
                failed += 1
                detail = str(error) if isinstance(error, AssertionError) and str(error) else traceback.format_exc(limit=-2)
                print(f"FAIL {test.__name__} ({time.monotonic() - began:.1f} s): {detail}", flush=True)
                if context.driver is not None:
                    context.driver.quit()
                    context.driver = None
            else:
                passed += 1
                print(f"PASS {test.__name__} ({time.monotonic() - began:.1f} s)", flush=True)
    finally:
        context.close()
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"browser tests in {arguments.browser} took {time.monotonic() - started:.0f} s")
    print(f"{passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
