#!/usr/bin/env python3
"""Takes the README's screenshots in headless Chromium against a running `nagi serve`.

Usage: screenshots.py --url URL --out DIR (scripts/screenshots.sh starts the server and calls this)
Writes DIR/pacer-inhale-light.png, pacer-exhale-light.png, pacer-inhale-dark.png, pacer-exhale-dark.png (a phone,
390 × 844 CSS px at 2×, paused near the top of an inhale and the bottom of an exhale of 4-7-8), pacer-crossing.png
(the word split at the line mid-exhale), studio-390.png and studio-390-dark.png (the studio's whole page at 390 px,
1×, light and dark).
The pictures are functions of the audio clock, so the same build gives the same pictures.
"""
import argparse
import base64
import os
import sys

import browser

SESSION = "pattern=4-7-8&cycles=2"
# (name, phase index, progress through it): 85 % through the first inhale (L ≈ 0.95), 90 % through the first
# exhale (L ≈ 0.02), and half way through it, where the word sits on the line.
MOMENTS = [("inhale", 0, 0.85), ("exhale", 2, 0.90), ("crossing", 2, 0.5)]


def seek(driver, seconds):
    driver.execute_script("document.getElementById('audio').currentTime = arguments[0]", seconds)
    browser.wait_for(driver, f"Math.abs(window.nagi.pacer.state().time - {seconds}) < 1e-6 && !document.getElementById('audio').seeking")
    driver.execute_async_script("requestAnimationFrame(() => requestAnimationFrame(arguments[0]))")


def save(driver, path, full_height=None):
    options = {"format": "png", "captureBeyondViewport": bool(full_height)}
    if full_height:
        options["clip"] = {"x": 0, "y": 0, "width": 390, "height": full_height, "scale": 1}
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", options)
    with open(path, "wb") as f:
        f.write(base64.b64decode(shot["data"]))
    print(f"{path}: {os.path.getsize(path) // 1024} KB")


def pacer_shots(driver, url, out):
    for scheme in ("light", "dark"):
        browser.color_scheme(driver, scheme)
        browser.viewport(driver, 390, 844, mobile=True, scale=2)
        driver.get(f"{url}pace?{SESSION}")
        browser.pacer_ready(driver)
        driver.execute_script("window.nagi.pacer.start()")
        browser.wait_for(driver, "window.nagi.pacer.state().time > 0.05")
        driver.execute_script("document.getElementById('audio').pause()")
        browser.wait_for(driver, "document.getElementById('audio').paused")
        describe = browser.get_json(f"{url}api/describe?{SESSION}")
        rate = describe["sampleRate"]
        for name, index, progress in MOMENTS:
            if name == "crossing" and scheme == "dark":
                continue
            phase = describe["phases"][index]
            seek(driver, (phase["startFrame"] + progress * (phase["endFrame"] - phase["startFrame"])) / rate)
            save(driver, os.path.join(out, f"pacer-{name}.png" if name == "crossing" else f"pacer-{name}-{scheme}.png"))


def studio_shot(driver, url, out):
    for scheme, name in (("light", "studio-390.png"), ("dark", "studio-390-dark.png")):
        browser.color_scheme(driver, scheme)
        browser.viewport(driver, 390, 844, mobile=True, scale=1)
        driver.get(url)
        browser.wait_for(driver, "document.getElementById('plot').naturalWidth > 0 && !document.getElementById('session').hasAttribute('aria-busy')")
        height = driver.execute_script("return document.documentElement.scrollHeight")
        browser.viewport(driver, 390, height, mobile=True, scale=1)
        driver.execute_async_script("requestAnimationFrame(() => requestAnimationFrame(arguments[0]))")
        save(driver, os.path.join(out, name), full_height=height)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", required=True)
    parser.add_argument("--out", required=True)
    arguments = parser.parse_args()
    url = browser.use_server(arguments.url)
    os.makedirs(arguments.out, exist_ok=True)
    driver = browser.launch()
    browser.sign_in(driver, url)
    try:
        pacer_shots(driver, url, arguments.out)
        studio_shot(driver, url, arguments.out)
        errors = browser.console_errors(driver)
        if errors:
            print(f"console errors: {errors}", file=sys.stderr)
            return 1
    finally:
        driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
