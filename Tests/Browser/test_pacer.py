"""The pacer in a real browser: its state on the audio clock, the picture, the keys, the layout and the schemes."""
import base64
import statistics
import time
import urllib.parse
import urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import browser
from schedule_model import Expected

# Short phases so a few seconds cross many boundaries: a 2 s countdown (ticks), inhale 2, hold 1.5, exhale 2.5,
# hold 1, twice.
SAMPLED = "pattern=2-1.5-2.5-1&cycles=2&countdown=2"
LEVEL_TOLERANCE = 0.03
BOUNDARY_GUARD_SECONDS = 0.05
CLOCK_TOLERANCE = 0.10

SAMPLE_SCRIPT = """
const [milliseconds, done] = arguments;
const samples = [];
const first = performance.now();
function step() {
  samples.push([performance.now(), window.nagi.pacer.state()]);
  if (performance.now() - first < milliseconds) requestAnimationFrame(step); else done(samples);
}
requestAnimationFrame(step);
"""


def open_pacer(context, query, start=False):
    """Loads /pace?query, waits for its schedule, and returns (driver, the describe JSON the server gives)."""
    driver = context.fresh()
    driver.get(f"{context.url}pace?{query}")
    browser.pacer_ready(driver)
    assert driver.execute_script("return window.nagi.pacer.state()") is not None, "the pacer has no schedule"
    describe = browser.get_json(f"{context.url}api/describe?{query}")
    if start:
        browser.start_pacer(driver)
        browser.wait_for(driver, "window.nagi.pacer.state().time > 0.05")
    return driver, describe


def state(driver):
    return driver.execute_script("return window.nagi.pacer.state()")


def press(driver, key):
    ActionChains(driver).send_keys(key).perform()


def check_samples(samples, expected, label):
    """Each sample's phase, kind, level, horizon and word against the schedule at its own time."""
    checked = 0
    for _, s in samples:
        t = s["time"]
        level = expected.level(t)
        assert abs(s["level"] - level) <= LEVEL_TOLERANCE, f"{label}: level {s['level']:.4f} at {t:.3f} s, expected {level:.4f}"
        assert abs(s["horizon"] - (0.65 - 0.30 * s["level"])) < 1e-9, f"{label}: horizon {s['horizon']} for level {s['level']}"
        if expected.near_boundary(t, BOUNDARY_GUARD_SECONDS):
            continue
        index = expected.index(t)
        assert s["phaseIndex"] == index, f"{label}: phase {s['phaseIndex']} at {t:.3f} s, expected {index}"
        assert s["phaseKind"] == expected.kind(t), f"{label}: kind {s['phaseKind']} at {t:.3f} s, expected {expected.kind(t)}"
        assert s["text"] == expected.word(t), f"{label}: word {s['text']!r} at {t:.3f} s, expected {expected.word(t)!r}"
        checked += 1
    return checked


def test_pacer_loads_cleanly(context):
    driver, _ = open_pacer(context, "pattern=box&cycles=1")
    assert driver.find_element(By.ID, "start").is_enabled(), "Start is not enabled"
    assert driver.title.startswith("Box breathing"), f"title {driver.title!r}"
    icon = driver.execute_script("return document.querySelector('link[rel=icon]').href")
    assert icon.endswith("/favicon.svg"), icon
    with urllib.request.urlopen(icon) as response:
        assert b"<svg" in response.read(), "the favicon is not an SVG"
    assert not browser.foreign_resources(driver), browser.foreign_resources(driver)
    browser.assert_no_console_errors(driver)


