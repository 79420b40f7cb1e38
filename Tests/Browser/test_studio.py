"""The studio in a real browser: the plan as you type, errors in the CLI's words, downloads equal to `nagi render`,
courses, the heart-rhythm report, the phone layout and the dark scheme."""
import json
import math
import os
import random
import subprocess
import tempfile
import time
import urllib.request
import wave

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

import browser


def open_studio(context):
    driver = context.fresh()
    driver.get(context.url)
    wait_for_plan(driver)
    return driver


def wait_for_plan(driver, containing=""):
    """Waits until the plan shows a summary (containing `containing`) and a loaded plot."""
    browser.wait_for(driver, "document.getElementById('plan-summary').textContent.includes('breathing') && "
                             f"document.getElementById('plan-summary').textContent.includes({containing!r}) && "
                             "!document.getElementById('plot').hidden && document.getElementById('plot').complete && "
                             "document.getElementById('plot').naturalWidth > 0 && "
                             "!document.getElementById('session').hasAttribute('aria-busy')")


def type_into(driver, element_id, text):
    field = driver.find_element(By.ID, element_id)
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(Keys.DELETE)
    if text:
        field.send_keys(text)


def choose(driver, element_id, value):
    Select(driver.find_element(By.ID, element_id)).select_by_value(value)


def cli_error(context, *arguments):
    """The one line the command line prints for `arguments`, without 'nagi: error: '."""
    result = subprocess.run([context.nagi, *arguments], capture_output=True, text=True)
    assert result.returncode != 0, f"nagi {' '.join(arguments)} succeeded"
    line = result.stderr.strip().splitlines()[-1]
    return line.removeprefix("nagi: error: ")


UNLABELLED = """
return [...document.querySelectorAll('input, select, textarea, button, a[href]')]
  .filter(e => e.offsetParent !== null || e.type === 'file')
  .filter(e => {
    if (e.matches('input, select, textarea')) return e.labels.length === 0 && !e.getAttribute('aria-label');
    return !(e.getAttribute('aria-label') || e.textContent.trim());
  })
  .map(e => e.outerHTML.slice(0, 80));
"""


def test_studio_loads_cleanly(context):
    driver = open_studio(context)
    assert driver.title == "nagi studio", driver.title
    assert not browser.foreign_resources(driver), browser.foreign_resources(driver)
    options = driver.execute_script("return [...document.querySelectorAll('#soundscape option')].map(o => o.value)")
    assert {"horizon", "night", "dusk", "rain", "auto"} <= set(options), f"soundscapes offered: {options}"
    patterns = driver.execute_script("return [...document.querySelectorAll('#pattern-names option')].map(o => o.value)")
    assert "4-7-8" in patterns and "wim-hof" in patterns, patterns
    driver.find_element(By.CSS_SELECTOR, "details.more summary").click()
    assert not driver.execute_script(UNLABELLED), f"controls without a name: {driver.execute_script(UNLABELLED)}"
    browser.assert_no_console_errors(driver)


def test_plan_follows_typing_and_errors_stand_beside_their_field(context):
    driver = open_studio(context)
    first = driver.find_element(By.ID, "plot").get_attribute("src")
    type_into(driver, "pattern", "box")
    wait_for_plan(driver, "Box breathing")
    assert driver.find_element(By.ID, "plot").get_attribute("src") != first, "the plot did not change"
    pacer = driver.find_element(By.ID, "open-pacer").get_attribute("href")
    assert pacer.endswith("/pace?pattern=box"), pacer
    # A refused value: the CLI's own line, beside the field at fault.
    driver.find_element(By.CSS_SELECTOR, "input[name=mode][value=bpm]").click()
    type_into(driver, "bpm", "99")
    wanted = cli_error(context, "describe", "--bpm", "99", "--json")
    browser.wait_for(driver, "document.getElementById('bpm-error').textContent")
    shown = driver.find_element(By.ID, "bpm-error").text
    assert shown == wanted, f"beside bpm: {shown!r}, the CLI says {wanted!r}"
    assert driver.find_element(By.ID, "bpm").get_attribute("aria-invalid") == "true"
    assert driver.find_element(By.ID, "download").get_attribute("aria-disabled") == "true", "a refused session can be downloaded"
    type_into(driver, "bpm", "6")
    type_into(driver, "ratio", "4:x")
    wanted = cli_error(context, "describe", "--bpm", "6", "--ratio", "4:x", "--json")
    browser.wait_for(driver, "document.getElementById('ratio-error').textContent")
    assert driver.find_element(By.ID, "ratio-error").text == wanted
    assert driver.find_element(By.ID, "bpm-error").text == "", "the mended field still shows its error"
    type_into(driver, "ratio", "2:3")
    wait_for_plan(driver, "6 breaths a minute")
    assert driver.find_element(By.ID, "ratio-error").text == ""
    browser.assert_no_console_errors(driver, refused=("/api/describe?", "/api/plot.svg?"))


