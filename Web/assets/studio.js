// The studio: the session's choices as the API's render parameters (the command line's options without the
// dashes), the plan drawn by the server as they change, the pacer and the downloads for the same parameters,
// the courses, and the heart-rhythm report (docs/pacer.md § 6).

import { APIError, checked, errorText, getJSON, getText } from "/assets/api.js";
import * as offline from "/assets/offline.js";

const PLAN_DELAY_MILLISECONDS = 300; // the plan follows the typing this long after it stops
const form = document.getElementById("session");
const planSummary = document.getElementById("plan-summary");
const planError = document.getElementById("plan-error");
const plot = document.getElementById("plot");
const pacerLink = document.getElementById("open-pacer");
const downloadLink = document.getElementById("download");
const plotLink = document.getElementById("plot-link");
const formatChoice = document.getElementById("format");
const lengthKind = document.getElementById("length-kind");
const lengthInput = document.getElementById("length");

/** Which element shows a parameter's error: the length field for both of its options. */
const ERROR_FIELD = { minutes: "length", cycles: "length" };

/** Seconds as h:mm:ss or m:ss. */
function duration(seconds) {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${rest}` : `${m}:${rest}`;
}

/** Shows `message` beside the field of `parameter` (prefix: the form's id prefix), clearing the others. */
function showFieldErrors(container, prefix, error) {
  for (const element of container.querySelectorAll(".field-error")) element.textContent = "";
  for (const element of container.querySelectorAll("[aria-invalid]")) element.removeAttribute("aria-invalid");
  if (!error) return false;
  const parameter = error instanceof APIError ? error.parameter : null;
  if (!parameter) return false;
  const id = prefix + (ERROR_FIELD[parameter] || parameter);
  const slot = document.getElementById(`${id}-error`);
  if (!slot) return false;
  slot.textContent = errorText(error);
  const field = document.getElementById(id === "title" ? "title-tag" : id);
  field?.setAttribute("aria-invalid", "true");
  return true;
}

/** The render parameters the form says, defaults left out (so the query is what one would type). */
function sessionQuery() {
  const query = new URLSearchParams();
  const mode = form.elements.mode.value;
  const pattern = form.elements.pattern.value.trim();
  const bpm = form.elements.bpm.value.trim();
  if (mode === "pattern" && pattern) query.set("pattern", pattern);
  if (mode === "bpm") query.set("bpm", bpm);
  if (lengthKind.value && lengthInput.value.trim()) query.set(lengthKind.value, lengthInput.value.trim());
  for (const element of form.querySelectorAll("[name]")) {
    const name = element.name;
    if (name === "mode" || name === "pattern" || name === "bpm" || name === "preset" || element.disabled) continue;
    if (element.type === "checkbox") {
      if (element.checked) query.set(name, "1");
      continue;
    }
    const value = element.value.trim();
    // A select's first option is the command line's default.
    const isDefault = element.tagName === "SELECT" ? value === element.options[0]?.value : value === "";
    if (!isDefault) query.set(name, value);
  }
  return query;
}

let planController = null;
let planTimer = 0;
let plotURL = null;

/** Asks the server for the plan of the current choices; shows its summary and plot, or the fault beside its field. */
async function updatePlan() {
  const query = sessionQuery();
  const text = query.toString();
  history.replaceState(null, "", `#${text}`);
  remember(text);
  markPreset();
  planController?.abort();
  const controller = (planController = new AbortController());
  form.setAttribute("aria-busy", "true");
  try {
    const [describe, svg] = await Promise.all([
      getJSON(`/api/describe?${text}`, { signal: controller.signal }),
      getText(`/api/plot.svg?${text}`, { signal: controller.signal }),
    ]);
    if (controller !== planController) return;
    showFieldErrors(form, "", null);
    planError.textContent = "";
    const lead = describe.phases.length ? describe.phases[0].startSeconds : 0;
    planSummary.textContent = `${describe.title}: ${duration(describe.totalSeconds)} of breathing, ${describe.cycles} ` +
      `${describe.cycles === 1 ? "cycle" : "cycles"}, ${describe.breathsPerMinute.toFixed(2).replace(/\.?0+$/, "")} breaths a minute, ` +
      `${describe.phases.length} phases` + (lead > 0 ? `, after a ${duration(lead)} countdown` : "") + ".";
    if (plotURL) URL.revokeObjectURL(plotURL);
    plotURL = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
    plot.src = plotURL;
    plot.hidden = false;
    plot.classList.remove("stale");
    setLinks(text, true);
    setPlayer(text, describe.totalSeconds);
  } catch (error) {
    if (error.name === "AbortError" || controller !== planController) return;
    if (!showFieldErrors(form, "", error)) planError.textContent = errorText(error);
    else planError.textContent = "";
    planSummary.textContent = "Mend the marked field to see the plan.";
    plot.classList.add("stale");
    setLinks(text, false);
  } finally {
    if (controller === planController) form.removeAttribute("aria-busy");
  }
}

