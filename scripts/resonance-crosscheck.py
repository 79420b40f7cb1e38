#!/usr/bin/env python3
"""Cross-checks `nagi resonance analyze --json` against NeuroKit2 on the same step windows.

Usage:
    nagi resonance analyze rr.txt --start 95 --json > report.json
    scripts/resonance-crosscheck.py rr.txt report.json [--column N] [--fixpeaks kubios|none]
                                    [--lf-tolerance 0.10] [--tolerance 0.05]

Needs Python 3 with numpy and NeuroKit2 (`pip install neurokit2`; written against 0.3.0).

For each step of the report it takes the beats whose end falls in the step's window (the report's
offsetSeconds plus the step's startSeconds..endSeconds, seconds from the record's first beat), corrects the
whole record's beats with NeuroKit2's Kubios method (signal_fixpeaks(method="kubios"): an ectopic beat moved to
the midpoint of its neighbours, missed and extra beats added or removed), and computes:
  - LF power (0.04-0.15 Hz, ms^2): as hrv_frequency computes it (intervals_process at 4 Hz, then
    signal_power by Welch), with 60 s Hann windows, not normalised;
  - RMSSD and SDNN (ms): hrv_time over the same beats.
It prints them beside nagi's with their ratio, and exits 1 when any differs by more than the tolerance
(LF power 20 %, RMSSD and SDNN 5 % by default), 2 on bad input. LF power differs by design: NeuroKit2's Welch
steps by half a segment from the window's start and drops the remainder (up to half a segment), where nagi's
segments cover the whole window; and where ectopic beats fall in a window, NeuroKit2 0.3's Kubios correction
gives other intervals than the midpoint rule (see docs/resonance.md).

The record is read as one RR interval per line, or a CSV whose header names an RR or IBI column (or
--column N, from 1); intervals in seconds when every value is below 10. Beats are placed by adding the
intervals: use a record without gaps (nagi places beats by their timestamps when the file has them).
"""
import argparse
import csv
import json
import sys


def read_intervals(path, column):
    """RR intervals in ms from a one-column file or a CSV with an RR/IBI column."""
    with open(path, encoding="utf-8-sig") as handle:
        lines = [line.strip() for line in handle if line.strip() and not line.lstrip().startswith(("#", "//"))]
    if not lines:
        raise ValueError(f"{path}: no RR intervals")
    first = lines[0]
    separator = ";" if ";" in first else "\t" if "\t" in first else ","
    has_header = any(ch.isalpha() for ch in first)
    rows = list(csv.reader(lines, delimiter=separator))
    index = None
    if column is not None:
        index = column - 1
    elif has_header:
        names = [name.strip().lower() for name in rows[0]]
        for number, name in enumerate(names):
            if name.startswith("rr") or " rr" in name or "ibi" in name or "inter-beat" in name:
                index = number
                break
        if index is None:
            raise ValueError(f"{path}: no RR or IBI column in {names}; give --column N")
    body = rows[1:] if has_header else rows
    values = []
    for row in body:
        cells = row if len(row) > 1 else row[0].split()
        cell = cells[index if index is not None else len(cells) - 1].strip().strip('"')
        if not cell:
            continue
        if separator != ",":
            cell = cell.replace(",", ".")
        values.append(float(cell))
    scale = 1000.0 if all(value < 10 for value in values) else 1.0
    return [value * scale for value in values]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("record")
    parser.add_argument("report")
    parser.add_argument("--column", type=int)
    parser.add_argument("--lf-tolerance", type=float, default=0.20)
    parser.add_argument("--tolerance", type=float, default=0.05)
    parser.add_argument("--fixpeaks", choices=["kubios", "none"], default="kubios",
                        help="NeuroKit2's artefact correction, or none (for a record without artefacts)")
    arguments = parser.parse_args()
    try:
        import numpy as np
        import neurokit2 as nk
    except ImportError as error:
        print(f"resonance-crosscheck: {error}; install NeuroKit2 (pip install neurokit2)", file=sys.stderr)
        return 2
    try:
        intervals = np.array(read_intervals(arguments.record, arguments.column))
        with open(arguments.report, encoding="utf-8") as handle:
            report = json.load(handle)
    except (OSError, ValueError) as error:
        print(f"resonance-crosscheck: {error}", file=sys.stderr)
        return 2

    # Peaks in ms from the record's first beat's start (NeuroKit2 wants sample indices; 1000 Hz makes them ms).
    peaks = np.concatenate([[0], np.round(np.cumsum(intervals)).astype(int)])
    if arguments.fixpeaks == "kubios":
        _, cleaned = nk.signal_fixpeaks(peaks, sampling_rate=1000, iterative=True, method="kubios")
        cleaned = np.asarray(cleaned)
    else:
        cleaned = peaks
    offset = float(report["offsetSeconds"])
    failed = False
    print(f"{'step':<18} {'LF nagi':>10} {'LF NK2':>10} {'ratio':>6}  {'RMSSD':>13} {'ratio':>6}  {'SDNN':>13} {'ratio':>6}")
    for step in report["steps"]:
        start = (offset + step["startSeconds"]) * 1000
        end = (offset + step["endSeconds"]) * 1000
        inside = np.nonzero((cleaned > start) & (cleaned <= end))[0]
        if len(inside) < 10:
            print(f"{step['label']:<18} too few beats in the window ({len(inside)})")
            failed = True
            continue
        # The beat before the window too, so the first interval inside it is whole.
        window = cleaned[max(0, inside[0] - 1): inside[-1] + 1]
        # hrv_frequency's own steps (intervals in ms at each beat, interpolated at 4 Hz, Welch), called one by one
        # because it hands the same keyword arguments to the interpolation and the spectrum: 60 s Hann windows.
        rri = np.diff(window).astype(float)
        rri_interpolated, _, rate = nk.intervals_process(rri, intervals_time=window[1:] / 1000, interpolate=True,
                                                         interpolation_rate=4)
        power = nk.signal_power(rri_interpolated, frequency_band=[(0.04, 0.15)], sampling_rate=rate, method="welch",
                                window=60, normalize=False)
        time = nk.hrv_time(window, sampling_rate=1000)
        low = float(power.iloc[0, 0])
        rmssd = float(time["HRV_RMSSD"].iloc[0])
        sdnn = float(time["HRV_SDNN"].iloc[0])
        pairs = [(step["lowFrequencyPower"], low, arguments.lf_tolerance),
                 (step.get("rmssdMilliseconds", float("nan")), rmssd, arguments.tolerance),
                 (step.get("sdnnMilliseconds", float("nan")), sdnn, arguments.tolerance)]
        ratios = [ours / theirs if theirs else float("nan") for ours, theirs, _ in pairs]
        for (ours, theirs, tolerance), ratio in zip(pairs, ratios):
            if not abs(ratio - 1) <= tolerance:
                failed = True
        print(f"{step['label']:<18} {pairs[0][0]:>10.0f} {low:>10.0f} {ratios[0]:>6.3f}  "
              f"{pairs[1][0]:>6.1f}/{rmssd:>6.1f} {ratios[1]:>6.3f}  {pairs[2][0]:>6.1f}/{sdnn:>6.1f} {ratios[2]:>6.3f}")
    if failed:
        print("resonance-crosscheck: nagi and NeuroKit2 differ beyond the tolerance", file=sys.stderr)
        return 1
    print("agree within tolerance")
    return 0


if __name__ == "__main__":
    sys.exit(main())
