import Breath
import Foundation

/// The built-in presets for the fuzz targets, read from the repository's Presets folder (or
/// `NAGI_FUZZ_PRESETS`) the way the preset embedder tables them: `"patterns/box.json": text`.
enum FuzzCatalog {
    /// The catalog every target resolves preset names in.
    static let shared: PresetCatalog = PresetCatalog(builtinFiles: files())

    /// The `[relativePath: text]` table of `patterns/` and `courses/`.
    static func files() -> [String: String] {
        let root = ProcessInfo.processInfo.environment["NAGI_FUZZ_PRESETS"]
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../../Presets").standardized.path
        var table: [String: String] = [:]
        for category in ["patterns", "courses"] {
            let folder = root + "/" + category
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for name in names where name.hasSuffix(".json") {
                if let text = try? String(contentsOfFile: folder + "/" + name, encoding: .utf8) {
                    table["\(category)/\(name)"] = text
                }
            }
        }
        if table.isEmpty { fatalError("no presets found under \(root); set NAGI_FUZZ_PRESETS") }
        return table
    }
}