def test_state_follows_the_schedule(context):
    """Sampled on every frame for 8 s from the start (the countdown and 6 phases), then across the end."""
    driver, describe = open_pacer(context, SAMPLED, start=True)
    expected = Expected(describe)
    samples = driver.execute_async_script(SAMPLE_SCRIPT, 8000)
    checked = check_samples(samples, expected, "from the start")
    assert checked > 8 * browser.frames_per_second(), f"only {checked} samples away from boundaries"
    kinds = {s["phaseKind"] for _, s in samples}
    assert {None, "inhale", "hold", "exhale"} <= kinds, f"the samples met only {kinds}"
    # The audio clock against real time, over the whole run.
    (wall0, first), (wall1, last) = samples[0], samples[-1]
    ratio = (last["time"] - first["time"]) / ((wall1 - wall0) / 1000)
    assert abs(ratio - 1) <= CLOCK_TOLERANCE, f"the audio clock ran at {ratio:.3f} × real time"
    assert last["time"] - first["time"] > 6, f"the audio advanced only {last['time'] - first['time']:.2f} s in 8 s"
    # The picture never stands still while the sound plays: distinct times on nearly every frame.
    distinct = len({s["time"] for _, s in samples})
    assert distinct > 0.8 * len(samples), f"{distinct} distinct times in {len(samples)} frames"
    # Across the end of the breathing into the release: the level stays where the last phase left it.
    end = describe["phases"][-1]["endFrame"] / describe["sampleRate"]
    driver.execute_script("document.getElementById('audio').currentTime = arguments[0]", end - 1.0)
    browser.wait_for(driver, f"window.nagi.pacer.state().time > {end - 0.95}")
    tail = driver.execute_async_script(SAMPLE_SCRIPT, 2000)
    check_samples(tail, expected, "across the end")
    assert any(s["phaseIndex"] == len(describe["phases"]) and s["text"] == "" for _, s in tail), "no sample past the end"
    browser.assert_no_console_errors(driver)


def test_state_follows_other_easings(context):
    """The user presets the launcher made: a Bézier-eased and a linear pattern (describe says which)."""
    names = {p["name"] for p in browser.get_json(f"{context.url}api/presets")["patterns"]}
    for name, easing in (("browser-bezier", "bezier"), ("browser-linear", "linear")):
        assert name in names, f"the server has no user pattern {name} (run through scripts/browser-tests.sh)"
        driver, describe = open_pacer(context, f"pattern={name}&cycles=1", start=True)
        assert describe["easing"] == easing, describe["easing"]
        samples = driver.execute_async_script(SAMPLE_SCRIPT, 3000)
        expected = Expected(describe)
        checked = check_samples(samples, expected, name)
        assert checked > 2.4 * browser.frames_per_second(), f"{name}: only {checked} samples checked"
        # Where this easing and the cosine differ, the page must follow this one, not the default.
        cosine = Expected(dict(describe, easing="cosine"))
        telling = [s for _, s in samples if abs(expected.level(s["time"]) - cosine.level(s["time"])) > 0.02]
        assert len(telling) > 10, f"only {len(telling)} samples where {easing} and cosine differ"
        closer = sum(abs(s["level"] - expected.level(s["time"])) < abs(s["level"] - cosine.level(s["time"])) for s in telling)
        assert closer >= 0.9 * len(telling), f"{name}: only {closer} of {len(telling)} samples follow {easing} rather than cosine"


def horizon_row(png, height_css):
    """The sky-to-water edge's row (CSS px) in a screenshot of the outer columns: median over columns."""
    width, height, rows = browser.decode_png(png)
    scale = height / height_css
    top, bottom = int(0.25 * height), int(0.75 * height)
    edges = []
    strength = []
    for x in range(0, width, 3):
        best, best_y = -1, None
        for y in range(top, bottom - 2):
            a, b = rows[y][x], rows[y + 2][x]
            jump = abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2])
            if jump > best:
                best, best_y = jump, y + 1
        edges.append(best_y)
        strength.append(best)
    return statistics.median(edges) / scale, statistics.median(strength)


def screenshot_strip(driver, x, width, height):
    """A PNG of the page's columns x … x + width, full height, at the page's scale."""
    shot = browser.cdp(driver, "Page.captureScreenshot", {"format": "png", "clip": {
        "x": x, "y": 0, "width": width, "height": height, "scale": 1}})
    return base64.b64decode(shot["data"])


