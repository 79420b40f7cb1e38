/// `POST /api/resonance`: a heart-rate record read against the session breathed, as `nagi resonance analyze` reads it.
extension NagiServer {
    func resonance(_ request: HTTPRequest, plot: Bool, known: Bool) -> HTTPResponse {
        guard known else { return Self.notFound(request.path) }
        return APIResponse.error("resonance analysis is not served yet", status: 501)
    }
}
