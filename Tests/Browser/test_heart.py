"""The live heart on the pacer: 0x2A37 payloads fed through window.nagi.heart.receive() at the real pace, every
flag combination, with a loss of contact; state() against what was fed; record() read back by `nagi resonance
analyze` and sent to POST /api/resonance from the page; the message where Web Bluetooth is missing."""
import json
import math
import os
import subprocess

from selenium.webdriver.common.by import By

import browser

PAGE = "pace?pattern=box&cycles=1"
FEED_SECONDS = 62
LOSS = (30.0, 35.0)  # seconds into the feed with no payloads: the strap lost contact; its beats are lost

FEED_SCRIPT = """
const [plan, done] = arguments;
const first = performance.now();
const clock = Date.now();
let next = 0;
// Each payload goes when its time comes, stamped with that time: a timer late on a busy machine must not look
// like a loss of contact.
function send() {
  const now = performance.now() - first;
  while (next < plan.length && plan[next][0] <= now) {
    window.nagi.heart.receive(plan[next][1], clock + plan[next][0]);
    next += 1;
  }
  if (next < plan.length) setTimeout(send, Math.max(0, plan[next][0] - (performance.now() - first)));
  else done(window.nagi.heart.state());
}
send();
"""


def intervals_1024():
    """Beats of a heart swinging 66 ± 8 bpm at 6 breaths a minute, in 1/1024 s, for FEED_SECONDS."""
    beats, elapsed = [], 0.0
    while elapsed < FEED_SECONDS:
        rate = 66 + 8 * math.sin(2 * math.pi * 0.1 * elapsed)
        value = round(60 / rate * 1024)
        elapsed += value / 1024
        beats.append((elapsed, value))
    return beats


def payload(flags, heart_rate, energy, intervals):
    """One Heart Rate Measurement: flags, 8- or 16-bit heart rate, energy expended if flagged, RR intervals."""
    data = [flags]
    data += [heart_rate & 0xFF, heart_rate >> 8] if flags & 0x01 else [heart_rate]
    if flags & 0x08:
        data += [energy & 0xFF, energy >> 8]
    if flags & 0x10:
        for value in intervals:
            data += [value & 0xFF, value >> 8]
    return data


def feed_plan():
    """Packets about once a second, each sent when its last beat has ended; the flags run through all 32 values of
    bits 0-4 (heart rate width, contact detected, contact supported, energy expended, RR present) in turn. A
    packet without RR holds its beats back to the next one, as straps do; beats ending in LOSS are never sent."""
    plan, pending, delivered, combination, last_sent = [], [], [], 0, 0.0
    beats = intervals_1024()
    for index, (end, value) in enumerate(beats):
        if LOSS[0] <= end < LOSS[1]:
            pending = []
            continue
        pending.append(value)
        last = index == len(beats) - 1
        if end - last_sent >= 1.0 or last:
            flags = combination % 32
            if last:
                flags |= 0x10
            combination += 1
            heart_rate = round(60 * 1024 / value)
            plan.append([round(end * 1000) + 40, payload(flags, heart_rate, 1000 + combination, pending), heart_rate])
            if flags & 0x10:
                delivered += pending
                pending = []
            last_sent = end
    return plan, delivered


