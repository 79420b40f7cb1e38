import NagiKit
import NagiOptions

/// `POST /api/resonance` and `POST /api/resonance/plot.svg`: a heart-rate record, sent as the request's body, read
/// against the session breathed as `nagi resonance analyze` reads it; the query carries the command's options
/// (`pattern`, `start`, `settle`, `ratio`, …). The answer is the command's `--json` object, or its `--plot` SVG.
extension NagiServer {
    /// What an upload is called in the lines of its faults (a request names no file).
    static let uploadedRecordName = "the uploaded record"

    /// The report of the record in `request`'s body, as JSON or, with `plot`, as the SVG.
    func resonance(_ request: HTTPRequest, plot: Bool) -> HTTPResponse {
        return APIResponse.answering {
            let arguments = try QueryArguments.parse(request.query, for: ResonanceOptions.spec, positionals: [Self.uploadedRecordName], folders: folders)
            let options = try ResonanceOptions(arguments, catalog: PresetEnvironment.catalog())
            if let refusal = refusingSize(of: try options.session.schedule()) { return refusal }
            let report = try options.report(recordBytes: request.body, recordName: Self.uploadedRecordName)
            if plot {
                let svg = options.plotSVG(report, recordName: "RR record")
                return HTTPResponse(status: 200, headers: [("Content-Type", "image/svg+xml"), ("Cache-Control", "no-store")], body: .bytes(Array(svg.utf8)))
            }
            return APIResponse.json(options.json(report))
        }
    }
}