/** Points the pacer and the download at the current choices, or disables them while the choices are refused. */
function setLinks(text, usable) {
  const format = formatChoice.value;
  const links = [
    [pacerLink, `/pace?${text}`],
    [downloadLink, `/api/render.${format}?${text}${text ? "&" : ""}download=1`],
    [plotLink, `/api/plot.svg?${text}`],
  ];
  for (const [link, href] of links) {
    if (usable) {
      link.href = href;
      link.removeAttribute("aria-disabled");
    } else {
      link.removeAttribute("href");
      link.setAttribute("aria-disabled", "true");
    }
  }
  downloadLink.textContent = `Download ${formatChoice.selectedOptions[0].textContent}`;
}

function schedulePlan() {
  clearTimeout(planTimer);
  planTimer = setTimeout(updatePlan, PLAN_DELAY_MILLISECONDS);
}

/** Shows the fields of the chosen way of pacing; offers a voice only when something speaks. */
function showMode() {
  const mode = form.elements.mode.value;
  for (const element of form.querySelectorAll("[data-mode]")) element.hidden = element.dataset.mode !== mode;
  const speaks = ["voice", "both"].includes(form.elements.cues.value) || form.elements.count.value === "voice";
  form.elements.voice.disabled = !speaks;
}

const CHOICE_KEY = "nagi.studio.choice";

/** Keeps the choice (the render query) for the next visit; a private window that refuses storage keeps nothing. */
function remember(text) {
  try {
    localStorage.setItem(CHOICE_KEY, text);
  } catch {
    // not kept: the address still carries it
  }
}

/** The choice to restore: the address's fragment, else the one remembered from the last visit. */
function storedChoice() {
  if (location.hash.length > 1) return location.hash.slice(1);
  try {
    return localStorage.getItem(CHOICE_KEY) || "";
  } catch {
    return "";
  }
}

/** Restores the choices from the address's fragment (`#pattern=box&cycles=2`) or the last visit, so a reload, the
 * pacer's way back and the next evening keep them. */
function restoreChoices() {
  const query = new URLSearchParams(storedChoice());
  if (query.has("bpm")) {
    form.elements.mode.value = "bpm";
    form.elements.bpm.value = query.get("bpm");
  }
  if (query.has("pattern")) form.elements.pattern.value = query.get("pattern");
  for (const kind of ["minutes", "cycles"]) {
    if (query.has(kind)) {
      lengthKind.value = kind;
      lengthInput.value = query.get(kind);
    }
  }
  for (const element of form.querySelectorAll("[name]")) {
    if (["mode", "pattern", "bpm", "preset"].includes(element.name) || !query.has(element.name)) continue;
    if (element.type === "checkbox") element.checked = query.get(element.name) === "1";
    else element.value = query.get(element.name);
  }
  lengthInput.disabled = !lengthKind.value;
  showMode();
}

/** Fills a select with names, keeping its first option. */
function fillSelect(select, entries) {
  for (const entry of entries) {
    const option = document.createElement("option");
    option.value = entry.name;
    option.textContent = entry.label || entry.name;
    if (entry.title) option.title = entry.title;
    select.append(option);
  }
}

