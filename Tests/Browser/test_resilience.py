"""Nothing freezes (issue 52): the server gone mid-session is said in words with Retry within 3 s, and Retry resumes
at the place; start() rejects with the browser's reason when it refuses to play, and a visible Start then works;
a refused session shows the server's own sentence."""
import json
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

import browser

# A long session (the sound cannot all be fetched ahead) on short phases, so a breath is 6 s.
LONG = "pattern=2-1-3&minutes=20"
BREATH_SECONDS = 6


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class OwnServer:
    """A `nagi serve` of the test's own on a fixed port, to stop and start again where the page expects it."""

    def __init__(self, context, port, environment=None):
        self.context = context
        self.port = port
        self.environment = environment
        self.process = None

    def start(self):
        deadline = time.monotonic() + 30
        while True:
            # No token (loopback only): the page of a server that comes back must need no new sign-in.
            self.process = subprocess.Popen([self.context.nagi, "serve", "--listen", f"127.0.0.1:{self.port}", "--no-token"],
                                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=self.environment)
            line = self.process.stdout.readline()
            if line.startswith("http://"):
                return line.strip()
            self.process.wait()
            # The port may still be held by the connections of the server just stopped.
            assert time.monotonic() < deadline, f"nagi serve did not start again on {self.port}: {self.process.stderr.read()}"
            time.sleep(0.2)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def visible(driver, element_id):
    return driver.execute_script(f"const e = document.getElementById('{element_id}'); return !!e && e.offsetParent !== null && "
                                 "getComputedStyle(e).visibility !== 'hidden'")


def test_server_gone_is_said_and_retry_resumes_at_the_place(context):
    server = OwnServer(context, free_port())
    url = server.start()
    try:
        driver = context.fresh()
        driver.get(f"{url}pace?{LONG}")
        browser.pacer_ready(driver)
        browser.start_pacer(driver)
        browser.wait_for(driver, "window.nagi.pacer.state().time > 0.5")
        server.stop()
        # The listener skips ahead past what the browser fetched while the server was there.
        driver.execute_script("document.getElementById('audio').currentTime = 600")
        skipped = time.monotonic()
        browser.wait_for(driver, "document.getElementById('retry').offsetParent !== null", timeout=10, interval=0.05)
        said_after = time.monotonic() - skipped
        assert said_after <= 3.0, f"the stall was said {said_after:.1f} s after the sound stopped"
        words = driver.execute_script("return document.getElementById('stall-words').innerText")
        assert "stopped at 10:00" in words, f"the words: {words!r}"
        browser.wait_for(driver, "document.getElementById('stall-words').textContent.includes('cannot be reached')", timeout=10)
        # The skip moved the clock with nothing heard: that is no sign of the sound coming back, and the words and
        # Retry stay while the server is gone (WebKit's clock stands at the place, its element in error).
        time.sleep(1)
        assert visible(driver, "retry"), "Retry went away while the server was still gone"
        server.start()
        driver.find_element(By.ID, "retry").click()
        try:
            browser.wait_for(driver, "document.getElementById('audio').currentTime > 600.5", timeout=30)
        except AssertionError:
            raise AssertionError("after Retry: " + repr(driver.execute_script(
                "const a = document.getElementById('audio'); return [a.currentTime, a.paused, a.readyState, a.error && a.error.code, "
                "document.getElementById('stall-words').textContent, document.getElementById('status').textContent]")))
        place = driver.execute_script("return document.getElementById('audio').currentTime")
        assert 600 <= place <= 600 + BREATH_SECONDS, f"Retry resumed at {place:.1f} s, not at 600 s"
        assert not visible(driver, "stall-panel"), "the stall panel stayed after Retry"
        later = driver.execute_script("return window.nagi.pacer.state().time")
        assert later > place, "the clock did not run after Retry"
    finally:
        server.stop()


