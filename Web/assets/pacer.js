// The pacer: nagi's own render playing in an <audio> element, and the scene drawn on every animation frame for the
// element's currentTime. The audio clock is the only clock (docs/pacer.md § 2): no timer, no elapsed-time
// counter, nothing to snap after a stall; a tab back from the background simply draws the present moment.

import { Timeline } from "/assets/schedule.js";
import { PALETTES, Scene, horizonFraction, paletteName } from "/assets/scene.js";
import { apiQuery, checked, errorText, getJSON } from "/assets/api.js";
import * as offline from "/assets/offline.js";

const VOLUME_STEP_DECIBELS = 2; // as `nagi play`'s ↑ and ↓
const VOLUME_FLOOR_DECIBELS = -40;
const PREVIOUS_RESTARTS_AFTER_SECONDS = 1; // ← within the first second of a phase goes to the one before
const VIBRATION_MILLISECONDS = 12; // a light tap at each phase change (docs/pacer.md § 6)
const SWELL_RELEASE_SECONDS = { horizon: 1.5, dusk: 1.5, rain: 1.5, night: 2.0 };
/** The audio clock standing still this long while the sound should play is a stall, said in words with Retry (the
 * issue asks for it within 3 s; the check runs every quarter second). */
const STALL_SECONDS = 2;
const STALL_CHECK_MILLISECONDS = 250;

const audio = document.getElementById("audio");
const canvas = document.getElementById("scene");
const startPanel = document.getElementById("start-panel");
const startButton = document.getElementById("start");
const summary = document.getElementById("summary");
const problem = document.getElementById("problem");
const title = document.getElementById("title");
const clock = document.getElementById("clock");
const spoken = document.getElementById("word");
const status = document.getElementById("status");
const toggleButton = document.getElementById("toggle");
const vibrateBox = document.getElementById("vibrate");
const stallPanel = document.getElementById("stall-panel");
const stallWords = document.getElementById("stall-words");
const retryButton = document.getElementById("retry");

const backLink = document.querySelector(".bar .back");
const scene = new Scene(canvas);
let timeline = null;
let volumeDecibels = 0;
let wakeLock = null;
let wakeLockMissingSaid = false;
let frameRequest = 0;
let lastPhaseIndex = null;
let lastWord = "";
let lastClockText = "";
let session = null;
let sessionSeconds = null; // the breathing's length, as describe says
/** The audio clock when it last moved, and when (performance.now() ms): what the stall check compares. */
let progress = { time: 0, at: 0 };
let stalledAt = null;
/** The place a Retry is loading the sound again to (seconds), or null: the stall check waits for its outcome. */
let resumeAt = null;
let soundReloads = 0; // before the start: a load that failed while the server serves the sound is tried once more
/** Where the last Start played from (seconds), and whether a stall still within a second of it was retried by itself:
 * WebKit (GStreamer) can lose a play() asked while the first load prerolls, leaving the element "playing" a few
 * samples in with its clock still, and a listener with closed eyes would never see Retry. */
let startPlace = 0;
let startRetried = false;