async function loadPresets() {
  const presets = await getJSON("/api/presets");
  const names = document.getElementById("pattern-names");
  const choices = document.getElementById("preset-choices");
  choices.replaceChildren();
  for (const pattern of presets.patterns) {
    const option = document.createElement("option");
    option.value = pattern.name;
    option.label = pattern.summary;
    names.append(option);
    // A visible card a tap chooses: the preset's name and its pattern in words.
    const card = document.createElement("label");
    card.className = "preset";
    const radio = document.createElement("input");
    radio.type = "radio";
    radio.name = "preset";
    radio.value = pattern.name;
    const name = document.createElement("span");
    name.className = "preset-name";
    name.textContent = pattern.name;
    const words = document.createElement("span");
    words.className = "preset-words";
    words.textContent = pattern.summary;
    card.append(radio, name, words);
    choices.append(card);
  }
  const soundscape = document.getElementById("soundscape");
  soundscape.replaceChildren();
  const ordered = [...presets.soundscapes].sort((a, b) => (a.name === "horizon" ? -1 : b.name === "horizon" ? 1 : 0));
  fillSelect(soundscape, ordered.map((s) => ({ name: s.name, title: s.summary })));
  fillSelect(document.getElementById("course"), presets.courses.map((c) => ({ name: c.name, label: `${c.title} (${c.lessonCount} lessons)`, title: c.summary })));
  const beds = presets.beds || [];
  const packs = presets.cuePacks || [];
  fillSelect(document.getElementById("bed"), beds.map((name) => ({ name })));
  fillSelect(document.getElementById("cue-pack"), packs.map((name) => ({ name })));
  document.getElementById("user-sounds").hidden = beds.length === 0 && packs.length === 0;
}

// Courses: a course's lessons, each to pace or download, and the whole album.

const courseChoice = document.getElementById("course");
const courseFormat = document.getElementById("course-format");
const lessonList = document.getElementById("lessons");
const albumLink = document.getElementById("album");
let course = null;

async function showCourse() {
  const name = courseChoice.value;
  const summary = document.getElementById("course-summary");
  const problem = document.getElementById("course-error");
  problem.textContent = "";
  lessonList.replaceChildren();
  albumLink.hidden = true;
  summary.textContent = "";
  course = null;
  if (!name) return;
  try {
    course = await getJSON(`/api/courses/${encodeURIComponent(name)}`);
  } catch (error) {
    problem.textContent = errorText(error);
    return;
  }
  // Each lesson's state from the record `nagi course status` prints; without it the lessons are listed plain.
  const progress = await getJSON(`/api/courses/${encodeURIComponent(name)}/progress`, { cache: "no-store" }).catch(() => null);
  if (courseChoice.value !== name) return;
  const done = new Set(progress?.done ?? []);
  summary.textContent = `${course.summary} ${course.lessons.length} lessons, ${duration(course.totalSeconds)} in all.` +
    (progress ? ` Done: ${done.size} of ${course.lessons.length}` + (progress.next ? `; next is lesson ${progress.next}.` : "; complete.") : "");
  for (const lesson of course.lessons) {
    const item = document.createElement("li");
    const heading = document.createElement("p");
    heading.className = "lesson-title";
    heading.textContent = lesson.title;
    const meta = document.createElement("p");
    meta.className = "help";
    meta.textContent = `${lesson.pattern} · ${duration(lesson.seconds)} · ${lesson.soundscape}`;
    const state = document.createElement("p");
    state.className = "lesson-state";
    state.textContent = done.has(lesson.number) ? "Done" : progress?.next === lesson.number ? "Next" : "Not yet";
    item.dataset.state = state.textContent.toLowerCase().replace(" ", "-");
    const actions = document.createElement("p");
    actions.className = "lesson-actions";
    const pace = document.createElement("a");
    pace.className = "button quiet";
    pace.href = lesson.pace;
    pace.textContent = "Pace";
    pace.setAttribute("aria-label", `Pace ${lesson.title}`);
    const download = document.createElement("a");
    download.className = "button quiet lesson-download";
    download.dataset.render = lesson.render;
    download.setAttribute("download", "");
    download.textContent = "Download";
    download.setAttribute("aria-label", `Download ${lesson.title}`);
    actions.append(pace, download);
    item.append(heading, meta, state, actions);
    lessonList.append(item);
  }
  albumLink.hidden = false;
  setCourseLinks();
}

function setCourseLinks() {
  if (!course) return;
  const format = courseFormat.value;
  for (const link of lessonList.querySelectorAll(".lesson-download")) link.href = `${link.dataset.render}.${format}?download=1`;
  albumLink.href = `${course.album}?format=${format}`;
  albumLink.textContent = `Download the whole album as ${courseFormat.selectedOptions[0].textContent} (zip)`;
}