def wait_for_download(folder, suffix, timeout=90):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done = [n for n in os.listdir(folder) if n.endswith(suffix)]
        if done and not any(n.endswith(".crdownload") for n in os.listdir(folder)):
            return os.path.join(folder, done[0])
        time.sleep(0.2)
    raise AssertionError(f"no {suffix} download in {timeout} s: {os.listdir(folder)}")


def decoded(path):
    """The samples of an audio file as raw 32-bit little-endian signed integers (sox), with its rate and channels."""
    info = subprocess.run(["sox", "--i", "-r", path], capture_output=True, text=True, check=True).stdout.strip()
    channels = subprocess.run(["sox", "--i", "-c", path], capture_output=True, text=True, check=True).stdout.strip()
    raw = subprocess.run(["sox", path, "-t", "raw", "-e", "signed", "-b", "32", "-"], capture_output=True, check=True).stdout
    return info, channels, raw


def test_download_equals_render(context):
    """The studio's WAV and FLAC downloads hold the samples `nagi render` writes for the same choices."""
    choices = ["box", "--cycles", "1", "--soundscape", "dusk", "--cues", "both", "--count", "ticks", "--countdown", "3", "--end-bell"]
    driver = open_studio(context)
    browser.cdp(driver, "Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": context.downloads})
    os.makedirs(context.downloads, exist_ok=True)
    for name in os.listdir(context.downloads):
        os.remove(os.path.join(context.downloads, name))
    type_into(driver, "pattern", "box")
    choose(driver, "length-kind", "cycles")
    type_into(driver, "length", "1")
    choose(driver, "soundscape", "dusk")
    choose(driver, "cues", "both")
    choose(driver, "count", "ticks")
    type_into(driver, "countdown", "3")
    driver.find_element(By.ID, "end-bell").click()
    wait_for_plan(driver, "countdown")
    for format in ("wav", "flac"):
        choose(driver, "format", format)
        link = driver.find_element(By.ID, "download")
        href = link.get_attribute("href")
        assert f"/api/render.{format}?" in href and "download=1" in href, href
        link.click()
        downloaded = wait_for_download(context.downloads, "." + format)
        reference = os.path.join(context.scratch, f"reference.{format}")
        subprocess.run([context.nagi, "render", *choices, "-o", reference, "--force", "--quiet"], check=True)
        if format == "wav":
            with wave.open(downloaded) as a, wave.open(reference) as b:
                assert a.getparams()[:3] == b.getparams()[:3], f"{a.getparams()} vs {b.getparams()}"
                assert a.getnframes() == b.getnframes(), f"{a.getnframes()} frames downloaded, {b.getnframes()} rendered"
                assert a.readframes(a.getnframes()) == b.readframes(b.getnframes()), "the WAV samples differ"
        got, want = decoded(downloaded), decoded(reference)
        assert got[:2] == want[:2], f"{format}: {got[:2]} vs {want[:2]}"
        assert len(got[2]) > 1_000_000 and got[2] == want[2], f"{format}: the decoded samples differ"
        os.remove(downloaded)
    browser.assert_no_console_errors(driver)