/** Seconds as m:ss. */
function minutes(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** Where the session comes from: the page's own query (render parameters) or a course's lesson. */
async function loadSession() {
  const query = new URLSearchParams(location.search);
  const course = query.get("course");
  if (course !== null) {
    const lessonNumber = Number(query.get("lesson") || "1");
    const courseURL = `/api/courses/${encodeURIComponent(course)}`;
    const info = await getJSON(courseURL);
    const lesson = info.lessons.find((l) => l.number === lessonNumber);
    if (!lesson) throw new Error(`course '${course}' has no lesson ${lessonNumber}`);
    return { describeURL: lesson.describe, audioURL: `${lesson.render}.wav`, soundscape: lesson.soundscape, heading: `${info.title}: ${lesson.title}`, courseURL,
      lesson: { course, number: lessonNumber, count: info.lessons.length } };
  }
  const api = apiQuery(query);
  return { describeURL: `/api/describe?${api}`, audioURL: `/api/render.wav?${api}`, soundscape: query.get("soundscape") || "horizon", heading: null };
}

/** The instant the audio is at, or null before the schedule is known. */
function moment() {
  return timeline ? timeline.at(audio.currentTime) : null;
}

/** Draws the present moment, and asks for the next frame while the sound plays. */
function frame() {
  frameRequest = 0;
  const now = moment();
  if (!now) return;
  scene.draw(now);
  if (now.phaseIndex !== lastPhaseIndex) {
    if (lastPhaseIndex !== null && !audio.paused && vibrateBox.checked && navigator.userActivation?.hasBeenActive) {
      navigator.vibrate?.(VIBRATION_MILLISECONDS);
    }
    lastPhaseIndex = now.phaseIndex;
  }
  if (now.text !== lastWord) {
    lastWord = now.text;
    if (now.text) spoken.textContent = now.text;
  }
  const clockText = `${minutes(now.time)} / ${minutes(Number.isFinite(audio.duration) ? audio.duration : 0)}`;
  if (clockText !== lastClockText) clock.textContent = lastClockText = clockText;
  if (!audio.paused) requestFrame();
}

function requestFrame() {
  if (!frameRequest) frameRequest = requestAnimationFrame(frame);
}

/** Keeps the screen awake while the sound plays (where the browser allows it). */
async function holdWakeLock() {
  if (!("wakeLock" in navigator)) {
    // WebKit without the Screen Wake Lock API (WebKitGTK, older Safari): said once, and the session plays on.
    if (!wakeLockMissingSaid) say("This browser cannot keep the screen awake; the session plays on.");
    wakeLockMissingSaid = true;
    return;
  }
  if (wakeLock || document.visibilityState !== "visible") return;
  wakeLock = navigator.wakeLock.request("screen");
  const asked = wakeLock;
  try {
    const sentinel = await asked;
    if (wakeLock !== asked || audio.paused) return sentinel.release().catch(() => {}); // paused meanwhile
    wakeLock = sentinel;
    sentinel.addEventListener("release", () => { if (wakeLock === sentinel) wakeLock = null; });
  } catch {
    if (wakeLock === asked) wakeLock = null; // refused (no gesture, battery saver): the session plays on regardless
  }
}

function releaseWakeLock() {
  if (wakeLock && typeof wakeLock.release === "function") wakeLock.release().catch(() => {});
  wakeLock = null;
}

/** Plays from where the audio is: the Start button, Space, and `window.nagi.pacer.start()`. Rejects with the
 * browser's own error when it refuses to play (no gesture yet: NotAllowedError), and then shows Start again, which a
 * tap honours. */
async function start() {
  await ready;
  if (!timeline) return;
  startPanel.hidden = true;
  if (audio.ended) audio.currentTime = 0;
  progress = { time: audio.currentTime, at: performance.now() };
  startPlace = audio.currentTime;
  startRetried = false;
  try {
    await audio.play();
  } catch (error) {
    if (error.name === "AbortError") return; // a new source or a pause came first: nothing was refused
    startButton.textContent = "Start";
    startPanel.hidden = false;
    say(`The browser did not start the sound (${error.message || error.name}); press Start.`);
    throw error;
  }
}

/** start() for a button or a key: the refusal is already shown on the page. */
function startFromControl() {
  start().catch(() => {});
}

/** A course's lesson played to its end: recorded on the server, in the record `nagi course status` reads. */
async function markLessonDone({ course, number, count }) {
  const base = `/api/courses/${encodeURIComponent(course)}`;
  try {
    const { token } = await getJSON(`${base}/progress`, { cache: "no-store" });
    const progress = await getJSON(`${base}/lessons/${number}/done`, { method: "POST", headers: { "X-Nagi-Token": token } });
    say(`Lesson ${number} of ${count} is done` + (progress.next ? `; next is lesson ${progress.next}.` : "; the course is complete."));
  } catch (error) {
    say(`Lesson ${number} is not marked done: ${errorText(error)}`);
  }
}

/** Says that the sound stopped, where, and why when it can tell; offers Retry. Idempotent while stalled. */
function showStall(because) {
  // Where the sound stopped: the clock's place (a seek into what never arrived moves it there) or where it last ran.
  if (stalledAt === null) stalledAt = resumeAt ?? (audio.currentTime > 0 ? audio.currentTime : progress.time);
  const place = minutes(stalledAt);
  stallWords.textContent = because || `The sound stopped at ${place}: it is not arriving from the server.`;
  stallPanel.hidden = false;
  startPanel.hidden = true;
  if (!because) {
    // Whether the server answers at all decides the words; the check is a small request of the session's own.
    fetch(session.describeURL, { method: "HEAD", cache: "no-store" }).then(
      (response) => { if (stalledAt !== null && !response.ok) stallWords.textContent = `The sound stopped at ${place}: the server answered ${response.status}.`; },
      () => { if (stalledAt !== null) stallWords.textContent = `The sound stopped at ${place}: the server cannot be reached.`; },
    );
  }
}

function hideStall() {
  stalledAt = null;
  stallPanel.hidden = true;
}

/** The stall check: the sound should play (not paused, not ended) but the audio clock has not run. A seek moves the
 * clock without a sound (a seek into what never arrived leaves the element seeking, or in error in WebKit), so only
 * a clock that moves while the element is neither seeking nor failed counts as the sound flowing. */
function checkFlow() {
  if (!timeline || resumeAt !== null) return;
  const now = performance.now();
  if (audio.paused || audio.ended) {
    progress = { time: audio.currentTime, at: now };
    return;
  }
  const flowing = !audio.seeking && !audio.error;
  if (flowing && audio.currentTime !== progress.time) {
    progress = { time: audio.currentTime, at: now };
    if (stalledAt !== null) hideStall(); // it came back by itself
    return;
  }
  if (now - progress.at < STALL_SECONDS * 1000) return;
  if (!startRetried && stalledAt === null && Math.abs(audio.currentTime - startPlace) < 1) {
    // Stalled where Start left it: loaded again at the place once, as Retry would, before asking (a stall past the
    // first second, or after a skip away, is said as any other).
    startRetried = true;
    retry();
    return;
  }
  showStall();
}

/** Retry: a fresh load of the sound, resumed where it stopped (the server answers the seek's range; the schedule is
 * already known). The place is set once the new source's metadata is known, and play() is called once that seek is
 * done: WebKit (GStreamer) does not honour a place set before the metadata as the start, and a play() asked while
 * its first seek prerolls can be lost, leaving the element loaded, at the place, "playing" and its clock still. */
async function retry() {
  const place = stalledAt ?? audio.currentTime;
  hideStall();
  startPanel.hidden = true;
  resumeAt = place;
  say(`Loading the sound again at ${minutes(place)}…`);
  try {
    audio.src = session.audioURL;
    await mediaEvent("loadedmetadata");
    audio.currentTime = place;
    await mediaEvent("seeked");
    progress = { time: audio.currentTime, at: performance.now() };
    resumeAt = null;
    say("");
    await audio.play();
  } catch (error) {
    if (resumeAt !== null) {
      // The new load failed (the element's error has shown the stall already, at the place).
      showStall();
    } else if (error.name === "NotAllowedError") {
      startPanel.hidden = false;
      say(`The browser did not start the sound (${error.message || error.name}); press Start.`);
    } else if (error.name !== "AbortError") {
      showStall(`The sound could not be played again: ${error.message || error.name}.`);
    }
  } finally {
    resumeAt = null;
  }
}

/** Resolves on the audio element's next `name` event; rejects on its next error. */
function mediaEvent(name) {
  return new Promise((resolve, reject) => {
    const settle = (event) => {
      audio.removeEventListener(name, settle);
      audio.removeEventListener("error", settle);
      if (event.type === name) resolve(); else reject(new Error("the sound did not load"));
    };
    audio.addEventListener(name, settle);
    audio.addEventListener("error", settle);
  });
}

function pause() {
  audio.pause();
}

function togglePause() {
  if (audio.paused) startFromControl(); else pause();
}

/** Esc: stop and go back to the start. */
function stop() {
  audio.pause();
  audio.currentTime = 0;
  startButton.textContent = "Start again";
  startPanel.hidden = false;
  startButton.focus();
}

/** Moves the audio (and so the picture) to `seconds`. */
function seek(seconds) {
  audio.currentTime = Math.max(0, seconds);
  requestFrame();
}

/** →: the next phase's start; from the last phase, the end of the breathing (the release plays). */
function nextPhase() {
  const now = moment();
  if (!now) return;
  const count = timeline.phases.length;
  if (now.phaseIndex + 1 < count) seek(timeline.startSeconds(now.phaseIndex + 1));
  else if (now.phaseIndex < count) seek(timeline.breathingEndFrame / timeline.sampleRate);
}

/** ←: the current phase's start, or the previous one's within the first second of a phase. */
function previousPhase() {
  const now = moment();
  if (!now) return;
  const count = timeline.phases.length;
  const index = Math.min(now.phaseIndex, count);
  if (index < 0) return seek(0);
  const current = index < count ? timeline.startSeconds(index) : timeline.breathingEndFrame / timeline.sampleRate;
  if (now.time - current > PREVIOUS_RESTARTS_AFTER_SECONDS) return seek(current);
  if (index === 0) return seek(0);
  seek(timeline.startSeconds(index - 1));
}

function changeVolume(steps) {
  volumeDecibels = Math.min(0, Math.max(VOLUME_FLOOR_DECIBELS, volumeDecibels + steps * VOLUME_STEP_DECIBELS));
  audio.volume = 10 ** (volumeDecibels / 20);
  say(volumeDecibels === 0 ? "Volume: full" : `Volume: ${volumeDecibels} dB`);
}

/** A short message in the status line (read out by screen readers). */
function say(text) {
  status.textContent = text;
}

function showPlaying() {
  const playing = !audio.paused;
  toggleButton.setAttribute("aria-label", playing ? "Pause (Space)" : "Play (Space)");
  toggleButton.dataset.playing = String(playing);
  document.body.dataset.playing = String(playing);
}

const KEYS = {
  " ": togglePause,
  ArrowRight: nextPhase,
  ArrowLeft: previousPhase,
  ArrowUp: () => changeVolume(1),
  ArrowDown: () => changeVolume(-1),
  Escape: stop,
};

document.addEventListener("keydown", (event) => {
  const action = KEYS[event.key];
  if (!action || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest?.("input, select, textarea")) return;
  event.preventDefault();
  action();
});

startButton.addEventListener("click", startFromControl);
retryButton.addEventListener("click", retry);
setInterval(checkFlow, STALL_CHECK_MILLISECONDS);
toggleButton.addEventListener("click", togglePause);
document.getElementById("next").addEventListener("click", nextPhase);
document.getElementById("previous").addEventListener("click", previousPhase);
document.getElementById("louder").addEventListener("click", () => changeVolume(1));
document.getElementById("quieter").addEventListener("click", () => changeVolume(-1));
document.getElementById("stop").addEventListener("click", stop);

audio.addEventListener("play", () => {
  if (status.textContent.startsWith("The browser did not start")) say(""); // it plays now
  showPlaying();
  holdWakeLock();
  requestFrame();
});
audio.addEventListener("pause", () => { showPlaying(); releaseWakeLock(); requestFrame(); });
audio.addEventListener("seeked", requestFrame);
audio.addEventListener("loadedmetadata", requestFrame);
audio.addEventListener("ended", () => {
  if (session?.lesson) markLessonDone(session.lesson);
  startButton.textContent = "Again";
  startPanel.hidden = false;
  releaseWakeLock();
  requestFrame();
});
audio.addEventListener("error", () => {
  // Mid-session (the server went away, the network broke) it is a stall: words and Retry at the place.
  if (audio.currentTime > 0 || startPanel.hidden) return showStall();
  if (problem.textContent) return;
  problem.textContent = "The sound could not be loaded from the server.";
  startButton.disabled = true;
  // The element says nothing of why; the server's own sentence is in its refusal. When the server serves the
  // sound after all, the failure was passing: the sound is loaded again and Start offered.
  fetch(session.audioURL, { headers: { Range: "bytes=0-0" } }).then(checked).then(
    () => {
      if (soundReloads >= 1) return;
      soundReloads += 1;
      problem.textContent = "";
      audio.load();
      startButton.disabled = false;
    },
    (error) => { problem.textContent = errorText(error); },
  );
});
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && !audio.paused) holdWakeLock();
});