// Heart rhythm: the record is sent as it is; the report comes back as the command line's JSON.

const resonanceForm = document.getElementById("resonance-form");
const report = document.getElementById("report");
const resonancePlot = document.getElementById("resonance-plot");
let resonancePlotURL = null;

/** A number for reading: at most `digits` decimals, trailing zeros dropped. */
function figure(value, digits = 1) {
  return typeof value === "number" ? value.toFixed(digits).replace(/\.?0+$/, "") : "–";
}

function renderReport(result) {
  report.replaceChildren();
  const verdict = document.createElement("p");
  verdict.className = "verdict";
  // With no verdict the report says why (the record does not follow the session, every step left out…).
  verdict.textContent = result.best ? `Your resonant pace: ${result.best.verdict}.` : `No verdict: ${result.reason || "no pace stands out"}.`;
  const facts = document.createElement("p");
  facts.className = "help";
  const alignment = result.alignment ? `, aligned at ${figure(result.offsetSeconds)} s (correlation ${figure(result.alignment.correlation, 2)})` : "";
  facts.textContent = `${result.beats} beats over ${duration(result.recordSeconds)}, ${result.artefacts} artefacts corrected${alignment}. Record read as: ${result.format}.`;
  const table = document.createElement("table");
  table.innerHTML = "<caption>Each step, less its settling time</caption><thead><tr><th scope=\"col\">Step</th>" +
    "<th scope=\"col\">Mean HR</th><th scope=\"col\">Swing per breath</th><th scope=\"col\">LF power</th><th scope=\"col\">Score</th></tr></thead>";
  const body = document.createElement("tbody");
  for (const step of result.steps || []) {
    const row = document.createElement("tr");
    if (result.best && step.breathsPerMinute === result.best.breathsPerMinute) row.className = "best";
    const cells = [step.label, `${figure(step.meanHeartRate)} bpm`, `${figure(step.peakToTrough)} bpm`, `${figure(step.lowFrequencyPower, 0)} ms²`, figure(step.score, 2)];
    cells.forEach((text, index) => {
      const cell = document.createElement(index === 0 ? "th" : "td");
      if (index === 0) cell.scope = "row";
      cell.textContent = text;
      row.append(cell);
    });
    body.append(row);
  }
  table.append(body);
  const wrapper = document.createElement("div");
  wrapper.className = "table-scroll";
  wrapper.append(table);
  const raw = document.createElement("details");
  const rawSummary = document.createElement("summary");
  rawSummary.textContent = "The report as JSON";
  const pre = document.createElement("pre");
  pre.textContent = JSON.stringify(result, null, 2);
  raw.append(rawSummary, pre);
  report.append(verdict, facts, wrapper, raw);
}

async function analyse(event) {
  event.preventDefault();
  const file = document.getElementById("record").files[0];
  showFieldErrors(resonanceForm, "resonance-", null);
  report.replaceChildren();
  resonancePlot.hidden = true;
  if (!file) {
    document.getElementById("record-error").textContent = "Choose the RR record your heart-rate app exported.";
    return;
  }
  const query = new URLSearchParams();
  for (const element of resonanceForm.querySelectorAll("input[name]")) {
    if (element.value.trim()) query.set(element.name, element.value.trim());
  }
  const options = { method: "POST", body: file, headers: { "Content-Type": "text/plain" } };
  const button = document.getElementById("analyse");
  button.disabled = true;
  report.textContent = "Reading the record…";
  try {
    const [result, svg] = await Promise.all([
      getJSON(`/api/resonance?${query}`, options),
      getText(`/api/resonance/plot.svg?${query}`, options),
    ]);
    renderReport(result);
    if (resonancePlotURL) URL.revokeObjectURL(resonancePlotURL);
    resonancePlotURL = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
    resonancePlot.src = resonancePlotURL;
    resonancePlot.hidden = false;
  } catch (error) {
    report.replaceChildren();
    if (!showFieldErrors(resonanceForm, "resonance-", error)) document.getElementById("record-error").textContent = errorText(error);
  } finally {
    button.disabled = false;
  }
}

// Presets: a card chosen writes its name into the pattern field; the field typed checks the card it names.

