"""The studio plays (issue 52): the presets as visible cards with their pattern in words, a player streaming the
current choice from /api/render with a playhead on the plot, the choice kept in the address and for the next visit,
and the pacer's way back keeping every choice."""
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import browser
from test_studio import open_studio, type_into, wait_for_plan

PRESET_CARDS = """
return [...document.querySelectorAll('#preset-choices label.preset')].filter(e => e.offsetParent !== null)
  .map(e => ({name: e.querySelector('.preset-name').textContent, words: e.querySelector('.preset-words').textContent,
              height: e.getBoundingClientRect().height}))"""


def test_presets_are_visible_cards(context):
    """Every preset the server lists is a visible card naming its pattern in words; a tap on one is the choice."""
    driver = open_studio(context)
    listed = {p["name"]: p["summary"] for p in browser.get_json(f"{context.url}api/presets")["patterns"]}
    cards = {card["name"]: card for card in driver.execute_script(PRESET_CARDS)}
    assert set(cards) == set(listed), f"cards {sorted(cards)}, presets {sorted(listed)}"
    for name, card in cards.items():
        assert card["words"] == listed[name] and len(card["words"]) > 20, f"{name}: {card['words']!r}"
    driver.find_element(By.XPATH, "//label[@class='preset'][span[@class='preset-name' and text()='box']]").click()
    wait_for_plan(driver, "Box")
    assert driver.find_element(By.ID, "pattern").get_attribute("value") == "box"
    assert "pattern=box" in driver.current_url, driver.current_url
    type_into(driver, "pattern", "triangle")
    wait_for_plan(driver, "riangle")
    checked = driver.execute_script("return document.querySelector('input[name=preset]:checked')?.value")
    assert checked == "triangle", f"the card checked after typing 'triangle': {checked}"
    browser.assert_no_console_errors(driver)


PLAYHEAD = """
const plot = document.getElementById('plot').getBoundingClientRect();
const head = document.getElementById('playhead');
const audio = document.getElementById('player');
return {visible: !head.hidden && head.offsetParent !== null, x: head.getBoundingClientRect().left + 1 - plot.left,
        width: plot.width, time: audio.currentTime, duration: audio.duration, paused: audio.paused,
        src: audio.currentSrc}"""


def test_studio_player_plays_the_choice_with_a_playhead(context):
    """The player sounds the current choice (its clock runs), seeks, and its playhead stands on the plot where the
    audio is: 70 px + 1060 px × time / duration of the 1200 px drawing."""
    driver = open_studio(context)
    type_into(driver, "pattern", "2-1-3")
    wait_for_plan(driver, "2-1-3")
    assert not driver.execute_script("return !document.getElementById('playhead').hidden"), "a playhead before playing"
    driver.execute_script("document.getElementById('player').play()")
    browser.wait_for(driver, "document.getElementById('player').currentTime > 1.0", timeout=30)
    seen = driver.execute_script(PLAYHEAD)
    assert "/api/render.wav?" in seen["src"] and "pattern=2-1-3" in seen["src"], seen["src"]
    assert seen["visible"] and not seen["paused"], seen
    expected = seen["width"] * (70 + 1060 * seen["time"] / seen["duration"]) / 1200
    # The playhead is redrawn each frame: a frame (and a little) of play separates the two readings.
    assert abs(seen["x"] - expected) <= 2 + seen["width"] * 1060 / 1200 * 0.1 / seen["duration"], f"playhead at {seen['x']:.1f}, expected {expected:.1f}"
    driver.execute_script("const a = document.getElementById('player'); a.pause(); a.currentTime = a.duration / 2")
    browser.wait_for(driver, "!document.getElementById('player').seeking")
    seen = driver.execute_script(PLAYHEAD)
    middle = seen["width"] * (70 + 530) / 1200
    assert abs(seen["x"] - middle) <= 2, f"sought to the middle: playhead at {seen['x']:.1f}, expected {middle:.1f}"
    browser.assert_no_console_errors(driver)


def test_choice_is_remembered_and_the_pacer_brings_it_back(context):
    """A choice made is in the address, comes back on the next visit to a bare /, and the pacer's way back returns
    to the studio with every choice intact."""
    driver = open_studio(context)
    driver.execute_script("localStorage.clear()")
    type_into(driver, "pattern", "3-2-4")
    type_into(driver, "countdown", "3")
    driver.find_element(By.ID, "end-bell").click()
    wait_for_plan(driver, "3-2-4")
    browser.wait_for(driver, "location.hash.includes('countdown=3') && location.hash.includes('end-bell=1')")
    driver.get("about:blank")
    driver.get(context.url)
    wait_for_plan(driver, "3-2-4")
    assert driver.find_element(By.ID, "countdown").get_attribute("value") == "3"
    assert driver.find_element(By.ID, "end-bell").is_selected(), "the end bell was forgotten"
    driver.find_element(By.ID, "open-pacer").click()
    browser.pacer_ready(driver)
    driver.execute_script("localStorage.clear()")  # the way back alone must carry the choice
    driver.find_element(By.CSS_SELECTOR, ".bar .back").click()
    wait_for_plan(driver, "3-2-4")
    assert driver.find_element(By.ID, "countdown").get_attribute("value") == "3"
    assert driver.find_element(By.ID, "end-bell").is_selected(), "the way back lost the end bell"
    driver.execute_script("localStorage.clear()")
    browser.assert_no_console_errors(driver)


def test_presets_and_player_by_keyboard(context):
    """Tab reaches the preset cards and the player; the arrow keys move the choice along the cards, and the plan
    follows; a screen reader hears each card's name and words (its label)."""
    driver = open_studio(context)
    driver.find_element(By.ID, "pattern").click()  # the field before the cards
    reached = []
    for _ in range(60):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        reached.append(driver.execute_script("const e = document.activeElement; return e.name === 'preset' ? 'preset:' + e.value : e.id"))
        if "player" in reached:
            break
    presets = [r for r in reached if r.startswith("preset:")]
    assert presets == ["preset:4-7-8"], f"Tab met the presets as {presets} (the checked card, once): {reached}"
    assert "player" in reached, f"Tab never reached the player: {reached}"
    while driver.execute_script("return document.activeElement.name") != "preset":
        ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
    ActionChains(driver).send_keys(Keys.ARROW_DOWN).perform()
    chosen = driver.execute_script("return document.activeElement.value")
    assert chosen != "4-7-8" and driver.execute_script("return document.activeElement.checked"), chosen
    browser.wait_for(driver, f"document.getElementById('pattern').value === {chosen!r}")
    wait_for_plan(driver)
    label = driver.execute_script("return document.activeElement.labels[0].textContent")
    assert chosen in label and len(label) > len(chosen) + 20, f"the card's name for a screen reader: {label!r}"
    browser.assert_no_console_errors(driver)


TESTS = [
    test_presets_are_visible_cards,
    test_studio_player_plays_the_choice_with_a_playhead,
    test_choice_is_remembered_and_the_pacer_brings_it_back,
    test_presets_and_player_by_keyboard,
]
