import Foundation

/// ffmpeg's EBU R128 meter read on a file: its `ebur128` filter is an implementation of its own (not nagi's, not
/// libebur128), so what it reads checks nagi's figures from outside. The one reader every test target uses.
public enum FFmpegLoudness {
    /// What ffmpeg said when it could not be read.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The filter's summary: integrated loudness, LUFS, and true peak (`peak=true`), dBTP, each to a tenth.
    public static func summary(of path: String) throws -> (integratedLUFS: Double, truePeakDBTP: Double) {
        let result = try Tool.run("/usr/bin/ffmpeg", ["-nostdin", "-hide_banner", "-nostats", "-i", path, "-af", "ebur128=peak=true", "-f", "null", "-"])
        // The summary comes last: "I: -16.0 LUFS" and, under "True peak:", "Peak: -3.5 dBFS".
        guard result.status == 0, let summary = result.output.range(of: "Summary:").map({ result.output[$0.upperBound...] }),
              let integrated = number(after: "I:", in: summary),
              let peak = summary.range(of: "True peak:").flatMap({ number(after: "Peak:", in: summary[$0.upperBound...]) })
        else { throw Failure(description: "ffmpeg's ebur128 on \(path): \(result.output.suffix(600))") }
        return (integrated, peak)
    }

    /// The integrated loudness, LUFS, to the thousandth: the filter's running value at the last frame (the summary
    /// rounds to a tenth; loudnorm measures at 192 kHz and reads about 0.1 LU off).
    public static func integratedLUFS(of path: String) throws -> Double {
        let result = try Tool.run("/usr/bin/ffmpeg", ["-nostdin", "-hide_banner", "-nostats", "-v", "error", "-i", path, "-af", "ebur128=metadata=1,ametadata=mode=print:key=lavfi.r128.I:file=-", "-f", "null", "-"])
        guard result.status == 0, let line = result.output.split(separator: "\n").last(where: { $0.hasPrefix("lavfi.r128.I=") }),
              let value = Double(line.dropFirst("lavfi.r128.I=".count))
        else { throw Failure(description: "ffmpeg's ebur128 on \(path): \(result.output.suffix(600))") }
        return value
    }

    /// The number after `label` in `text` ("I:  -16.0 LUFS" → −16.0).
    static func number(after label: String, in text: Substring) -> Double? {
        guard let range = text.range(of: label) else { return nil }
        let rest = text[range.upperBound...].drop { $0 == " " }
        return Double(rest.prefix { "-+.0123456789".contains($0) })
    }
}