def test_courses_in_the_studio(context):
    driver = open_studio(context)
    choose(driver, "course", "beginner-21")
    browser.wait_for(driver, "document.querySelectorAll('#lessons li').length === 21")
    first = driver.find_elements(By.CSS_SELECTOR, "#lessons li")[0]
    links = [a.get_attribute("href") for a in first.find_elements(By.TAG_NAME, "a")]
    assert links[0].endswith("/pace?course=beginner-21&lesson=1"), links
    assert links[1].endswith("/api/courses/beginner-21/lessons/1.flac?download=1"), links
    choose(driver, "course-format", "mp3")
    assert first.find_elements(By.TAG_NAME, "a")[1].get_attribute("href").endswith("/lessons/1.mp3?download=1")
    album = driver.find_element(By.ID, "album").get_attribute("href")
    assert album.endswith("/api/courses/beginner-21/album.zip?format=mp3"), album
    # Every link the course shows answers 200 (HEAD: the headers a download would have, nothing rendered).
    shown = [a.get_attribute("href") for li in driver.find_elements(By.CSS_SELECTOR, "#lessons li") for a in li.find_elements(By.TAG_NAME, "a")]
    for link in shown + [album]:
        with urllib.request.urlopen(urllib.request.Request(link, method="HEAD"), timeout=60) as response:
            assert response.status == 200, (link, response.status)
    browser.assert_no_console_errors(driver)