// Offered where a phone's motor is likely: the API exists and the pointer is a finger.
const vibrateSupported = typeof navigator.vibrate === "function" && matchMedia("(pointer: coarse)").matches;
document.getElementById("vibrate-choice").hidden = !vibrateSupported;
/** The listener's vibration choice, kept in the browser (on by default where offered, docs/pacer.md § 6). */
function storedVibration() {
  try {
    return localStorage.getItem("nagi.vibrate") !== "false";
  } catch {
    return true; // storage refused (a private window): the default
  }
}
vibrateBox.checked = vibrateSupported && storedVibration();
vibrateBox.addEventListener("change", () => {
  try {
    localStorage.setItem("nagi.vibrate", String(vibrateBox.checked));
  } catch {
    // not kept: the choice holds for this visit
  }
});

const darkScheme = matchMedia("(prefers-color-scheme: dark)");
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");
function followMedia() {
  scene.scheme = darkScheme.matches ? "dark" : "light";
  scene.reducedMotion = reducedMotion.matches;
  requestFrame();
}
darkScheme.addEventListener("change", followMedia);
reducedMotion.addEventListener("change", followMedia);
new ResizeObserver(() => { scene.size(); requestFrame(); }).observe(canvas);

/** Loads the session's schedule, then points the audio at its sound; settles once the pacer can start. */
async function load() {
  try {
    session = await loadSession();
    // The way back to the studio carries every choice (a course's lesson goes back to the studio as it was left).
    if (!session.heading) backLink.href = `/#${apiQuery(new URLSearchParams(location.search))}`;
    const palette = paletteName(session.soundscape);
    scene.palette = PALETTES[palette];
    document.body.dataset.palette = palette;
    const describe = await getJSON(session.describeURL);
    // The sound only once the server has accepted the session, so a refused one is said once, in words.
    audio.src = session.audioURL;
    timeline = new Timeline(describe, SWELL_RELEASE_SECONDS[palette]);
    sessionSeconds = describe.totalSeconds;
    const heading = session.heading || describe.title;
    title.textContent = heading;
    document.title = `${heading} · nagi`;
    summary.textContent = `${minutes(describe.totalSeconds)} of breathing, ${describe.cycles} ${describe.cycles === 1 ? "breath" : "breaths"}` +
      (timeline.breathingStartFrame > 0 ? `, after a ${minutes(timeline.breathingStartFrame / timeline.sampleRate)} lead-in` : "");
    startButton.disabled = false;
    followMedia();
  } catch (error) {
    problem.textContent = errorText(error);
    startButton.disabled = true;
  }
}

const ready = load();

/** For tests and integrations (docs/pacer.md § 6): start() as the Start button; state() the instant the audio is
 * at; ready settles once the schedule is known. */
window.nagi = Object.assign(window.nagi || {}, {
  pacer: {
    start,
    state() {
      const now = moment();
      if (!now) return null;
      return {
        time: now.time,
        phaseIndex: now.phaseIndex,
        phaseKind: now.phaseKind,
        level: now.level,
        horizon: horizonFraction(now.level),
        text: now.text,
      };
    },
    ready,
  },
  offline: {
    /** Keeps this session (its schedule, its sound, and its course's listing for a lesson) for offline use;
     * resolves with what was kept once it is stored. */
    async keep() {
      await ready;
      if (!timeline) throw new Error(problem.textContent || "the session did not load");
      const urls = [session.describeURL, session.audioURL, ...(session.courseURL ? [session.courseURL] : [])];
      return offline.keep({ page: location.pathname + location.search, title: title.textContent, seconds: sessionSeconds }, urls);
    },
    list: offline.list,
  },
});