def test_heart_payloads_state_and_record(context):
    driver = context.fresh()
    driver.get(f"{context.url}{PAGE}")
    browser.pacer_ready(driver)
    assert driver.execute_script("return window.nagi.heart.state()") == {
        "connected": False, "heartRate": None, "beats": 0, "lastIntervalMs": None, "gaps": 0}
    plan, delivered = feed_plan()
    flags_seen = {packet[1][0] & 0x1F for packet in plan}
    assert flags_seen == set(range(32)), f"flag combinations fed: {sorted(flags_seen)}"
    driver.set_script_timeout(FEED_SECONDS + 60)
    state = driver.execute_async_script(FEED_SCRIPT, [[p[0], p[1]] for p in plan])
    assert state["beats"] == len(delivered), f"{state['beats']} beats kept, {len(delivered)} fed"
    assert state["heartRate"] == plan[-1][2], f"heart rate {state['heartRate']}, last fed {plan[-1][2]}"
    assert abs(state["lastIntervalMs"] - delivered[-1] * 1000 / 1024) < 1e-9, state
    assert state["gaps"] == 1, f"{state['gaps']} losses of contact for the one made"
    assert state["connected"] is False
    shown = driver.find_element(By.ID, "heart-rate").text
    assert shown == str(plan[-1][2]), f"the page shows {shown!r} bpm"
    swing = float(driver.find_element(By.ID, "heart-swing").text)
    assert 8 <= swing <= 20, f"the page shows a swing of {swing} bpm for a 16 bpm one"

    record = driver.execute_script("return window.nagi.heart.record()")
    path = os.path.join(context.scratch, "live-record.txt")
    with open(path, "w") as handle:
        handle.write(record)
    rows = [line.split(";") for line in record.splitlines()[2:]]
    assert [round(float(rr) * 1024 / 1000) for _, rr in rows] == delivered, "the record's intervals are not those fed"
    result = subprocess.run([context.nagi, "resonance", "analyze", path, "box", "--cycles", "1", "--start", "0", "--json"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["beats"] == len(delivered), f"analyze read {report['beats']} beats of {len(delivered)}"
    assert report["artefacts"] == 0, f"{report['artefacts']} artefacts in a clean record"
    gap_notes = [note for note in report["notes"] if "gap in the record" in note]
    assert len(gap_notes) == 1 and gap_notes[0].startswith("1 gap in the record where beats were lost"), report["notes"]
    lost = float(gap_notes[0].split("(")[1].split(" s")[0])
    assert 4.0 <= lost <= 6.5, f"a loss of 5 s recorded as {lost} s: {gap_notes[0]}"
    assert abs(report["recordSeconds"] - FEED_SECONDS) < 3, report["recordSeconds"]

    # The page sends its record to POST /api/resonance (its own origin, the session cookie) and reads the answer.
    start = driver.execute_script("return Date.parse(window.nagi.heart.record().split('\\n')[2].split(';')[0]) - 800")
    answer = driver.execute_async_script(
        "window.nagi.heart.analyze(arguments[0]).then(arguments[1], (e) => arguments[1]({error: String(e.message)}))", start)
    assert "error" not in answer, answer
    assert answer["beats"] == len(delivered) and answer["pattern"] == "box", answer
    assert any("gap in the record" in note for note in answer["notes"]), answer["notes"]
    browser.assert_no_console_errors(driver)


def test_heart_measurement_layouts(context):
    """Each layout of 0x2A37 read: 16-bit heart rate little-endian, energy skipped, several RR in one payload."""
    driver = context.fresh()
    driver.get(f"{context.url}{PAGE}")
    browser.pacer_ready(driver)
    cases = [
        ([0x00, 72], 72, 0, None),
        ([0x01, 0x42, 0x01], 322, 0, None),
        ([0x16, 70, 0x00, 0x04], 70, 1, 1000.0),
        ([0x1F, 0x44, 0x00, 0x10, 0x27, 0x00, 0x03, 0x80, 0x03], 68, 3, 0x380 * 1000 / 1024),
        ([0x18, 65, 0x34, 0x12, 0x00, 0x04], 65, 4, 1000.0),
    ]
    for data, heart_rate, beats, last in cases:
        state = driver.execute_script("window.nagi.heart.receive(arguments[0]); return window.nagi.heart.state()", data)
        assert state["heartRate"] == heart_rate, f"{data}: heart rate {state['heartRate']}, expected {heart_rate}"
        assert state["beats"] == beats, f"{data}: {state['beats']} beats, expected {beats}"
        if last is not None:
            assert abs(state["lastIntervalMs"] - last) < 1e-9, f"{data}: last interval {state['lastIntervalMs']}"
    refused = driver.execute_script("try { window.nagi.heart.receive([0x01, 0x42]); return null } catch (e) { return e.message }")
    assert refused and "ends inside its heart rate" in refused, refused


def test_heart_without_web_bluetooth(context):
    """As in Firefox and WebKit: no navigator.bluetooth; Connect says so in a sentence, on the page."""
    driver = context.fresh()
    if browser.ENGINE == "chromium":
        # Chromium has navigator.bluetooth: taken away, as Firefox and WebKit have none (WebKit is tested as it is).
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
            "source": "Object.defineProperty(Navigator.prototype, 'bluetooth', {get: () => undefined, configurable: true});"})
    try:
        driver.get(f"{context.url}{PAGE}")
        browser.pacer_ready(driver)
        driver.find_element(By.ID, "heart-connect").click()
        browser.wait_for(driver, "document.getElementById('heart-message').textContent.length > 0")
        text = driver.find_element(By.ID, "heart-message").text
        assert "no Web Bluetooth" in text and "Chrome or Edge" in text, text
    finally:
        driver.quit()
        context.driver = None