def test_horizon_drawn_where_state_says(context):
    """Paused at three levels (0, about 0.5, 1), the drawn edge between sky and water lies at state().horizon."""
    driver, describe = open_pacer(context, SAMPLED, start=True)
    press(driver, " ")
    browser.wait_for(driver, "document.getElementById('audio').paused")
    rate = describe["sampleRate"]
    inhale = describe["phases"][0]
    hold = describe["phases"][1]
    moments = [inhale["startFrame"] / rate + 0.2, (inhale["startFrame"] + inhale["endFrame"]) / 2 / rate, hold["startFrame"] / rate + 0.5]
    levels = []
    for seconds in moments:
        driver.execute_script("document.getElementById('audio').currentTime = arguments[0]", seconds)
        browser.wait_for(driver, f"Math.abs(window.nagi.pacer.state().time - {seconds}) < 1e-6 && !document.getElementById('audio').seeking")
        time.sleep(0.15)  # a frame or two to draw
        s = state(driver)
        height = driver.execute_script("return document.getElementById('scene').clientHeight")
        measured = []
        for x in (0, 820):  # the outer columns, clear of the word
            row, strength = horizon_row(screenshot_strip(driver, x, 180, height), height)
            assert strength > 40, f"no clear edge between sky and water (strength {strength})"
            measured.append(row)
        drawn = statistics.mean(measured)
        wanted = s["horizon"] * height
        assert abs(drawn - wanted) <= 6, f"at level {s['level']:.3f} the horizon is drawn at {drawn:.1f} px, state says {wanted:.1f} px"
        levels.append(s["level"])
    assert levels[0] < 0.05 and 0.3 < levels[1] < 0.7 and levels[2] > 0.95, f"levels {levels}"
    browser.assert_no_console_errors(driver)


def test_keys_pause_skip_and_volume(context):
    driver, describe = open_pacer(context, SAMPLED, start=True)
    rate = describe["sampleRate"]
    starts = [p["startFrame"] / rate for p in describe["phases"]]
    browser.wait_for(driver, f"window.nagi.pacer.state().time > {starts[0] + 0.3}")
    # Space pauses: the audio clock stops and the state with it.
    press(driver, " ")
    browser.wait_for(driver, "document.getElementById('audio').paused", timeout=2)
    before = state(driver)
    time.sleep(0.6)
    after = state(driver)
    assert after["time"] == before["time"], f"paused, yet the time moved {before['time']} → {after['time']}"
    # → lands on the next phase's start, exactly.
    index = before["phaseIndex"]
    press(driver, Keys.ARROW_RIGHT)
    browser.wait_for(driver, "!document.getElementById('audio').seeking")
    s = state(driver)
    assert s["phaseIndex"] == index + 1, f"→ from phase {index} went to {s['phaseIndex']}"
    assert abs(s["time"] - starts[index + 1]) < 0.001, f"→ landed at {s['time']}, the phase starts at {starts[index + 1]}"
    # The on-screen button does the same.
    driver.find_element(By.ID, "next").click()
    s = state(driver)
    assert s["phaseIndex"] == index + 2 and abs(s["time"] - starts[index + 2]) < 0.001, f"the next button: {s}"
    # ← at a phase's start goes to the one before.
    press(driver, Keys.ARROW_LEFT)
    s = state(driver)
    assert s["phaseIndex"] == index + 1 and abs(s["time"] - starts[index + 1]) < 0.001, f"←: {s}"
    # ↓ and ↑: 2 dB steps, no louder than the render.
    press(driver, Keys.ARROW_DOWN)
    volume = driver.execute_script("return document.getElementById('audio').volume")
    assert abs(volume - 10 ** (-2 / 20)) < 1e-6, f"volume after ↓: {volume}"
    press(driver, Keys.ARROW_UP)
    press(driver, Keys.ARROW_UP)
    volume = driver.execute_script("return document.getElementById('audio').volume")
    assert volume == 1, f"volume after ↓↑↑: {volume}"
    # Space resumes from where it was.
    press(driver, " ")
    browser.wait_for(driver, "!document.getElementById('audio').paused")
    browser.wait_for(driver, f"window.nagi.pacer.state().time > {starts[index + 1] + 0.3}")
    # Esc stops and goes back to the start.
    press(driver, Keys.ESCAPE)
    browser.wait_for(driver, "document.getElementById('audio').paused")
    s = state(driver)
    assert s["time"] == 0 and driver.find_element(By.ID, "start").is_displayed(), f"after Esc: {s}"
    browser.assert_no_console_errors(driver)


