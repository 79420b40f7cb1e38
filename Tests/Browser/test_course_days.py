"""A course, day by day (issue 52): the studio shows each lesson's state from the record `nagi course status`
prints; a lesson played to its end in the pacer is marked done there; a foreign Origin or no token is refused
(403) and changes nothing."""
import json
import os
import subprocess
import tempfile
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By

import browser
from test_resilience import OwnServer, free_port
from test_studio import choose, wait_for_plan

COURSE = {"name": "browser-course", "title": "Browser course", "description": "Two short days for the browser tests.",
          "lessons": [{"title": "Day 1 — Short", "pattern": "2-1-2", "cycles": 1},
                      {"title": "Day 2 — Short again", "pattern": "2-1-2", "cycles": 1}]}


def status(context, environment):
    """What `nagi course status browser-course` prints, in the server's own folders."""
    result = subprocess.run([context.nagi, "course", "status", COURSE["name"]], capture_output=True, text=True, env=environment)
    assert result.returncode == 0, result.stderr
    return result.stdout


def post(url, headers):
    request = urllib.request.Request(url, method="POST", headers=headers, data=b"")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as refusal:
        return refusal.code, json.load(refusal)


def lesson_states(driver):
    return driver.execute_script("return [...document.querySelectorAll('#lessons li')].map(li => li.querySelector('.lesson-state').textContent)")


def test_course_followed_day_by_day(context):
    folders = tempfile.mkdtemp(prefix="nagi-course-days-")
    os.makedirs(f"{folders}/config/nagi/courses")
    with open(f"{folders}/config/nagi/courses/browser-course.json", "w") as file:
        json.dump(COURSE, file)
    environment = dict(os.environ, XDG_CONFIG_HOME=f"{folders}/config", XDG_STATE_HOME=f"{folders}/state",
                       XDG_DATA_HOME=f"{folders}/data")
    server = OwnServer(context, free_port(), environment)
    url = server.start()
    try:
        done = f"{url}api/courses/browser-course/lessons/1/done"
        token = browser.get_json(f"{url}api/courses/browser-course/progress")["token"]
        code, answer = post(done, {"Origin": "http://elsewhere.example", "X-Nagi-Token": token})
        assert code == 403, (code, answer)
        code, answer = post(done, {"Origin": url.rstrip("/")})
        assert code == 403, (code, answer)
        assert "done: 0 / 2" in status(context, environment), status(context, environment)

        driver = context.fresh()
        driver.get(url)
        wait_for_plan(driver)
        choose(driver, "course", "browser-course")
        browser.wait_for(driver, "document.querySelectorAll('#lessons li .lesson-state').length === 2")
        assert lesson_states(driver) == ["Next", "Not yet"], lesson_states(driver)

        driver.find_element(By.CSS_SELECTOR, "#lessons li a[aria-label^='Pace Day 1']").click()
        browser.pacer_ready(driver)
        browser.start_pacer(driver)
        try:
            browser.wait_for(driver, "document.getElementById('status').textContent.includes('Lesson 1 of 2 is done')", timeout=60)
        except AssertionError:
            raise AssertionError("the pacer says " + repr(browser.player_state(driver)))
        printed = status(context, environment)
        assert "done: 1 / 2" in printed and "next: lesson 2" in printed, printed

        driver.find_element(By.CSS_SELECTOR, ".bar .back").click()
        wait_for_plan(driver)
        choose(driver, "course", "browser-course")
        browser.wait_for(driver, "document.querySelectorAll('#lessons li .lesson-state').length === 2")
        assert lesson_states(driver) == ["Done", "Next"], lesson_states(driver)
        browser.assert_no_console_errors(driver)
    finally:
        server.stop()
        subprocess.run(["rm", "-rf", folders])


TESTS = [test_course_followed_day_by_day]