SESSION_SCRIPT = """
const [beats, leadSeconds, done] = arguments;
const audio = document.getElementById("audio");
const now = Date.now();
audio.dispatchEvent(new Event("playing"));
const base = now - leadSeconds * 1000;
let pending = [], sent = 0;
for (const [end, value] of beats) {
  pending.push(value);
  if (end * 1000 - sent >= 1000) {
    const bytes = [0x10, Math.round(60 * 1024 / value)];
    for (const v of pending) bytes.push(v & 0xff, v >> 8);
    window.nagi.heart.receive(bytes, base + end * 1000 + 40);
    pending = [];
    sent = end * 1000;
  }
}
if (pending.length > 0) {
  const bytes = [0x10, 68];
  for (const v of pending) bytes.push(v & 0xff, v >> 8);
  window.nagi.heart.receive(bytes, base + beats[beats.length - 1][0] * 1000 + 40);
}
audio.dispatchEvent(new Event("ended"));
done(window.nagi.heart.state());
"""


def resonance_beats(lead_seconds, resonant_rate=5.5):
    """Beats of a heart breathing resonance-steps (two minutes each at 6.5, 6, 5.5, 5 and 4.5 a minute) from
    `lead_seconds` before it to 20 s after, swinging 16 bpm at the resonant pace and 5 elsewhere, in phase."""
    beats, elapsed = [], 0.0
    while elapsed < lead_seconds + 620:
        t = elapsed - lead_seconds
        if 0 <= t < 600:
            rate = [6.5, 6.0, 5.5, 5.0, 4.5][int(t // 120)]
            half = 8 if rate == resonant_rate else 2.5
            heart = 66 + half * math.sin(2 * math.pi * rate / 60 * (t - (t // 120) * 120) - math.pi / 2)
        else:
            heart = 68
        value = round(60 / heart * 1024)
        elapsed += value / 1024
        beats.append((elapsed, value))
    return beats


def test_heart_verdict_at_the_end_of_resonance_steps(context):
    """At the end of a resonance-steps session the page sends its record and shows the verdict in the panel."""
    driver = context.fresh()
    driver.get(f"{context.url}pace?pattern=resonance-steps")
    browser.pacer_ready(driver)
    beats = resonance_beats(20.0)
    state = driver.execute_async_script(SESSION_SCRIPT, beats, 20.0)
    assert state["beats"] == len(beats) and state["gaps"] == 0, state
    browser.wait_for(driver, "document.getElementById('heart-message').textContent.length > 0", timeout=120)
    text = driver.find_element(By.ID, "heart-message").text
    assert text.startswith("Resonance: 5.5 breaths/min"), text


TESTS = [
    test_heart_measurement_layouts,
    test_heart_without_web_bluetooth,
    test_heart_payloads_state_and_record,
    test_heart_verdict_at_the_end_of_resonance_steps,
]