def test_pacer_on_a_phone(context):
    """390 × 844: nothing wider than the screen, thumb-sized buttons, each with a name, reachable by Tab."""
    driver = context.fresh()
    browser.viewport(driver, 390, 844, mobile=True)
    driver.get(f"{context.url}pace?pattern=box&cycles=1")
    browser.pacer_ready(driver)
    overflow = driver.execute_script("return document.documentElement.scrollWidth")
    assert overflow <= 390, f"the page is {overflow} px wide at 390"
    buttons = driver.execute_script("""
      return [...document.querySelectorAll('.controls button')].map(b => {
        const r = b.getBoundingClientRect();
        return [b.id, r.width, r.height, r.right, b.getAttribute('aria-label') || b.textContent.trim()];
      })""")
    assert len(buttons) == 6, buttons
    for name, width, height, right, label in buttons:
        assert width >= 48 and height >= 48, f"{name} is {width} × {height} px"
        assert right <= 390, f"{name} reaches {right} px"
        assert label, f"{name} has no name"
    driver.find_element(By.ID, "start").click()
    browser.wait_for(driver, "window.nagi.pacer.state().time > 0.1")
    reached = set()
    for _ in range(12):
        press(driver, Keys.TAB)
        reached.add(driver.execute_script("return document.activeElement.id"))
    assert {"previous", "quieter", "toggle", "louder", "next", "stop"} <= reached, f"Tab reached only {reached}"
    browser.assert_no_console_errors(driver)


def sky_brightness(driver):
    """The mean brightness (0–255) of the sky between the bar and the horizon, in the left columns."""
    height = driver.execute_script("return document.getElementById('scene').clientHeight")
    _, h, rows = browser.decode_png(screenshot_strip(driver, 0, 60, height))
    band = rows[int(0.15 * h):int(0.3 * h)]
    return statistics.mean(sum(p) / 3 for row in band for p in row)


def test_pacer_dark_scheme(context):
    """The emulated dark scheme darkens the sky, live, at the same instant of the session."""
    driver, _ = open_pacer(context, "pattern=box&cycles=1")
    browser.color_scheme(driver, "light")
    time.sleep(0.3)
    light = sky_brightness(driver)
    browser.color_scheme(driver, "dark")
    time.sleep(0.3)
    dark = sky_brightness(driver)
    assert dark < 0.6 * light, f"the sky is {dark:.0f} in the dark scheme, {light:.0f} in the light"
    browser.assert_no_console_errors(driver)


def test_course_lesson_in_the_pacer(context):
    """/pace?course=…&lesson=… takes the lesson's sound and schedule from the course."""
    course = browser.get_json(f"{context.url}api/courses/beginner-21")
    lesson = course["lessons"][0]
    driver = context.fresh()
    driver.get(context.url + lesson["pace"].lstrip("/"))
    browser.pacer_ready(driver)
    describe = browser.get_json(context.url + lesson["describe"].lstrip("/"))
    s = state(driver)
    assert s is not None and s["phaseKind"] == "inhale" and s["text"] == Expected(describe).word(0), f"{s}"
    source = driver.execute_script("return document.getElementById('audio').src")
    assert urllib.parse.urlsplit(source).path == lesson["render"] + ".wav", source
    shown = driver.execute_script("return document.getElementById('title').innerText")
    assert lesson["title"] in shown, f"the title shows {shown!r}, not {lesson['title']!r}"
    browser.assert_no_console_errors(driver)


TESTS = [
    test_pacer_loads_cleanly,
    test_state_follows_the_schedule,
    test_state_follows_other_easings,
    test_horizon_drawn_where_state_says,
    test_keys_pause_skip_and_volume,
    test_pacer_on_a_phone,
    test_pacer_dark_scheme,
    test_course_lesson_in_the_pacer,
]
