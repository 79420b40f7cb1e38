"""The browser through selenium — headless Chromium, or WebKitGTK under xvfb-run (ENGINE) — and what the tests need
around it: the console, emulation, screenshots, the pacer's start. What WebKitGTK's driver cannot do (Chrome's
DevTools protocol: media emulation, screenshots of a clip, the console's log) raises Unsupported, and the test is
reported as skipped in WebKit with that reason."""
import json
import os
import re
import struct
import time
import urllib.parse
import urllib.request
import zlib

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.common.exceptions import JavascriptException

CHROMIUM = os.environ.get("NAGI_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("NAGI_CHROMEDRIVER", "/usr/bin/chromedriver")
# "chromium" or "webkit"; run.py sets it from --browser.
ENGINE = "chromium"


def frames_per_second():
    """The fewest animation frames a second a test may count on: Chromium draws at 60 (25 asked, for a busy
    machine); WebKitGTK under xvfb composites in software at about 14 on a quiet machine and 10 at a load of 11 (5
    asked)."""
    return 25 if ENGINE == "chromium" else 5


class Unsupported(Exception):
    """What a test needs that the browser's driver does not offer (run.py reports the test as skipped)."""


def cdp(driver, command, parameters):
    """A command of Chrome's DevTools protocol; Unsupported in WebKit."""
    if ENGINE != "chromium":
        raise Unsupported(f"Chrome DevTools' {command}")
    return driver.execute_cdp_cmd(command, parameters)


def pacer_ready(driver):
    """Waits for the pacer's schedule (WebKit's get() returns before module scripts have run)."""
    wait_for(driver, "window.nagi && window.nagi.pacer")
    driver.execute_async_script("window.nagi.pacer.ready.then(() => arguments[0]())")


def player_state(driver):
    """What the pacer's audio element and words say, for a failure's message: the status and stall lines, the clock,
    the element's states, how far it has the sound, and whether a service worker controls the page."""
    return driver.execute_script(
        "const a = document.getElementById('audio'); const b = a.buffered; "
        "return {status: document.getElementById('status').textContent, stall: document.getElementById('stall-panel').hidden ? null : "
        "document.getElementById('stall-words').textContent, time: a.currentTime, duration: a.duration, ended: a.ended, "
        "paused: a.paused, rate: a.playbackRate, readyState: a.readyState, networkState: a.networkState, error: a.error && a.error.code, "
        "buffered: b.length ? b.end(b.length - 1) : 0, controlled: !!(navigator.serviceWorker && navigator.serviceWorker.controller)}")


def start_pacer(driver):
    """Starts the pacer: window.nagi.pacer.start() in Chromium (which plays without a gesture here); in WebKit,
    which asks for a gesture, a click on the visible Start, as a person would."""
    if ENGINE == "chromium":
        driver.execute_script("window.nagi.pacer.start()")
    else:
        try:
            wait_for(driver, "!document.getElementById('start').disabled && document.getElementById('start').offsetParent !== null", timeout=20)
        except AssertionError:
            raise AssertionError("no Start to click: " + repr(driver.execute_script(
                "const a = document.getElementById('audio'); return [document.getElementById('problem').textContent, "
                "a.error && a.error.code, a.error && a.error.message, a.readyState, a.networkState]")))
        driver.find_element(By.ID, "start").click()


def launch(download_folder=None, autoplay_needs_gesture=False):
    """A headless Chromium that plays audio without a gesture (unless `autoplay_needs_gesture`: a browser's own
    policy, that refuses play() before the person has touched the page) and keeps every console message; or
    WebKitGTK (which always asks for a gesture) in a 1000 × 800 window of the X server xvfb-run gives."""
    if ENGINE == "webkit":
        driver = webdriver.WebKitGTK(options=webdriver.WebKitGTKOptions())
        driver.set_window_size(1000, 800)
        driver.set_script_timeout(90)
        driver.set_page_load_timeout(60)
        return driver
    options = Options()
    policy = "document-user-activation-required" if autoplay_needs_gesture else "no-user-gesture-required"
    for argument in ("--headless=new", "--no-sandbox", f"--autoplay-policy={policy}",
                     "--disable-gpu", "--disable-dev-shm-usage", "--mute-audio", "--window-size=1000,800"):
        options.add_argument(argument)
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    if download_folder:
        options.add_experimental_option("prefs", {"download.default_directory": download_folder,
                                                  "download.prompt_for_download": False})
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    driver.set_script_timeout(90)
    driver.set_page_load_timeout(60)
    return driver


def viewport(driver, width, height, mobile=False, scale=1):
    """Sets the page's viewport exactly (CSS px) and its device pixel ratio; in WebKit, the window's inner size."""
    if ENGINE == "webkit":
        driver.set_window_size(width, height)
        extra = driver.execute_script("return [outerWidth - innerWidth, outerHeight - innerHeight]")
        driver.set_window_size(width + extra[0], height + extra[1])
        inner = driver.execute_script("return innerWidth")
        if inner != width:
            raise Unsupported(f"window {width} px wide (its narrowest is {inner} px)")
        return
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile})