def test_start_rejects_when_the_browser_refuses(context):
    """Without a gesture the browser refuses to play: start() rejects with its NotAllowedError, Start stands visible,
    and a real click on it plays."""
    driver = browser.launch(autoplay_needs_gesture=True)
    browser.sign_in(driver, context.url)
    try:
        driver.get(f"{context.url}pace?pattern=2-1-3&cycles=2")
        browser.pacer_ready(driver)
        outcome = driver.execute_async_script("""
          const done = arguments[0];
          window.nagi.pacer.start().then(() => done('resolved'), (error) => done(error.name));""")
        assert outcome == "NotAllowedError", f"start() settled as {outcome}"
        assert visible(driver, "start"), "no visible Start after the refusal"
        assert driver.execute_script("return document.getElementById('audio').paused"), "the sound plays after a refusal"
        driver.find_element(By.ID, "start").click()
        browser.wait_for(driver, "document.getElementById('audio').currentTime > 0.3", timeout=20)
        assert not visible(driver, "start"), "Start still shown while playing"
    finally:
        driver.quit()


def test_refusal_is_the_servers_sentence_in_both_pages(context):
    """A session the server refuses shows the server's own line, the same from render and describe, in the pacer and
    the studio."""
    query = "pattern=4-7-8&minutes=181"
    try:
        urllib.request.urlopen(f"{context.url}api/render.wav?{query}", timeout=30)
        raise AssertionError("the server rendered minutes=181")
    except urllib.error.HTTPError as refusal:
        sentence = json.load(refusal)["error"]
        status = refusal.code
    assert 400 <= status < 500, status
    driver = context.fresh()
    driver.get(f"{context.url}pace?{query}")
    browser.pacer_ready(driver)
    browser.wait_for(driver, f"document.getElementById('problem').textContent === {sentence!r}", timeout=20)
    assert not driver.find_element(By.ID, "start").is_enabled(), "Start offered for a refused session"
    # One rule: describe (what the studio asks first) refuses it with the very same sentence, which the studio
    # shows beside the length it blames, and its player is offered nothing to play.
    try:
        urllib.request.urlopen(f"{context.url}api/describe?{query}", timeout=30)
        raise AssertionError("describe took minutes=181")
    except urllib.error.HTTPError as refusal:
        assert json.load(refusal)["error"] == sentence and refusal.code == status
    driver.get(f"{context.url}#{query}")
    browser.wait_for(driver, "document.getElementById('length-error').textContent.length > 0", timeout=20)
    shown = driver.find_element(By.ID, "length-error").text
    assert shown == sentence, f"the studio says {shown!r}, the server {sentence!r}"
    assert not driver.execute_script("return document.getElementById('player').getAttribute('src')"), "the player offers a refused session"
    browser.assert_no_console_errors(driver, refused=["/api/describe", "/api/plot.svg", "/api/render.wav"])


def test_first_play_lost_is_retried_by_itself(context):
    """A first play() the player loses (WebKit's GStreamer can, while the first load prerolls: the element "playing" a
    few samples in, its clock still) is loaded again at the place by itself, as Retry would: the sound runs with no
    stall said and nothing to press. The fault is injected: the first play() is the element's own, then its rate is
    set to 0, the same "playing, clock still" (a new source sets the rate back)."""
    driver = context.fresh()
    driver.get(f"{context.url}pace?{LONG}")
    browser.pacer_ready(driver)
    driver.execute_script("""
      const audio = document.getElementById('audio');
      const play = audio.play;
      audio.play = function () {
        delete audio.play;
        return play.call(audio).then(() => { audio.playbackRate = 0; });
      };
      window.stallSeen = false;
      new MutationObserver(() => { if (!document.getElementById('stall-panel').hidden) window.stallSeen = true; })
        .observe(document.getElementById('stall-panel'), { attributes: true });""")
    browser.start_pacer(driver)
    try:
        browser.wait_for(driver, "document.getElementById('audio').currentTime > 1.5", timeout=20)
    except AssertionError:
        raise AssertionError("the lost play stayed lost: " + repr(browser.player_state(driver)))
    assert not driver.execute_script("return window.stallSeen"), "a stall was said though the pacer could retry by itself"
    assert not visible(driver, "start"), "Start shown again while the sound plays"


TESTS = [
    test_server_gone_is_said_and_retry_resumes_at_the_place,
    test_start_rejects_when_the_browser_refuses,
    test_first_play_lost_is_retried_by_itself,
    test_refusal_is_the_servers_sentence_in_both_pages,
]