/** Checks the preset card the pattern field names, none when it names none. */
function markPreset() {
  const pattern = form.elements.pattern.value.trim();
  for (const radio of form.querySelectorAll('input[name="preset"]')) radio.checked = radio.value === pattern;
}

// The player: the current choice's sound streamed from /api/render (seekable: the server answers ranges), and a
// playhead on the plot's whole-session panel at the audio clock.

const player = document.getElementById("player");
const playhead = document.getElementById("playhead");
const playerStatus = document.getElementById("player-status");
/** The plot's panels span its width less 70 px a side of 1200 (Sources/NagiPlot/SessionPlot.swift). */
const PLOT_LEFT_FRACTION = 70 / 1200;
const PLOT_SPAN_FRACTION = 1060 / 1200;
let playerQuery = null;
let playheadFrame = 0;

/** Points the player at the current choice; a new choice stops what played (it was another session). */
function setPlayer(text, seconds) {
  if (text === playerQuery) return;
  playerQuery = text;
  player.pause();
  player.src = `/api/render.wav?${text}`;
  player.dataset.seconds = String(seconds);
  playerStatus.textContent = "";
  drawPlayhead();
}

/** Puts the playhead where the audio is, across the plot's panels; hidden before the sound starts. */
function drawPlayhead() {
  playheadFrame = 0;
  const total = Number.isFinite(player.duration) && player.duration > 0 ? player.duration : Number(player.dataset.seconds);
  const shown = !plot.hidden && total > 0 && (player.currentTime > 0 || !player.paused);
  playhead.hidden = !shown;
  if (shown) {
    const fraction = PLOT_LEFT_FRACTION + PLOT_SPAN_FRACTION * Math.min(1, player.currentTime / total);
    playhead.style.left = `${(fraction * 100).toFixed(3)}%`;
  }
  if (!player.paused) playheadFrame = requestAnimationFrame(drawPlayhead);
}

player.addEventListener("play", () => { playerStatus.textContent = ""; if (!playheadFrame) drawPlayhead(); });
for (const event of ["pause", "seeked", "loadedmetadata", "ended"]) player.addEventListener(event, drawPlayhead);
player.addEventListener("error", () => {
  const source = player.getAttribute("src");
  if (!source) return;
  playerStatus.textContent = "The sound could not be loaded from the server.";
  // The element says nothing of why; the server's own sentence is in its refusal.
  fetch(source, { headers: { Range: "bytes=0-0" } }).then(checked).then(
    () => {},
    (error) => { if (player.getAttribute("src") === source) playerStatus.textContent = errorText(error); },
  );
});

form.addEventListener("input", (event) => {
  if (event.target.name === "preset") {
    form.elements.pattern.value = event.target.value;
    form.elements.mode.value = "pattern";
  }
  schedulePlan();
});
form.addEventListener("change", (event) => {
  if (["mode", "cues", "count"].includes(event.target.name)) showMode();
  if (event.target === lengthKind) {
    lengthInput.disabled = !lengthKind.value;
    if (!lengthKind.value) lengthInput.value = "";
  }
  schedulePlan();
});
form.addEventListener("submit", (event) => event.preventDefault());
formatChoice.addEventListener("change", () => setLinks(sessionQuery().toString(), !downloadLink.hasAttribute("aria-disabled")));
courseChoice.addEventListener("change", showCourse);
courseFormat.addEventListener("change", setCourseLinks);
resonanceForm.addEventListener("submit", analyse);

/** Another device's way in (`GET /api/join`): shown only when the server listens beyond loopback. */
async function loadJoin() {
  const join = await getJSON("/api/join");
  if (join.urls.length === 0) return;
  const list = document.getElementById("join-urls");
  for (const url of join.urls) {
    const item = document.createElement("li");
    const code = document.createElement("code");
    code.textContent = url;
    item.append(code);
    list.append(item);
  }
  document.getElementById("join-code").src = "/api/qr.svg";
  document.getElementById("join-authority").hidden = !join.authority;
  document.getElementById("join").hidden = false;
}

window.nagi = { offline: { list: offline.list } };

restoreChoices();
loadJoin().catch(() => {});
loadPresets()
  .catch((error) => { planError.textContent = errorText(error); })
  .finally(() => {
    restoreChoices();
    updatePlan();
  });