def color_scheme(driver, scheme, reduced_motion=""):
    """Emulates prefers-color-scheme ("light", "dark" or "" for the default) and prefers-reduced-motion."""
    if ENGINE == "webkit":
        if scheme or reduced_motion:
            raise Unsupported("emulating prefers-color-scheme")
        return
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
        {"name": "prefers-color-scheme", "value": scheme},
        {"name": "prefers-reduced-motion", "value": reduced_motion}]})


def console_errors(driver):
    """The console's errors since the last call (uncaught exceptions, failed loads, console.error); WebKitGTK's
    driver gives no log, so there the check is Chromium's alone."""
    if ENGINE == "webkit":
        return []
    return [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]


def assert_no_console_errors(driver, refused=()):
    """Fails on any console error; `refused` lists API paths whose 4xx answers the test provoked on purpose (the
    browser logs every refused request, and the studio asks the server to judge what is typed)."""
    errors = console_errors(driver)
    unexpected = [e for e in errors if not (e.get("source") == "network" and any(path in e["message"] for path in refused)
                                            and re.search(r"status of 4\d\d", e["message"]))]
    assert not unexpected, f"console errors: {unexpected}"


def foreign_resources(driver):
    """Resources the page loaded from anywhere but its own server."""
    return driver.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)"
        ".filter(n => !n.startsWith(location.origin + '/') && !n.startsWith('blob:' + location.origin) && !n.startsWith('data:'))")


def wait_for(driver, script, timeout=30, interval=0.1):
    """Runs `script` (a JS expression) until it is truthy; returns its value or raises. A script that throws counts as
    not yet (a page still loading after a navigation has not its elements yet; WebKit answers before it has)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = driver.execute_script(f"return ({script})")
        except JavascriptException as error:
            value, last_error = None, error
        else:
            last_error = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {script}" + (f" ({last_error.msg})" if last_error else ""))
        time.sleep(interval)


TOKEN = None


def use_server(url):
    """The server's base URL ("http://HOST:PORT/") from the URL nagi serve printed; the token it carries (nagi serve
    prints one on loopback too) is kept, and every urllib request from here on sends it as a Bearer header."""
    global TOKEN
    parts = urllib.parse.urlsplit(url)
    TOKEN = urllib.parse.parse_qs(parts.query).get("token", [None])[0]
    if TOKEN:
        opener = urllib.request.build_opener()
        opener.addheaders = [("Authorization", f"Bearer {TOKEN}")]
        urllib.request.install_opener(opener)
    return f"{parts.scheme}://{parts.netloc}/"


def sign_in(driver, base):
    """Opens the printed URL once, as a person does, so the browser keeps the token's cookie for every later page."""
    if TOKEN:
        driver.get(f"{base}?token={TOKEN}")


def get_json(url):
    with urllib.request.urlopen(url, timeout=60) as response:
        return json.load(response)


def decode_png(data):
    """(width, height, rows) of an 8-bit RGB or RGBA PNG, rows as lists of (r, g, b) tuples."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position = 8
    chunks = []
    width = height = None
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        position += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, f"unsupported PNG {depth} {colour} {interlace}"
            channels = 4 if colour == 6 else 3
        elif kind == b"IDAT":
            chunks.append(body)
        elif kind == b"IEND":
            break
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    previous = bytearray(stride)
    rows = []
    offset = 0
    for _ in range(height):
        kind = raw[offset]
        line = bytearray(raw[offset + 1:offset + 1 + stride])
        offset += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                estimate = left + up - corner
                pa, pb, pc = abs(estimate - left), abs(estimate - up), abs(estimate - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return width, height, rows
