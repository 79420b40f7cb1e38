import NagiBase
import NagiDocuments
import NagiKit
import NagiOptions

/// The server's answers in JSON: a document, or a refusal as one object `{"error": "<the line nagi prints>",
/// "parameter": "<the query parameter at fault>"}` with a status that says what kind of fault it is.
package enum APIResponse {
    /// A value as JSON, written by the one encoder (`JSONOutput`).
    package static func json<Value: Encodable>(_ value: Value, status: Int = 200) -> HTTPResponse {
        json(JSONOutput.line(value), status: status)
    }

    /// A JSON document already written by `JSONOutput` (what the command line prints too).
    package static func json(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "no-store")], body: .bytes(Array(text.utf8)))
    }

    /// A refusal: `message` (one line), its status and the parameter at fault.
    package static func error(_ message: String, status: Int, parameter: String? = nil) -> HTTPResponse {
        json(Refusal(error: ErrorLine.printable(ServedText.withoutPaths(message)), parameter: parameter), status: status)
    }

    /// A refusal's JSON; `parameter` is left out when no one parameter is at fault.
    private struct Refusal: Encodable {
        var error: String
        var parameter: String?
    }

    /// A fault as the API reports it: its line, written for the web, and the status for its category.
    package static func error(_ error: NagiError, parameter: String? = nil) -> HTTPResponse {
        self.error(error.message, status: status(for: error), parameter: parameter ?? Self.parameter(of: error))
    }

    /// A course named in the path that cannot be read: 404 when there is none by that name (`/api/presets` lists
    /// them), else its fault's status; no parameter is named, since the course is no query parameter.
    package static func courseError(_ error: BreathError) -> HTTPResponse {
        if case .notFound = error {
            return self.error(error.message + "; /api/presets lists the courses", status: 404)
        }
        return self.error(error.message, status: status(for: .breath(error)))
    }

    /// A query's fault.
    package static func error(_ error: QueryError) -> HTTPResponse {
        self.error(error.error, parameter: error.parameter)
    }

    /// Whatever `body` answers, or the refusal for what it throws: a query's fault, the command line's, an option's
    /// value or the engine's as the same line `nagi` prints; anything else as the server's own failure (500).
    package static func answering(_ body: () throws -> HTTPResponse) -> HTTPResponse {
        do {
            return try body()
        } catch let error as QueryError {
            return self.error(error)
        } catch let error as NagiError {
            return self.error(error)
        } catch let error as ArgumentError {
            return self.error(.arguments(error))
        } catch let error as SoundtrackError {
            return self.error(NagiError(error))
        } catch {
            return self.error("\(error)", status: 500)
        }
    }

    /// The status for a fault, by its kind (never by the command line's exit code): 400 a bad request or bad content,
    /// 404 something named that does not exist, 503 what is unavailable now (a device, a stopping server, a render
    /// stopped), 500 the server's own failures.
    static func status(for error: NagiError) -> Int {
        switch error.category {
        case .usage, .badData: 400
        case .missingInput: 404
        case .unavailable, nil: 503
        case .internalFailure, .cannotCreate, .inputOutput, .readerClosed: 500
        }
    }

    /// The query parameter a fault of the session names, when it is one.
    private static func parameter(of error: NagiError) -> String? {
        switch error {
        case .breath: "pattern"
        case let .arguments(fault):
            switch fault {
            case let .invalidValue(option, _, _), let .missingValue(option), let .repeatedOption(option): String(option.drop { $0 == "-" })
            default: nil
            }
        case .bed: "bed"
        case .cuePack: "cue-pack"
        default: nil
        }
    }
}