def rr_record(path):
    """About 10 minutes of RR intervals from a heart that swings most at 5.5 breaths a minute (resonance-steps)."""
    rng = random.Random(3)
    swing = [(6.5, 4), (6.0, 6), (5.5, 10), (5.0, 7), (4.5, 5)]
    t = phase = 0.0
    lines = []
    while t < 610:
        rate, amplitude = swing[min(int(t // 120), 4)]
        heart_rate = 64 + amplitude * math.sin(phase) + rng.gauss(0, 0.5)
        interval = 60 / heart_rate
        lines.append(str(round(interval * 1000)))
        t += interval
        phase += 2 * math.pi * rate / 60 * interval
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def test_heart_rhythm_report(context):
    record = os.path.join(context.scratch, "rr.txt")
    rr_record(record)
    cli = json.loads(subprocess.run([context.nagi, "resonance", "analyze", record, "--json"], capture_output=True, check=True).stdout)
    driver = open_studio(context)
    driver.find_element(By.ID, "record").send_keys(record)
    driver.find_element(By.ID, "analyse").click()
    browser.wait_for(driver, "document.querySelector('#report .verdict') && document.getElementById('resonance-plot').naturalWidth > 0", timeout=60)
    verdict = driver.find_element(By.CSS_SELECTOR, "#report .verdict").text
    assert cli["best"]["verdict"] in verdict, f"{verdict!r} does not say {cli['best']['verdict']!r}"
    rows = driver.find_elements(By.CSS_SELECTOR, "#report tbody tr")
    assert [r.find_element(By.TAG_NAME, "th").text for r in rows] == [s["label"] for s in cli["steps"]]
    best = driver.find_element(By.CSS_SELECTOR, "#report tr.best th").text
    assert best == cli["best"]["label"], best
    # A refused record: the server's line beside the file field.
    empty = os.path.join(context.scratch, "empty.txt")
    with open(empty, "w") as f:
        f.write("# nothing\n")
    wanted = cli_error(context, "resonance", "analyze", empty, "--json")
    driver.find_element(By.ID, "record").send_keys(empty)
    driver.find_element(By.ID, "analyse").click()
    browser.wait_for(driver, "document.getElementById('record-error').textContent", timeout=30)
    # The line names the file first; the server's upload has a name of its own, so compare what follows it.
    shown = driver.find_element(By.ID, "record-error").text
    assert shown.partition(": ")[2] == wanted.partition(": ")[2], f"beside the record: {shown!r}, the CLI says {wanted!r}"
    browser.assert_no_console_errors(driver, refused=("/api/resonance?", "/api/resonance/plot.svg?"))


def test_studio_on_a_phone(context):
    """390 px: nothing scrolls sideways, with every part open (more options, a course, a report)."""
    driver = context.fresh()
    browser.viewport(driver, 390, 844, mobile=True)
    driver.get(context.url)
    wait_for_plan(driver)
    driver.find_element(By.CSS_SELECTOR, "details.more summary").click()
    choose(driver, "course", "beginner-21")
    browser.wait_for(driver, "document.querySelectorAll('#lessons li').length === 21")
    width = driver.execute_script("return document.documentElement.scrollWidth")
    assert width <= 390, f"the studio is {width} px wide at 390"
    wide = driver.execute_script("""
      return [...document.querySelectorAll('body *')].filter(e => e.offsetParent !== null && !e.closest('.table-scroll, .plot-scroll'))
        .filter(e => e.getBoundingClientRect().right > innerWidth + 0.5).map(e => e.tagName + '#' + e.id)""")
    assert not wide, f"past the right edge: {wide}"
    small = driver.execute_script("""
      return [...document.querySelectorAll('input:not([type=checkbox]):not([type=radio]), select, button, a.button')]
        .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 40).map(e => e.id)""")
    assert not small, f"too small for a finger: {small}"
    browser.assert_no_console_errors(driver)


def test_studio_keyboard(context):
    """Every control is reached by Tab alone, in order."""
    driver = open_studio(context)
    driver.find_element(By.CSS_SELECTOR, "details.more summary").click()
    wanted = set(driver.execute_script("""
      return [...document.querySelectorAll('#session input, #session select, #open-pacer, #download, #format, #course')]
        .filter(e => e.offsetParent !== null && !e.disabled && !(e.type === 'radio' && !e.checked)).map(e => e.id)"""))
    driver.find_element(By.TAG_NAME, "body").click()
    reached = set()
    for _ in range(60):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        reached.add(driver.execute_script("return document.activeElement.id"))
    assert wanted <= reached, f"Tab never reached {wanted - reached}"
    browser.assert_no_console_errors(driver)


def luminance(css):
    parts = [float(x) for x in css[css.index("(") + 1:css.index(")")].split(",")[:3]]
    return sum(parts) / 765


def test_studio_dark_scheme(context):
    driver = open_studio(context)
    browser.color_scheme(driver, "light")
    light = driver.execute_script("return [getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]")
    browser.color_scheme(driver, "dark")
    dark = driver.execute_script("return [getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]")
    assert luminance(light[0]) > 0.85 and luminance(light[1]) < 0.3, f"light: {light}"
    assert luminance(dark[0]) < 0.15 and luminance(dark[1]) > 0.7, f"dark: {dark}"
    browser.assert_no_console_errors(driver)


def test_studio_join(context):
    """Beyond loopback the studio shows another device's way in: the addresses nagi serve printed and their QR code
    (with the authority's guide only over HTTPS); on loopback the card stays hidden."""
    driver = open_studio(context)
    assert driver.execute_script("return document.getElementById('join').hidden"), "the join card shows on loopback"
    home = tempfile.mkdtemp(dir=context.scratch)
    environment = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": home, "XDG_CONFIG_HOME": f"{home}/config",
                   "XDG_STATE_HOME": f"{home}/state", "TMPDIR": home}
    # Plain HTTP beyond loopback, reached through 127.0.0.1 (the browser trusts no local authority).
    server = subprocess.Popen([context.nagi, "serve", "--listen", "0.0.0.0:0", "--no-tls", "--no-qr"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=environment)
    try:
        line = ""
        while "serving on" not in line:
            line = server.stderr.readline()
            assert line, "nagi serve ended without serving"
        urls = line.split("serving on ", 1)[1].split("; Ctrl-C")[0].split(", ")
        port = urls[0].split("://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1]
        token = urls[0].split("?token=", 1)[1]
        driver.get(f"http://127.0.0.1:{port}/?token={token}")
        browser.wait_for(driver, "!document.getElementById('join').hidden && document.getElementById('join-code').complete && "
                                 "document.getElementById('join-code').naturalWidth > 0")
        shown = driver.execute_script("return [...document.querySelectorAll('#join-urls code')].map(c => c.textContent)")
        assert shown == urls, f"the studio shows {shown}, nagi serve printed {urls}"
        assert driver.execute_script("return document.getElementById('join-authority').hidden"), "an authority's guide over plain HTTP"
        browser.assert_no_console_errors(driver)
    finally:
        server.terminate()
        server.wait(timeout=10)


TESTS = [
    test_studio_loads_cleanly,
    test_studio_join,
    test_plan_follows_typing_and_errors_stand_beside_their_field,
    test_download_equals_render,
    test_courses_in_the_studio,
    test_heart_rhythm_report,
    test_studio_on_a_phone,
    test_studio_keyboard,
    test_studio_dark_scheme,
]
